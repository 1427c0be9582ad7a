#pragma once
// A JSON array printed one element at a time, byte for byte what nlohmann's dump(2) of the whole
// array prints: `results --json` of a long session need not hold millions of json objects.
#include <ostream>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rl::io {
class JsonArrayWriter
{
public:
    explicit JsonArrayWriter(std::ostream& out) : m_out(out) {}
    JsonArrayWriter(const JsonArrayWriter&) = delete;
    JsonArrayWriter& operator=(const JsonArrayWriter&) = delete;

    // An element one level in: each of its lines indented by two more spaces (a dumped string
    // holds no raw newline, so every newline starts a line of the element).
    void add(const nlohmann::json& element)
    {
        m_out << (m_empty ? "[\n  " : ",\n  ");
        m_empty = false;
        const std::string text = element.dump(2);
        std::string_view rest(text);
        for (auto nl = rest.find('\n'); nl != std::string_view::npos; nl = rest.find('\n')) {
            m_out << rest.substr(0, nl + 1) << "  ";
            rest.remove_prefix(nl + 1);
        }
        m_out << rest;
    }
    // Closes the array: "[]" when nothing was added.
    void finish() { m_out << (m_empty ? "[]" : "\n]"); }

private:
    std::ostream& m_out;
    bool m_empty = true;
};
} // namespace rl::io
