#pragma once
// Reading the records kept in a session's params (records/keptrecords.h): JSON objects written by
// the probe, or edited by hand in an exported file, so a field may be missing or of another type.
#include <string>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace rl::charts {

// record[key] when it is there with T's JSON type (a string, a boolean, a number), else fallback.
template <class T>
T keptField(const nlohmann::json& record, const char* key, T fallback)
{
    if (!record.is_object())
        return fallback;
    const auto it = record.find(key);
    if (it == record.end())
        return fallback;
    if constexpr (std::is_same_v<T, std::string>)
        return it->is_string() ? it->template get<std::string>() : fallback;
    else if constexpr (std::is_same_v<T, bool>)
        return it->is_boolean() ? it->template get<bool>() : fallback;
    else
        return it->is_number() ? it->template get<T>() : fallback;
}
} // namespace rl::charts
