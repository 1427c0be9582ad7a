#include "records/keptrecords.h"

#include <array>
#include <utility>

namespace rl {
namespace {
constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kKept{{
    {"attention", "attention"},
    {"step", "timed_steps"}, // not "steps": the probe's header states --steps under that key
    {"reference", "references"},
    {"skipped", "skipped"},
    {"step_summary", "step_summary"},
}};
} // namespace

std::string keptRecordKey(std::string_view record)
{
    for (const auto& [name, key] : kKept)
        if (name == record)
            return std::string(key);
    return {};
}

bool keptRecordIsPoint(std::string_view record) { return record == "attention" || record == "step"; }

bool keepRecord(nlohmann::json& params, const wire::RawRecord& raw)
{
    const std::string key = keptRecordKey(raw.record);
    if (key.empty())
        return false;
    nlohmann::json kept = raw.object;
    kept.erase("record");
    if (raw.record == "step_summary") {
        params[key] = std::move(kept);
    } else {
        auto& list = params[key];
        if (!list.is_array()) // a header that used the key for something else loses it, not the records
            list = nlohmann::json::array();
        list.push_back(std::move(kept));
    }
    return true;
}
} // namespace rl
