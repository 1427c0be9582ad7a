#pragma once
// Interns strings so millions of events share one copy of each kernel name.
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace rl::trace {

class StringTable
{
public:
    StringTable() { intern({}); } // id 0 is the empty string
    StringTable(const StringTable&) = delete;
    StringTable& operator=(const StringTable&) = delete;
    StringTable(StringTable&&) = default;
    StringTable& operator=(StringTable&&) = default;

    std::uint32_t intern(std::string_view s)
    {
        if (auto it = m_index.find(s); it != m_index.end())
            return it->second;
        const auto id = static_cast<std::uint32_t>(m_strings.size());
        m_strings.emplace_back(s); // deque: views into earlier strings stay valid
        m_index.emplace(m_strings.back(), id);
        return id;
    }
    std::string_view at(std::uint32_t id) const { return m_strings[id]; }
    std::size_t size() const { return m_strings.size(); }

private:
    std::deque<std::string> m_strings;
    std::unordered_map<std::string_view, std::uint32_t> m_index;
};
} // namespace rl::trace
