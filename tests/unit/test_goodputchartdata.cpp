// The goodput charts' data (analysis/views/goodputchartdata.h) on real plans of the Llama 3 8B
// preset: the curve, Daly's optimum and Young's interval where the plan puts them, the axis unit
// following the optimum's size, the nodes curve with the planned job marked, the hover text and
// the CSV rows. Checked against the plan itself and against numbers worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "model/modelconfig.h"
#include "resilience/failures.h"
#include "resilience/resilienceplan.h"
#include "views/goodputchartdata.h"

using namespace rl;
using rl::views::GoodputChartKind;
using Role = rl::views::GoodputLine::Role;

namespace {
resilience::ResiliencePlan plan(double writeGBs, double nodeMtbfHours, const std::string& spec = "tp=2,pp=2,dp=4")
{
    const auto c = model::loadPreset("llama-3-8b");
    model::ParallelConfig base;
    base.zeroStage = 1;
    const auto p = model::parallelLayout(c, spec, base);
    resilience::ResilienceInputs in;
    in.storage.writeAggregateGBs = writeGBs;
    in.storage.readAggregateGBs = 2 * writeGBs;
    in.nodeMtbfHours = nodeMtbfHours;
    return resilience::planResilience(c, p, in);
}

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        out.push_back(l);
    return out;
}
} // namespace

TEST(GoodputChartData, IntervalCurveWithDalyOptimumAndYoungMarked)
{
    const auto p = plan(10, 2000);
    const auto d = views::goodputChart(p, GoodputChartKind::VsInterval, "llama-3-8b, tp=2 pp=2 dp=4");
    ASSERT_GE(d.lines.size(), 3u);
    EXPECT_EQ(d.lines[0].role, Role::Curve);
    ASSERT_EQ(d.lines[0].points.size(), p.vsInterval.size());
    // C = 14 x 8.03e9 B / 10 GB/s = 11.2 s; M = 2000 h / 2 nodes = 3.6e6 s: Young sqrt(2CM) = 8,980 s
    // = 150 min, so the axis is in minutes (the optimum is between 2 min and 3 h).
    EXPECT_NEAR(p.youngS, std::sqrt(2 * 14 * 8'030'261'248.0 / 10e9 * 3.6e6), 1e-6);
    EXPECT_EQ(d.xUnit, "min");
    EXPECT_DOUBLE_EQ(d.secondsPerXUnit, 60);
    EXPECT_NE(d.xTitle.find("(min"), std::string::npos);
    EXPECT_NE(d.yTitle.find('%'), std::string::npos);
    EXPECT_TRUE(d.logX);
    EXPECT_DOUBLE_EQ(d.lines[0].points.front().x, p.vsInterval.front().x / 60);
    EXPECT_DOUBLE_EQ(d.lines[0].points.front().y, p.vsInterval.front().goodput * 100);
    const auto& opt = d.lines[1];
    EXPECT_EQ(opt.role, Role::Optimum);
    ASSERT_EQ(opt.points.size(), 1u);
    EXPECT_DOUBLE_EQ(opt.points[0].x, p.intervalS / 60);
    EXPECT_DOUBLE_EQ(opt.points[0].y, p.goodput * 100);
    EXPECT_EQ(opt.name.rfind("Daly optimum: ", 0), 0u) << opt.name;
    // No point of the curve beats the optimum (it is the maximum of the same model).
    for (const auto& q : d.lines[0].points)
        EXPECT_LE(q.y, opt.points[0].y + 1e-9);
    const auto& young = d.lines[2];
    EXPECT_EQ(young.role, Role::Young);
    EXPECT_DOUBLE_EQ(young.points[0].x, p.youngS / 60);
    // Axis ranges hold every point; goodput tops out at 100 %.
    EXPECT_DOUBLE_EQ(d.yMax, 100);
    for (const auto& l : d.lines)
        for (const auto& q : l.points) {
            EXPECT_GE(q.y, d.yMin);
            EXPECT_GE(q.x, d.xMin);
            EXPECT_LE(q.x, d.xMax);
        }
    EXPECT_NE(d.title.find("goodput vs checkpoint interval"), std::string::npos);
    const auto hover = views::goodputHoverText(d, 1, 0);
    EXPECT_NE(hover.find("Daly optimum"), std::string::npos) << hover;
    EXPECT_NE(hover.find(" min: goodput "), std::string::npos) << hover;
    EXPECT_TRUE(views::goodputHoverText(d, 9, 0).empty());
}

TEST(GoodputChartData, IntervalUnitFollowsTheOptimum)
{
    // Slow storage and rare failures: an interval of hours. Fast storage and frequent failures: seconds.
    const auto hours = views::goodputChart(plan(0.5, 50000), GoodputChartKind::VsInterval, "x");
    EXPECT_EQ(hours.xUnit, "h");
    EXPECT_DOUBLE_EQ(hours.secondsPerXUnit, 3600);
    const auto secs = views::goodputChart(plan(1000, 0.5), GoodputChartKind::VsInterval, "x");
    EXPECT_EQ(secs.xUnit, "s");
}

TEST(GoodputChartData, NodesCurveMarksThePlannedJob)
{
    const auto p = plan(10, 2000);
    const auto d = views::goodputChart(p, GoodputChartKind::VsNodes, "llama-3-8b");
    EXPECT_EQ(d.xUnit, "nodes");
    ASSERT_EQ(d.lines.size(), 2u);
    ASSERT_EQ(d.lines[0].points.size(), p.vsNodes.size());
    // tp x pp = 4 divides 8 GPUs per node at every size: 1, 2, 4 ... 16384 nodes.
    EXPECT_EQ(p.vsNodes.size(), 15u);
    EXPECT_DOUBLE_EQ(d.lines[0].points.front().x, 1);
    EXPECT_DOUBLE_EQ(d.lines[0].points.back().x, 16384);
    // Goodput falls as the job grows (job MTBF = node MTBF / nodes).
    for (std::size_t i = 1; i < d.lines[0].points.size(); ++i)
        EXPECT_LT(d.lines[0].points[i].y, d.lines[0].points[i - 1].y);
    EXPECT_EQ(d.lines[1].role, Role::PlannedJob);
    EXPECT_DOUBLE_EQ(d.lines[1].points[0].x, 2);
    EXPECT_DOUBLE_EQ(d.lines[1].points[0].y, p.goodput * 100);
    EXPECT_NE(d.lines[1].name.find("this job: 2 nodes"), std::string::npos);
    // The planned job is one of the curve's sizes, with the same goodput.
    EXPECT_NEAR(d.lines[0].points[1].y, p.goodput * 100, 1e-9);
    EXPECT_EQ(views::goodputHoverText(d, 0, 2).find("goodput at Daly's interval\n4 nodes: goodput "), 0u);
}

TEST(GoodputChartData, CsvRowsOfEitherChartOrBoth)
{
    const auto p = plan(10, 2000);
    const auto both = lines(views::goodputCsv(p));
    ASSERT_FALSE(both.empty());
    EXPECT_EQ(both[0], "series,x,goodput");
    EXPECT_EQ(both.size(), 1 + p.vsInterval.size() + 2 + p.vsNodes.size());
    const auto interval = lines(views::goodputCsv(p, GoodputChartKind::VsInterval));
    EXPECT_EQ(interval.size(), 1 + p.vsInterval.size() + 2);
    EXPECT_EQ(std::count_if(interval.begin(), interval.end(), [](const auto& l) { return l.starts_with("optimum_interval_s,"); }), 1);
    const auto nodes = lines(views::goodputCsv(p, GoodputChartKind::VsNodes));
    EXPECT_EQ(nodes.size(), 1 + p.vsNodes.size());
    EXPECT_EQ(nodes[1].rfind("nodes,1,", 0), 0u) << nodes[1];
}

TEST(GoodputChartData, NoNodeCountFitsSaysWhy)
{
    auto p = plan(10, 2000);
    p.vsNodes.clear();
    const auto d = views::goodputChart(p, GoodputChartKind::VsNodes, "x");
    EXPECT_TRUE(d.lines.empty());
    EXPECT_FALSE(d.emptyReason.empty());
}
