#include "texttable.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>

namespace rl::cli {
namespace {
// Display width: count UTF-8 code points, not bytes ("µs" is two columns, not three).
std::size_t width(const std::string& s)
{
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}
// A number, or a number and its unit ("38.0 GB/s"); not a sentence that starts with a digit.
bool numeric(const std::string& s)
{
    return !s.empty() && (std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '-' || s[0] == '.') &&
           std::count(s.begin(), s.end(), ' ') <= 1;
}

void spaces(std::ostream& out, std::size_t n)
{
    static const std::string blank(64, ' ');
    for (; n > blank.size(); n -= blank.size())
        out << blank;
    out.write(blank.data(), static_cast<std::streamsize>(n));
}
} // namespace

TextTable::TextTable(std::vector<std::string> header) : m_header(std::move(header))
{
    m_widths.reserve(m_header.size());
    for (const auto& h : m_header)
        m_widths.push_back(width(h));
}

void TextTable::measure(const std::vector<std::string>& row)
{
    for (std::size_t c = 0; c < row.size() && c < m_widths.size(); ++c)
        m_widths[c] = std::max(m_widths[c], width(row[c]));
}

TextTable TextTable::columns(const std::vector<std::size_t>& which) const
{
    std::vector<std::string> header;
    for (auto c : which)
        header.push_back(m_header.at(c));
    TextTable t(std::move(header));
    for (std::size_t i = 0; i < which.size(); ++i)
        t.m_widths[i] = m_widths[which[i]];
    return t;
}

void TextTable::printLine(std::ostream& out, const std::vector<std::string>& r, bool header) const
{
    static const std::string empty;
    const auto& w = m_widths;
    for (std::size_t c = 0; c < w.size(); ++c) {
        const std::string& cell = c < r.size() ? r[c] : empty;
        // A row measured before it was printed may have grown since (a run still adding points).
        const std::size_t pad = w[c] - std::min(w[c], width(cell));
        const bool right = !header && numeric(cell);
        if (c)
            out << "  ";
        if (right)
            spaces(out, pad);
        out << cell;
        if (!right && c + 1 < w.size())
            spaces(out, pad);
    }
    out << '\n';
}

void TextTable::printHeader(std::ostream& out) const { printLine(out, m_header, true); }
void TextTable::printRow(std::ostream& out, const std::vector<std::string>& row) const { printLine(out, row, false); }

void TextTable::print(std::ostream& out) const
{
    printHeader(out);
    for (const auto& r : m_rows)
        printRow(out, r);
}

std::string numberCell(double v, int significant)
{
    if (!std::isfinite(v))
        return "n/a";
    char b[64]; // as printf's "%.*g" writes it (to_chars promises the same), without its cost
    const auto [end, ec] = std::to_chars(b, b + sizeof b, v, std::chars_format::general,
                                          significant < 0 ? 6 : std::max(significant, 1));
    return ec == std::errc() ? std::string(b, end) : std::to_string(v);
}
} // namespace rl::cli
