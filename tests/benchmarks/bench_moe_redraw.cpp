// Redraw time of the MoE explorer's scatter for a sweep of about 50,000 configurations (the issue's
// "stays interactive" target: well under a second). Not a ctest test: run it by hand,
//   QT_QPA_PLATFORM=offscreen bench_moe_redraw [configurations, default 51200]
// It prints the sweep time (in the explorer this runs in a worker), the chart's setRows + paint
// time, the metric-switch redraw time, and as the in-process reference the cost of painting the
// same number of bare circles with QPainter into an image of the same size; then the ratios.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QPixmap>

#include "model/collectivetimesource.h"
#include "model/devicerates.h"
#include "model/hardwareprofileloader.h"
#include "model/modelconfig.h"
#include "model/moesweep.h"
#include "moescatterchart.h"

namespace {
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Median of `repeats` runs of f, in seconds.
template <class F>
double medianSeconds(int repeats, F&& f)
{
    std::vector<double> t;
    for (int i = 0; i < repeats; ++i) {
        const auto t0 = Clock::now();
        f();
        t.push_back(secondsSince(t0));
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}
} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    const long wanted = argc > 1 ? std::max(100L, std::atol(argv[1])) : 51200;

    // Mixtral with nothing held: experts x top-k x shared x widths, widths sized to reach `wanted`.
    rl::model::MoeSweepSpec spec;
    spec.base = rl::model::loadPreset("mixtral-8x7b");
    spec.hold = rl::model::SweepHold::None;
    spec.experts = rl::model::parseSweepValues("8:256:8", "experts");
    spec.topK = rl::model::parseSweepValues("1:8", "top-k");
    spec.sharedExperts = rl::model::parseSweepValues("0:3", "shared");
    const long perWidth = long(spec.experts.size() * spec.topK.size() * spec.sharedExperts.size());
    const long widths = std::max(1L, (wanted + perWidth - 1) / perWidth);
    spec.expertWidths = rl::model::parseSweepValues("128:" + std::to_string(128 * widths) + ":128", "widths");
    rl::model::parseParallelSpec("dp=8,ep=8", spec.parallel);
    spec.decode.tp = spec.parallel.tp;
    const auto rates = rl::model::deviceRates(rl::findHardwareProfile("mi300x"), spec.parallel.dtype);
    const rl::model::ProfileCollectiveTime collectives(rates);

    auto t0 = Clock::now();
    const auto result = rl::model::runMoeSweep(spec, rates, collectives);
    const double sweep = secondsSince(t0);
    const auto& rows = result.rows;

    rl::charts::MoeScatterChart chart;
    chart.resize(1200, 800);
    chart.show();
    // setRows rebuilds the series; grab() lays out and paints the whole widget, as a screen update does.
    const double first = medianSeconds(3, [&] {
        chart.setRows(rows);
        (void)chart.grab();
    });
    bool mfu = false;
    const double metricSwitch = medianSeconds(3, [&] {
        mfu = !mfu;
        chart.setThroughput(mfu ? rl::charts::MoeThroughput::Mfu : rl::charts::MoeThroughput::TokensPerSecond);
        (void)chart.grab();
    });
    const double repaint = medianSeconds(5, [&] { (void)chart.grab(); });

    // Reference: the same number of 7 px circles painted straight into an image, no chart.
    QImage image(1200, 800, QImage::Format_ARGB32_Premultiplied);
    const double bare = medianSeconds(3, [&] {
        image.fill(Qt::white);
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        p.setBrush(Qt::blue);
        for (std::size_t i = 0; i < rows.size(); ++i)
            p.drawEllipse(QPointF(double(i * 7919 % 1180) + 10, double(i * 104729 % 780) + 10), 3.5, 3.5);
    });

    std::printf("MoE scatter redraw, %zu configurations (%zu on the Pareto front), 1200x800 px\n", rows.size(),
                chart.paretoOrder().size());
    std::printf("  sweep (worker thread in the GUI)  %8.1f ms  (%.2f M configs/s)\n", sweep * 1e3,
                double(rows.size()) / sweep / 1e6);
    std::printf("  setRows + paint                   %8.1f ms\n", first * 1e3);
    std::printf("  metric switch + paint             %8.1f ms\n", metricSwitch * 1e3);
    std::printf("  repaint only                      %8.1f ms\n", repaint * 1e3);
    std::printf("  reference: bare QPainter circles  %8.1f ms\n", bare * 1e3);
    std::printf("ratio setRows+paint / bare circles: %.2fx; share of the 1 s interactivity budget: %.0f %%\n",
                first / bare, first * 100);
    return first < 1.0 ? 0 : 1;
}
