#pragma once
// The image-writing half of chart export, for any chart: a QChart filled by a populate function,
// laid out at a fixed size (not the screen's) in a scene without a window, then written as PNG,
// SVG or PDF by the file suffix with the title and the analysis parameters in the file's metadata.
// Needs a QApplication (any platform, e.g. offscreen). Failures return false with the writer's
// error string.
#include <cstddef>
#include <functional>
#include <string>

#include <QSize>
#include <QString>

#include <QColor>
#include <QList>
#include <QPointF>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QAbstractSeries;
class QChart;
class QScatterSeries;
QT_END_NAMESPACE

namespace rl::charts {

// Fills a fresh chart (owned by the caller) and returns the description for the file's metadata.
using ChartFiller = std::function<QString(QChart* chart)>;

// .png, .svg or .pdf; anything else fails with a message naming the suffixes.
bool writeChartImage(const ChartFiller& fill, QSize size, const QString& path, QString* error);
// Writes text to path through QSaveFile, so readers never see half a file.
bool writeChartText(const std::string& text, const QString& path, QString* error);

// Small pieces the populate functions share.
// Removes every series and axis, so a chart can be filled again.
void clearChart(QChart* chart);
// Adds a series to the chart on the two axes.
void attachSeries(QChart* chart, QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y);
// A text drawn centred just above `at` (in axis values), with no legend entry: Qt draws it as the
// point label of an invisible one-point series, so it moves with zoom and renders in any export.
QScatterSeries* addChartLabel(QChart* chart, QAbstractAxis* x, QAbstractAxis* y, QPointF at, const QString& text,
                              QColor color);
// The colour behind the plot (a gradient's first stop), whether it is dark (the dark theme), and a colour chosen for a light plot made
// visible on it: a dark colour keeps its hue and takes the mirrored lightness.
QColor plotBackground(const QChart* chart);
bool darkPlot(const QChart* chart);
QColor legibleOn(const QChart* chart, QColor color);
// The axis's minor grid a quarter of the way from the background to its major grid.
void softenMinorGrid(const QChart* chart, QAbstractAxis* axis);
// Index of the point whose x is nearest to x (0 for no points): hover callouts name that point.
std::size_t nearestByX(const QList<QPointF>& points, double x);
// Hides the legend entry of a series (ceilings labelled on the plot need none).
void hideFromLegend(QChart* chart, QAbstractSeries* series);
} // namespace rl::charts
