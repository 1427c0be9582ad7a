#pragma once
// The one export path the GUI and ridgeline-cli share: a collective chart to PNG, SVG or PDF at a
// fixed size (ChartOptions::width/height, not the screen's), or its data to CSV; the format comes
// from the file suffix. Works headless: needs a QApplication (any platform, e.g. offscreen) but
// no window. Failures return false with the writer's error string.
#include <optional>
#include <vector>

#include <QString>

#include "chartdata.h"

namespace rl::charts {

enum class ExportFormat { Png, Svg, Pdf, Csv };

std::optional<ExportFormat> exportFormatForPath(const QString& path); // by suffix, case-insensitive
// The analysis parameters written into SVG/PDF/PNG metadata: kind, metric, sessions, ranges.
QString describeParameters(ChartKind kind, const std::vector<SessionCurves>& sessions, const ChartOptions& options);

bool exportChart(ChartKind kind, const std::vector<SessionCurves>& sessions, const ChartOptions& options,
                 const QString& path, QString* error);
// The numbers behind the chart, one row per plotted point, quoted by libcsv.
bool exportChartData(ChartKind kind, const std::vector<SessionCurves>& sessions, const ChartOptions& options,
                     const QString& path, QString* error);
} // namespace rl::charts
