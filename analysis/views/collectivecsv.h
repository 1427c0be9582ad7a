#pragma once
// The numbers behind each collective chart kind, one row per plotted point, quoted by libcsv.
#include <string>
#include <vector>

#include "views/chartdata.h"

namespace rl::charts {
// Bandwidth and latency: the points (and, with showFits, the fits after a blank line); scaling:
// one row per rank count; compare: the ratio of exactly two sessions (a caller checks; this writes
// only the header otherwise).
std::string collectiveCsv(ChartKind kind, const std::vector<SessionCurves>& sessions, const ChartOptions& options);
// Why the collective chart of sessions cannot be drawn or exported; empty when it can.
std::string collectiveExportProblem(ChartKind kind, const std::vector<SessionCurves>& sessions);
} // namespace rl::charts
