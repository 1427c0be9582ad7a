// What the roofline, memory-bandwidth and GEMM-efficiency charts show (views/kernelchartdata.h),
// from a real STREAM run and a real GEMM results table imported into a workspace.
#include <gtest/gtest.h>

#include <cmath>

#include "model/hardwareprofileloader.h"
#include "samplestore.h"
#include "views/kernelchartdata.h"

using namespace rl;
using namespace rl::charts;

namespace {
struct Kernels
{
    test::SampleStore store;
    std::int64_t stream = 0, gemm = 0;
    Kernels()
    {
        stream = store.import(test::sampleData("stream-5.10_2threads_kvm-vm.txt")).front();
        gemm = store.import(test::testData("kernels/gemm-generic.csv")).front();
    }
    KernelChartData load(const std::vector<std::int64_t>& ids) { return loadKernelCharts(store.workspace(), ids); }
};

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }
} // namespace

TEST(KernelChartData, StreamRunGivesOneTriadSlopeAndNoComputeRoof)
{
    Kernels k;
    const auto g = rooflineGeometry(k.load({k.stream}), RooflineOptions{});
    ASSERT_EQ(g.bandwidth.size(), 1u);
    EXPECT_EQ(g.bandwidth[0].level, "STREAM triad");
    EXPECT_NEAR(g.bandwidth[0].gbs, 41.0069, 1e-3); // STREAM's best triad rate, 41006.9 MB/s
    EXPECT_EQ(g.bandwidth[0].origin, CeilingOrigin::Measured);
    EXPECT_TRUE(g.compute.empty());
    EXPECT_TRUE(g.ridges.empty()) << "no roof to meet the slope";
}

// Issue 24, item 6: dtypes that share a peak (MI300X's fp32 and fp64, bf16 and fp16, fp8 and
// int8) are one roof, and were three ridges drawn twice at one point ("30.8 FLOP/B 30.8 FLOP/B").
TEST(KernelChartData, DtypesSharingAPeakMeetEachSlopeAtOneRidge)
{
    Kernels k;
    RooflineOptions o;
    o.hardware = findHardwareProfile("mi300x");
    const auto g = rooflineGeometry(k.load({k.stream}), o);
    std::size_t profileRoofs = 0, profileSlopes = 0, profileRidges = 0;
    for (const auto& c : g.compute)
        profileRoofs += c.origin == CeilingOrigin::Profile;
    for (const auto& b : g.bandwidth)
        profileSlopes += b.origin == CeilingOrigin::Profile;
    for (const auto& r : g.ridges)
        profileRidges += r.origin == CeilingOrigin::Profile;
    ASSERT_LT(profileRoofs, o.hardware->peakTflops.size()) << "some of MI300X's dtypes share a peak";
    EXPECT_EQ(profileRidges, profileRoofs * profileSlopes);
    for (std::size_t i = 0; i < g.ridges.size(); ++i)
        for (std::size_t j = i + 1; j < g.ridges.size(); ++j)
            EXPECT_FALSE(g.ridges[i].origin == g.ridges[j].origin && g.ridges[i].gflops == g.ridges[j].gflops
                         && g.ridges[i].intensity == g.ridges[j].intensity)
                << g.ridges[i].dtype << " and " << g.ridges[j].dtype << " at one point";
}

TEST(KernelChartData, ProfileRoofsMeetTheirOwnSlopesAtPeakOverBandwidth)
{
    Kernels k;
    RooflineOptions o;
    o.hardware = findHardwareProfile("h100-sxm");
    const auto g = rooflineGeometry(k.load({k.stream, k.gemm}), o);
    ASSERT_FALSE(g.compute.empty());
    ASSERT_FALSE(g.ridges.empty());
    for (std::size_t i = 1; i < g.compute.size(); ++i)
        EXPECT_GE(g.compute[i - 1].gflops, g.compute[i].gflops) << "highest first";
    for (const auto& r : g.ridges) {
        EXPECT_EQ(r.origin, CeilingOrigin::Profile) << "the measured CPU slope has no roof of its own";
        const auto roof = std::find_if(g.compute.begin(), g.compute.end(), [&](const ComputeRoof& c) {
            std::string names;
            for (const auto& d : c.dtypes)
                names += (names.empty() ? "" : ", ") + d;
            return c.origin == r.origin && names == r.dtype;
        });
        const auto slope = std::find_if(g.bandwidth.begin(), g.bandwidth.end(), [&](const BandwidthRoof& b) {
            return b.origin == r.origin && b.level == r.level;
        });
        ASSERT_NE(roof, g.compute.end());
        ASSERT_NE(slope, g.bandwidth.end());
        EXPECT_NEAR(r.intensity, roof->gflops / slope->gbs, 1e-9 * r.intensity);
    }
    // The GEMM table's points sit under the roofs, at 2MNK / bytes moved.
    ASSERT_EQ(g.gemm.size(), 1u);
    ASSERT_EQ(g.gemm[0].points.size(), 2u);
    for (const auto& p : g.gemm[0].points)
        EXPECT_LT(p.gflops, g.compute.front().gflops);
    EXPECT_LE(g.xMin, 1);
    EXPECT_GE(g.yMax, g.compute.front().gflops);

    const std::string csv = rooflineCsv(k.load({k.stream, k.gemm}), o);
    EXPECT_EQ(csv.substr(0, csv.find('\n')), "ceiling,name,origin,value,unit");
    EXPECT_NE(csv.find("bandwidth,STREAM triad,measured,41.0069,GB/s"), std::string::npos) << csv;
    EXPECT_NE(csv.find("gemm-generic.csv"), std::string::npos) << "the GEMM points' rows";
}

TEST(KernelChartData, MemBwCurvesFollowStreamsKernelOrder)
{
    Kernels k;
    const auto data = k.load({k.stream});
    const auto curves = memBwCurves(data);
    ASSERT_EQ(curves.size(), 4u);
    const char* kernels[] = {"copy", "scale", "add", "triad"};
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(curves[i].kernel, kernels[i]);
        EXPECT_EQ(curves[i].threads, 2);
        ASSERT_EQ(curves[i].points.size(), 1u);
    }
    EXPECT_NEAR(curves[3].points[0].bandwidthGBs, 41.0069, 1e-3);
    EXPECT_TRUE(memBwBands(data).empty()) << "STREAM alone detects no cache levels";
    const std::string csv = memBwCsv(data);
    EXPECT_EQ(csv.substr(0, csv.find('\n')), "session_id,kernel,threads,bytes,best_time_us,bandwidth_gbs");
    EXPECT_NE(csv.find(",triad,2,240000000,5853,41.0069\n"), std::string::npos) << csv;
}

TEST(KernelChartData, GemmSweepIsPerDtypeAndWavesNeedAProfile)
{
    Kernels k;
    const auto data = k.load({k.gemm});
    auto g = gemmEfficiencyGeometry(data, GemmEfficiencyOptions{});
    EXPECT_EQ(g.dimTitle, "M = N = K");
    ASSERT_EQ(g.sweeps.size(), 2u);
    EXPECT_EQ(g.sweeps[0].dtype, "bfloat16");
    ASSERT_EQ(g.sweeps[0].points.size(), 1u);
    EXPECT_EQ(g.sweeps[0].points[0].x, 2048);
    EXPECT_NEAR(g.sweeps[0].points[0].value, 95443.7, 0.1); // 2 * 2048^3 FLOP in 180 µs
    EXPECT_FALSE(g.percent) << "no peakflops session: GFLOP/s, not % of peak";
    EXPECT_TRUE(g.predicted.empty());
    EXPECT_EQ(g.sweeps[0].points[0].predicted, -1);

    GemmEfficiencyOptions withProfile;
    withProfile.hardware = findHardwareProfile("h100-sxm");
    g = gemmEfficiencyGeometry(data, withProfile);
    EXPECT_GT(g.computeUnits, 0);
    ASSERT_FALSE(g.predicted.empty());
    for (const auto& [x, eff] : g.predicted) {
        EXPECT_GT(eff, 0);
        EXPECT_LE(eff, 1);
    }
    EXPECT_GT(g.sweeps[0].points[0].predicted, 0);

    const std::string csv = gemmEfficiencyCsv(data, withProfile);
    EXPECT_EQ(lines(csv), 3u) << csv;
    EXPECT_NE(csv.find("bfloat16,2048,2048,2048,1,M = N = K,180,"), std::string::npos) << csv;
}

// The roofline's legend says "measured" for a run Ridgeline started (here: a run request kept
// with the session, as `ridgeline-cli run` keeps it) and "imported" for a file.
TEST(KernelChartData, GemmPointsOfARunAreMeasuredAndOfAFileImported)
{
    Kernels k;
    auto g = rooflineGeometry(k.load({k.gemm}), RooflineOptions{});
    ASSERT_EQ(g.gemm.size(), 1u);
    EXPECT_EQ(g.gemm[0].source, PointSource::Imported);
    nlohmann::json params = k.store.workspace().session(k.gemm)->params;
    params["request"] = {{"kind", "hipblaslt"}};
    k.store.workspace().setParams(k.gemm, params);
    g = rooflineGeometry(k.load({k.gemm}), RooflineOptions{});
    ASSERT_EQ(g.gemm.size(), 1u);
    EXPECT_EQ(g.gemm[0].source, PointSource::Measured);
}

// Issue 24, minor list: after a peakflops run on this machine the roofline kept the chosen GPU
// profile, whose slopes set the range, and the CPU's measured roof (GFLOP/s, not PFLOP/s) was below
// the chart. Every roof lies inside the y range, with room below it.
TEST(KernelChartData, AMeasuredCpuRoofStaysOnAGpuProfilesChart)
{
    KernelSession peak;
    peak.session.id = 1;
    peak.session.kind = kind::PeakFlops;
    PeakFlopsPoint p;
    p.dtype = "float64";
    p.threads = 2;
    p.gflops = 60;
    peak.peakFlops = {p};
    RooflineOptions o;
    o.hardware = findHardwareProfile("mi300x");
    const auto g = rooflineGeometry(KernelChartData{{peak}}, o);
    ASSERT_GT(g.compute.size(), 1u);
    for (const auto& c : g.compute) {
        EXPECT_GT(c.gflops, g.yMin) << c.label;
        EXPECT_LT(c.gflops, g.yMax) << c.label;
    }
}
