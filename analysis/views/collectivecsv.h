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
// What a chart's export writes: its image, or its data (CSV: every point of the sessions).
enum class ExportedPart { Image, Data };
// What an export to `path` writes, by its suffix (views/exportformat.h): Data for .csv, else Image.
ExportedPart exportedPartFor(const std::string& path);
// Why the collective chart of sessions cannot be drawn or exported; empty when it can. Sessions
// held as their outlines (store/collectiveoutline.h) draw the bandwidth and latency charts as every
// point would, so those images are exported from them; their data, and the scaling and compare
// views, need every point.
std::string collectiveExportProblem(ChartKind kind, const std::vector<SessionCurves>& sessions,
                                    ExportedPart part = ExportedPart::Data);
} // namespace rl::charts
