#pragma once
// Headless export for the trace and training-log charts: a chart filled by a populate function,
// drawn at a fixed size (not the screen's) to PNG, SVG or PDF by suffix, with the analysis
// parameters in the file's title and description; and CSV text written atomically. Needs a
// QApplication (any platform, e.g. offscreen) but no window. Failures return false with the
// writer's error string.
#include <functional>
#include <string>

#include <QSize>
#include <QString>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace rl::charts {

// Fills a fresh chart (owned by the caller) and returns the description for the file's metadata.
using ChartPopulator = std::function<QString(QChart* chart)>;

// .png, .svg or .pdf; anything else (including .csv) fails with a message naming the suffixes.
bool renderTraceChart(const ChartPopulator& populate, QSize size, const QString& path, QString* error);
// Writes text to path through QSaveFile, so readers never see half a file.
bool writeTextFile(const std::string& text, const QString& path, QString* error);
} // namespace rl::charts
