#pragma once
// The one export path the GUI and ridgeline-cli share, for every chart: PNG, SVG or PDF at a
// fixed size (not the screen's), or the chart's data as CSV; the format comes from the file
// suffix (views/exportformat.h, the rule ridgeline-cli follows too). Works headless: needs a QApplication (any platform, e.g. offscreen) but no window.
// Failures return false with the writer's error string.
#include <functional>
#include <string>
#include <vector>

#include <QSize>
#include <QString>

#include "views/chartdata.h"
#include "views/collectivecsv.h"
#include "views/exportformat.h"
#include "chartimage.h"

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace rl::charts {

// The format dispatch: .csv writes csv(), .png/.svg/.pdf render a chart filled by fill at size;
// any other suffix fails naming the four.
bool exportChartFile(const ChartFiller& fill, const std::function<std::string()>& csv, QSize size,
                     const QString& path, QString* error);

// The collective chart (bandwidth, latency, scaling, compare) of sessions, sized by
// ChartOptions::width/height.
// The analysis parameters written into SVG/PDF/PNG metadata: kind, metric, sessions, ranges.
QString describeParameters(ChartKind kind, const std::vector<SessionCurves>& sessions, const ChartOptions& options);

// Fills chart with the collective chart as the widget draws it; returns describeParameters().
QString populateCollectiveChart(QChart* chart, ChartKind kind, const std::vector<SessionCurves>& sessions,
                                const ChartOptions& options);
bool exportChart(ChartKind kind, const std::vector<SessionCurves>& sessions, const ChartOptions& options,
                 const QString& path, QString* error);
bool exportChartData(ChartKind kind, const std::vector<SessionCurves>& sessions, const ChartOptions& options,
                     const QString& path, QString* error);
} // namespace rl::charts
