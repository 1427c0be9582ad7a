#pragma once
// One place for formatting and parsing the quantities Ridgeline shows: bytes, bandwidth, time, FLOP/s,
// percent.
// Conventions: sizes are binary (KiB = 1024 B) as nccl-tests prints them; bandwidth is decimal GB/s
// (1e9 B/s) as nccl-tests and vendors quote it; time is microseconds internally.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rl::units {

// "8 B", "1 KiB", "1.5 MiB", "16 GiB". Exact powers print without decimals.
std::string formatBytes(double bytes);
// "256M", "1G", "8", "4K", "1.5GiB", "64KB" (K/M/G/T are binary, as in nccl-tests' -b/-e).
std::optional<std::int64_t> parseBytes(std::string_view text);

// Memory of a device or needed per GPU: units/memory.h (binary GiB, as devices report HBM).

// Bandwidth is measured and stored in GB/s; a display may show GiB/s (2^30 B/s) instead. The unit
// is chosen once per process (the GUI's Preferences; the CLI and reports keep GB/s unless set), so
// every formatted figure says the same unit.
enum class BandwidthUnit { GBps, GiBps };
void setDisplayBandwidthUnit(BandwidthUnit unit);
BandwidthUnit displayBandwidthUnit();
const char* bandwidthUnitName(BandwidthUnit unit);      // "GB/s", "GiB/s"
double bandwidthIn(double gbPerSecond, BandwidthUnit unit); // the GB/s figure in `unit`
// What a chart plots and how its axis or column says so, in the display unit, so the plotted
// number, the title and the formatted figures cannot disagree: 100 -> 93.13 (GiB/s), and
// "Bus bandwidth" -> "Bus bandwidth (GiB/s)".
double displayBandwidth(double gbPerSecond);
std::string bandwidthTitle(std::string_view quantity);

// "123.4 GB/s" (or "114.9 GiB/s": the display unit), "5.30 TB/s" from 1000 GB/s.
std::string formatBandwidth(double gbPerSecond);
std::string formatBandwidth(double gbPerSecond, BandwidthUnit unit);
std::string formatTime(double microseconds);     // "850 ns", "12.3 µs", "4.56 ms", "1.23 s"
std::string formatFlops(double flopsPerSecond);  // "989 TFLOP/s"
std::string formatFlop(double flop);             // a count, not a rate: "26.6 GFLOP"
std::string formatCount(double value);           // "7.24 B", "13.1 M" (parameter counts)
std::string formatPercent(double fraction);      // 0.463 -> "46 %", 0.045 -> "4.5 %"; "n/a" if not finite
// A fixed number of decimals (errors, goodput: 4.9 % vs 5.2 % matters); signed: "+4.9 %".
std::string formatPercent(double fraction, int decimals, bool withSign = false);

// Parses a double strictly (whole token, no trailing junk), accepting %g forms such as "1e+06".
std::optional<double> parseDouble(std::string_view text);
std::optional<std::int64_t> parseInt(std::string_view text);
// A parsed double that is a whole number an int64 holds exactly (|v| <= 2^53): counts printed as
// floats ("3", "1e+06"). Anything else is nullopt: casting 7.8e80 to an integer is undefined.
std::optional<std::int64_t> wholeNumber(double v);

constexpr double kGB = 1e9;
constexpr double kKiB = 1024.0;
} // namespace rl::units
