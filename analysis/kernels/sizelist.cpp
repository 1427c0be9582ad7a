#include "kernels/sizelist.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "io/linereader.h"
#include "units/units.h"

namespace rl::kernels {
namespace {
std::int64_t parseValue(std::string_view part, std::string_view whole)
{
    const auto v = units::parseBytes(io::trim(part));
    if (!v)
        throw std::invalid_argument("bad number '" + std::string(part) + "' in '" + std::string(whole) + "'");
    return *v;
}
} // namespace

std::vector<std::int64_t> parseIntList(std::string_view text, std::size_t maxValues)
{
    std::vector<std::int64_t> out;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const auto comma = std::min(text.find(',', pos), text.size());
        const std::string_view item = io::trim(text.substr(pos, comma - pos));
        pos = comma + 1;
        if (item.empty())
            throw std::invalid_argument("empty item in list '" + std::string(text) + "'");
        const auto c1 = item.find(':');
        if (c1 == std::string_view::npos) {
            out.push_back(parseValue(item, text));
        } else {
            const auto c2 = item.find(':', c1 + 1);
            const std::int64_t start = parseValue(item.substr(0, c1), text);
            const std::int64_t stop = parseValue(item.substr(c1 + 1, c2 == std::string_view::npos ? std::string_view::npos
                                                                                             : c2 - c1 - 1), text);
            const std::int64_t step = c2 == std::string_view::npos ? 1 : parseValue(item.substr(c2 + 1), text);
            if (step <= 0 || stop < start)
                throw std::invalid_argument("bad range '" + std::string(item) + "' (want start:stop:step, step > 0)");
            for (std::int64_t v = start; v <= stop; v += step) {
                out.push_back(v);
                if (out.size() > maxValues)
                    break;
            }
        }
        if (out.size() > maxValues)
            throw std::invalid_argument("list '" + std::string(text) + "' has more than " +
                                        std::to_string(maxValues) + " values");
        if (comma == text.size())
            break;
    }
    return out;
}
} // namespace rl::kernels
