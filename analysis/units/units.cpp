#include "units/units.h"
#include "units/duration.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace rl::units {
namespace {
std::string printf3(double v, const char* unit)
{
    // Three significant digits, but no trailing ".0" for integers (1 KiB, not 1.00 KiB). to_chars
    // writes what printf's "%.Nf" would (the standard says so) at a fraction of its cost: a table
    // of millions of points formats several figures a row.
    const int decimals = std::fabs(v - std::round(v)) < 1e-9 || std::fabs(v) >= 100 ? 0 : std::fabs(v) >= 10 ? 1 : 2;
    char buf[352]; // the widest double in fixed notation, a space and a unit
    auto [end, ec] = std::to_chars(buf, buf + 320, v, std::chars_format::fixed, decimals);
    if (ec != std::errc())
        return std::to_string(v) + ' ' + unit;
    std::string out(buf, end);
    out += ' ';
    out += unit;
    return out;
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}
} // namespace

std::string formatBytes(double bytes)
{
    static constexpr std::array<const char*, 7> names{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = bytes;
    std::size_t i = 0;
    while (std::fabs(v) >= 1024.0 && i + 1 < names.size()) {
        v /= 1024.0;
        ++i;
    }
    return printf3(v, names[i]);
}

std::optional<std::int64_t> parseBytes(std::string_view text)
{
    text = trim(text);
    if (text.empty())
        return std::nullopt;
    double value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || value < 0)
        return std::nullopt;
    std::string_view suffix = trim(std::string_view(ptr, text.data() + text.size() - ptr));
    double mult = 1;
    if (!suffix.empty()) {
        switch (std::toupper(static_cast<unsigned char>(suffix.front()))) {
        case 'B': mult = 1; break;
        case 'K': mult = 1024.0; break;
        case 'M': mult = 1024.0 * 1024; break;
        case 'G': mult = 1024.0 * 1024 * 1024; break;
        case 'T': mult = 1024.0 * 1024 * 1024 * 1024; break;
        default: return std::nullopt;
        }
        std::string_view rest = suffix.substr(1);
        if (mult > 1 && !rest.empty() && (rest.front() == 'i' || rest.front() == 'I'))
            rest.remove_prefix(1);
        if (mult > 1 && !rest.empty() && (rest.front() == 'B' || rest.front() == 'b'))
            rest.remove_prefix(1);
        if (!rest.empty())
            return std::nullopt;
    }
    const double bytes = value * mult;
    if (bytes > 9.2e18)
        return std::nullopt;
    return static_cast<std::int64_t>(std::llround(bytes));
}

namespace {
std::atomic<BandwidthUnit> g_bandwidthUnit{BandwidthUnit::GBps}; // read by report and chart workers
} // namespace

void setDisplayBandwidthUnit(BandwidthUnit unit) { g_bandwidthUnit.store(unit); }
BandwidthUnit displayBandwidthUnit() { return g_bandwidthUnit.load(); }
const char* bandwidthUnitName(BandwidthUnit unit) { return unit == BandwidthUnit::GiBps ? "GiB/s" : "GB/s"; }
double bandwidthIn(double gbPerSecond, BandwidthUnit unit)
{
    return unit == BandwidthUnit::GiBps ? gbPerSecond * kGB / (kKiB * kKiB * kKiB) : gbPerSecond;
}

double displayBandwidth(double gbPerSecond) { return bandwidthIn(gbPerSecond, displayBandwidthUnit()); }
std::string bandwidthTitle(std::string_view quantity)
{
    return std::string(quantity) + " (" + bandwidthUnitName(displayBandwidthUnit()) + ")";
}

std::string formatBandwidth(double gbPerSecond) { return formatBandwidth(gbPerSecond, displayBandwidthUnit()); }
std::string formatBandwidth(double gbPerSecond, BandwidthUnit unit)
{
    // From 1000 of the unit up, the next prefix: HBM reads "5.30 TB/s", not "5300 GB/s".
    const double v = bandwidthIn(gbPerSecond, unit);
    if (std::fabs(v) >= 1000)
        return printf3(v / (unit == BandwidthUnit::GiBps ? kKiB : 1000), unit == BandwidthUnit::GiBps ? "TiB/s" : "TB/s");
    return printf3(v, bandwidthUnitName(unit));
}

std::string formatPercent(double fraction)
{
    if (!std::isfinite(fraction))
        return "n/a";
    char buf[32];
    // Whole percent reads best in tables; below 10 % the decimal still matters (4.5 % vs 4 %).
    std::snprintf(buf, sizeof buf, std::fabs(fraction) < 0.1 ? "%.1f %%" : "%.0f %%", fraction * 100);
    return buf;
}

std::string formatPercent(double fraction, int decimals, bool withSign)
{
    if (!std::isfinite(fraction))
        return "n/a";
    char buf[48];
    std::snprintf(buf, sizeof buf, withSign ? "%+.*f %%" : "%.*f %%", std::clamp(decimals, 0, 6), fraction * 100);
    return buf;
}

std::string formatTime(double us)
{
    const double a = std::fabs(us);
    if (a < 1.0)
        return printf3(us * 1e3, "ns");
    if (a < 1e3)
        return printf3(us, "µs");
    if (a < 1e6)
        return printf3(us / 1e3, "ms");
    return printf3(us / 1e6, "s");
}

std::string formatDuration(double s)
{
    if (!std::isfinite(s))
        return "n/a";
    char b[48];
    if (s < 120)
        std::snprintf(b, sizeof b, "%.1f s", s);
    else if (s < 3 * 3600)
        std::snprintf(b, sizeof b, "%.1f min", s / 60);
    else
        std::snprintf(b, sizeof b, "%.2f h", s / 3600);
    return b;
}

namespace {
std::string withFlopPrefix(double f, const std::array<const char*, 7>& names)
{
    double v = f;
    std::size_t i = 0;
    while (std::fabs(v) >= 1000.0 && i + 1 < names.size()) {
        v /= 1000.0;
        ++i;
    }
    return printf3(v, names[i]);
}
} // namespace

std::string formatFlops(double f)
{
    return withFlopPrefix(f, {"FLOP/s", "kFLOP/s", "MFLOP/s", "GFLOP/s", "TFLOP/s", "PFLOP/s", "EFLOP/s"});
}

std::string formatFlop(double f)
{
    return withFlopPrefix(f, {"FLOP", "kFLOP", "MFLOP", "GFLOP", "TFLOP", "PFLOP", "EFLOP"});
}

std::string formatCount(double value)
{
    static constexpr std::array<const char*, 5> names{"", "K", "M", "B", "T"};
    double v = value;
    std::size_t i = 0;
    while (std::fabs(v) >= 1000.0 && i + 1 < names.size()) {
        v /= 1000.0;
        ++i;
    }
    std::string s = printf3(v, names[i]);
    if (i == 0)
        s.pop_back(); // drop the space before an empty unit
    return s;
}

std::optional<double> parseDouble(std::string_view text)
{
    text = trim(text);
    if (!text.empty() && text.front() == '+')
        text.remove_prefix(1);
    double v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size() || text.empty())
        return std::nullopt;
    return v;
}

std::optional<std::int64_t> wholeNumber(double v)
{
    constexpr double kExact = 9007199254740992.0; // 2^53
    if (!std::isfinite(v) || std::fabs(v) > kExact || v != std::floor(v))
        return std::nullopt;
    return static_cast<std::int64_t>(v);
}

std::optional<std::int64_t> parseInt(std::string_view text)
{
    text = trim(text);
    if (!text.empty() && text.front() == '+')
        text.remove_prefix(1);
    std::int64_t v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size() || text.empty())
        return std::nullopt;
    return v;
}
} // namespace rl::units
