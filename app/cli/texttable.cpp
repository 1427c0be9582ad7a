#include "texttable.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

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
} // namespace

void TextTable::print(std::ostream& out) const
{
    std::vector<std::size_t> w(m_header.size(), 0);
    for (std::size_t c = 0; c < m_header.size(); ++c)
        w[c] = width(m_header[c]);
    for (const auto& r : m_rows)
        for (std::size_t c = 0; c < r.size() && c < w.size(); ++c)
            w[c] = std::max(w[c], width(r[c]));
    auto line = [&](const std::vector<std::string>& r, bool header) {
        for (std::size_t c = 0; c < w.size(); ++c) {
            const std::string cell = c < r.size() ? r[c] : std::string();
            const std::string pad(w[c] - width(cell), ' ');
            const bool right = !header && numeric(cell);
            out << (c ? "  " : "") << (right ? pad + cell : cell + (c + 1 < w.size() ? pad : ""));
        }
        out << '\n';
    };
    line(m_header, true);
    for (const auto& r : m_rows)
        line(r, false);
}


std::string numberCell(double v, int significant)
{
    if (!std::isfinite(v))
        return "n/a";
    char b[32];
    std::snprintf(b, sizeof b, "%.*g", significant, v);
    return b;
}
} // namespace rl::cli
