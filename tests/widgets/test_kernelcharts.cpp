// Roofline geometry on hand-made ceilings with known answers, and the charts drawn from it.
#include <QChart>
#include <QLogValueAxis>

#include "kernelchartdata.h"
#include "membwchart.h"
#include "model/hardwareprofileloader.h"
#include "rooflinechart.h"
#include "test_gui_env.h"

using namespace rl;
using namespace rl::charts;

namespace {
KernelChartData handMade()
{
    KernelSession peak;
    peak.session.id = 1;
    peak.session.kind = kind::PeakFlops;
    PeakFlopsPoint p64;
    p64.dtype = "float64";
    p64.threads = 2;
    p64.gflops = 200;
    PeakFlopsPoint p64one = p64;
    p64one.threads = 1;
    p64one.gflops = 100; // the best over thread counts is the roof
    peak.peakFlops = {p64one, p64};
    KernelSession mem;
    mem.session.id = 2;
    mem.session.kind = kind::MemBandwidth;
    mem.memCeilings = {{"L1", "triad", 2, 4096, 32768, 400}, {"DRAM", "triad", 2, 1 << 27, 1 << 28, 20},
                       {"DRAM", "triad", 1, 1 << 27, 1 << 28, 12}}; // the highest thread count counts
    KernelSession gemm;
    gemm.session.id = 3;
    gemm.session.kind = kind::Gemm;
    GemmPoint g;
    g.dtype = "float64";
    g.m = g.n = g.k = 512;
    g.intensity = 2.0 * 512 * 512 * 512 / (8.0 * 3 * 512 * 512);
    g.gflops = 150;
    gemm.gemm = {g};
    return {{gemm, peak, mem}};
}
} // namespace

TEST(KernelCharts, RidgePointsAreWhereTheRoofMeetsEachSlope)
{
    const auto g = rooflineGeometry(handMade(), {});
    ASSERT_EQ(g.compute.size(), 1u);
    EXPECT_DOUBLE_EQ(g.compute[0].gflops, 200);
    ASSERT_EQ(g.bandwidth.size(), 2u);
    EXPECT_DOUBLE_EQ(g.bandwidth[0].gbs, 400); // fastest first
    EXPECT_DOUBLE_EQ(g.bandwidth[1].gbs, 20);
    ASSERT_EQ(g.ridges.size(), 2u);
    for (const auto& r : g.ridges) {
        EXPECT_DOUBLE_EQ(r.gflops, 200);
        EXPECT_DOUBLE_EQ(r.intensity, r.level == "L1" ? 0.5 : 10.0); // 200 GFLOP/s over 400 and 20 GB/s
    }
    ASSERT_EQ(g.gemm.size(), 1u);
    // The axes take the point, the ridges and a decade of room, on decade boundaries.
    EXPECT_LT(g.xMin, 0.5);
    EXPECT_GT(g.xMax, 42.0);
    EXPECT_DOUBLE_EQ(std::log10(g.xMin), std::round(std::log10(g.xMin)));
}

TEST(KernelCharts, AProfileAddsItsOwnCeilingsAndRidgesNeverMixOrigins)
{
    RooflineOptions o;
    o.hardware = findHardwareProfile("mi300x");
    const auto g = rooflineGeometry(handMade(), o);
    EXPECT_GT(g.compute.size(), 1u);
    for (const auto& r : g.ridges) {
        const bool measured = r.origin == CeilingOrigin::Measured;
        // A measured ridge lies on a measured roof: 200 GFLOP/s here, far below any MI300X peak.
        EXPECT_EQ(measured, r.gflops == 200) << r.dtype << " " << r.level;
    }
}

TEST(KernelCharts, RooflineChartUsesLogAxesWithUnitsAndAMembwSweepAloneDraws)
{
    RooflineChart chart;
    chart.resize(900, 600);
    chart.setData(handMade());
    const auto axes = chart.chart()->axes();
    ASSERT_EQ(axes.size(), 2);
    for (auto* a : axes) {
        ASSERT_TRUE(qobject_cast<QLogValueAxis*>(a));
        EXPECT_TRUE(a->titleText().contains(QStringLiteral("FLOP/byte")) ||
                    a->titleText().contains(QStringLiteral("GFLOP/s")))
            << a->titleText().toStdString();
    }
    KernelChartData membwOnly;
    membwOnly.sessions.push_back(handMade().sessions[2]);
    chart.setData(membwOnly); // no roof and no point: used to recurse forever in Qt's log domain
    const auto g = chart.geometry();
    EXPECT_TRUE(std::isfinite(g.yMin) && std::isfinite(g.yMax) && g.yMax > g.yMin);
}
