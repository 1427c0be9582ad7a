// The Qt build's chart images (chartimages.h): the GUI's chart code, headless. The charts of
// stored sessions are in sessionchartimages.cpp.
#include "chartimages.h"

#include <stdexcept>

#include <QApplication>

#include "chartexport.h"
#include "chartoutput.h"
#include "goodputchart.h"
#include "moescatterchart.h"

namespace rl::cli {
bool chartImagesAvailable() { return true; }
std::string chartImagesMissing() { return {}; }

std::string qtVersionLine()
{
    std::string line = std::string("Qt ") + qVersion();
    if (std::string(qVersion()) != QT_VERSION_STR)
        line += std::string(" (built with ") + QT_VERSION_STR + ")";
    return line;
}

// Charts are drawn by QtCharts, which needs an application object: offscreen without a display.
QApplication& chartApplication()
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "ridgeline-cli";
    static char* argv[] = {name, nullptr};
    // Never destroyed: tearing Qt down among other static destructors at exit is not worth the risk.
    static auto* app = new QApplication(argc, argv);
    return *app;
}

void drawChart(const std::string& path, const std::function<bool(const QString& path, QString* error)>& exportTo)
{
    chartApplication();
    QString error;
    if (!exportTo(QString::fromStdString(path), &error))
        throw std::runtime_error(error.isEmpty() ? path + ": export failed" : error.toStdString());
}

void writeCollectiveChartImage(charts::ChartKind kind, const std::vector<charts::SessionCurves>& sessions,
                               const charts::ChartOptions& options, const std::string& path)
{
    drawChart(path, [&](const QString& p, QString* error) { return charts::exportChart(kind, sessions, options, p, error); });
}

void writeMoeSweepImage(const model::MoeSweepResult& sweep, bool mfu, const ImageSize& size, const std::string& path)
{
    const auto metric = mfu ? charts::MoeThroughput::Mfu : charts::MoeThroughput::TokensPerSecond;
    drawChart(path, [&](const QString& p, QString* error) {
        return charts::MoeScatterChart::exportChart(sweep.rows, metric, QSize(size.width, size.height), p, error,
                                                    sweep.deviceMemoryBytes);
    });
}

void writeGoodputChart(const resilience::ResiliencePlan& plan, bool vsNodes, const std::string& subject,
                       const std::string& basis, const ImageSize& size, const std::string& path)
{
    const auto kind = vsNodes ? views::GoodputChartKind::VsNodes : views::GoodputChartKind::VsInterval;
    drawChart(path, [&](const QString& p, QString* error) {
        return charts::GoodputChart::exportChart(plan, kind, subject, basis, QSize(size.width, size.height), p, error);
    });
}
} // namespace rl::cli
