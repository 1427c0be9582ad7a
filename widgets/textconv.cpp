#include "textconv.h"

#include <sstream>

namespace rl::charts {
std::string csvNumber(double v)
{
    std::ostringstream s;
    s.precision(10);
    s << v;
    return s.str();
}
} // namespace rl::charts
