#include "io/linereader.h"

#include <cctype>
#include <vector>

namespace rl::io {

bool LineReader::next(std::string& line)
{
    line.clear();
    m_lineStart = m_offset;
    if (!std::getline(m_in, line)) {
        return false;
    }
    m_offset += static_cast<std::int64_t>(line.size()) + (m_in.eof() ? 0 : 1);
    if (!line.empty() && line.back() == '\r')
        line.pop_back();
    ++m_lineNo;
    return true;
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> splitFields(std::string_view line, char separator)
{
    std::vector<std::string_view> out;
    for (std::size_t pos = 0;;) {
        const auto at = line.find(separator, pos);
        out.push_back(trim(line.substr(pos, at == std::string_view::npos ? std::string_view::npos : at - pos)));
        if (at == std::string_view::npos)
            return out;
        pos = at + 1;
    }
}

std::string lowerAscii(std::string_view s)
{
    std::string out(s);
    for (auto& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::vector<std::string_view> splitWhitespace(std::string_view line)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i])))
            ++i;
        const std::size_t start = i;
        while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i])))
            ++i;
        if (i > start)
            out.push_back(line.substr(start, i - start));
    }
    return out;
}

std::string_view stripLauncherPrefix(std::string_view line)
{
    // Open MPI --tag-output: "[1,0]<stdout>:" or "[1,0]<stderr>:"
    if (line.starts_with('[')) {
        const auto close = line.find("]<std");
        if (close != std::string_view::npos && close < 24) {
            const auto colon = line.find(">:", close);
            if (colon != std::string_view::npos)
                line.remove_prefix(colon + 2);
        } else {
            // srun -l / mpiexec -l style "[0] " or "[0]: "
            std::size_t i = 1;
            while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])))
                ++i;
            if (i > 1 && i < line.size() && line[i] == ']') {
                ++i;
                if (i < line.size() && line[i] == ':')
                    ++i;
                line.remove_prefix(i);
            }
        }
    }
    // ISO timestamp prefix from log collectors: "2024-05-01T12:00:00.123Z " or "2024-05-01 12:00:00 "
    if (line.size() > 20 && std::isdigit(static_cast<unsigned char>(line[0])) && line[4] == '-' &&
        line[7] == '-' && (line[10] == 'T' || line[10] == ' ') && line[13] == ':') {
        const auto sp = line.find(' ', 11);
        if (sp != std::string_view::npos && sp < 40)
            line.remove_prefix(sp + 1);
    }
    // kubectl logs --prefix "[pod/name/container] " and launcher "host-1 | " / "0: " prefixes
    if (line.starts_with("[pod/")) {
        const auto close = line.find("] ");
        if (close != std::string_view::npos)
            line.remove_prefix(close + 2);
    }
    const auto bar = line.find(" | ");
    if (bar != std::string_view::npos && bar < 64 && line.substr(0, bar).find(' ') == std::string_view::npos)
        line.remove_prefix(bar + 3);
    {
        std::size_t i = 0;
        while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])))
            ++i;
        if (i > 0 && i + 1 < line.size() && line[i] == ':' && line[i + 1] == ' ')
            line.remove_prefix(i + 2);
    }
    return line;
}

bool looksBinary(std::string_view head)
{
    if (head.empty())
        return false;
    std::size_t bad = 0;
    for (unsigned char c : head) {
        if (c == 0)
            return true;
        if (c < 0x09 || (c > 0x0d && c < 0x20 && c != 0x1b))
            ++bad;
    }
    return bad * 10 > head.size();
}
} // namespace rl::io
