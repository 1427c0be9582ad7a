// The MoE scatter's view data (views::moeScatterData): quantile bands, the front in latency
// order, the log/linear choice for the latency axis, rows that do not fit, and the hover text.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "model/memorymodel.h"
#include "model/sizingreport.h"
#include "views/moescatterdata.h"

using namespace rl;
using namespace rl::views;

namespace {
// Ten configurations: 1..10 B total parameters, 1..10 GB per GPU, decode 1..10 ms (reversed).
std::vector<model::MoeSweepRow> tenRows()
{
    std::vector<model::MoeSweepRow> rows;
    for (int i = 1; i <= 10; ++i) {
        model::MoeSweepRow r;
        r.experts = 8 * i;
        r.topK = 2;
        r.expertWidth = 1024;
        r.totalParams = i * 1e9;
        r.activeParams = 1e9;
        r.memoryPerGpuBytes = i * 1e9;
        r.tokensPerSecond = 1000.0 * i;
        r.mfu = 0.01 * i;
        r.decodeSecondsPerToken = (11 - i) * 1e-3;
        r.pareto = i % 3 == 0; // rows 3, 6, 9 (indices 2, 5, 8)
        rows.push_back(r);
    }
    return rows;
}
} // namespace

TEST(MoeScatterData, BandsAtQuantilesFrontByLatencyAndTheAxisChoice)
{
    auto rows = tenRows();
    rows[9].fits = false; // a row that does not fit is never on the front
    const auto d = moeScatterData(rows, MoeThroughput::TokensPerSecond);
    ASSERT_EQ(d.points.size(), 10u);
    // Parameter edges at the 2nd, 4th, 6th and 8th of the sorted values: 3, 5, 7, 9 B; a band names
    // the values it holds (1 and 2 B: 3 B is in the band above).
    ASSERT_EQ(d.colourBands.size(), 5u);
    EXPECT_DOUBLE_EQ(d.colourBands[0].lo, 1e9);
    EXPECT_DOUBLE_EQ(d.colourBands[0].hi, 2e9);
    EXPECT_DOUBLE_EQ(d.colourBands[4].lo, 9e9);
    EXPECT_DOUBLE_EQ(d.colourBands[4].hi, 10e9);
    EXPECT_EQ(d.colourBands[0].label, "1 B – 2 B params");
    EXPECT_EQ(d.points[0].colourBand, 0); // 1 B
    EXPECT_EQ(d.points[2].colourBand, 1); // 3 B: on an edge, the band above
    EXPECT_EQ(d.points[9].colourBand, 4); // 10 B
    // Memory edges (three bands) at the 3rd and 6th: 4 and 7 GB.
    EXPECT_EQ(d.points[2].sizeBand, 0);
    EXPECT_EQ(d.points[3].sizeBand, 1);
    EXPECT_EQ(d.points[6].sizeBand, 2);
    EXPECT_EQ(d.noFit, 1u);
    EXPECT_FALSE(d.points[9].fits);
    // The front by increasing decode latency: row 9 (2 ms), row 6 (5 ms), row 3 (8 ms).
    EXPECT_EQ(d.pareto, (std::vector<std::size_t>{8, 5, 2}));
    EXPECT_DOUBLE_EQ(d.points[8].decodeMs, 2);
    EXPECT_DOUBLE_EQ(d.points[8].y, 9000);
    // 1 to 10 ms is a decade: a log axis.
    EXPECT_TRUE(d.logX);
    EXPECT_DOUBLE_EQ(d.xMin, 1);
    EXPECT_DOUBLE_EQ(d.xMax, 10);
    EXPECT_EQ(d.description, "MoE sweep: 10 configurations, 3 on the Pareto front; y: Throughput (tokens/s)");

    // MFU in percent on y; latency within a decade stays on a linear axis.
    rows.resize(5); // 6..10 ms
    const auto m = moeScatterData(rows, MoeThroughput::Mfu);
    EXPECT_FALSE(m.logX);
    EXPECT_DOUBLE_EQ(m.points[4].y, 5.0);
    EXPECT_DOUBLE_EQ(m.yMax, 5.0);
    EXPECT_EQ(m.yTitle, "MFU (%)");

    const auto empty = moeScatterData({}, MoeThroughput::Mfu);
    EXPECT_TRUE(empty.points.empty());
    EXPECT_TRUE(empty.colourBands.empty());
}

TEST(MoeScatterData, HoverNamesTheConfigurationAndWhyItDoesNotFit)
{
    auto row = tenRows()[1];
    EXPECT_EQ(describeMoeRow(row),
              "16 experts, top-2, 0 shared, width 1024 · 2 B total / 1 B active params · 1.9 GiB per GPU · "
              "2 K tokens/s, MFU 2.0 % · decode 9 ms/token");
    row.fits = false;
    EXPECT_NE(describeMoeRow(row, 1e9).find(model::memoryFitProblem(2e9, 1e9)), std::string::npos);
    EXPECT_NE(describeMoeRow(row).find("does not fit the device's memory"), std::string::npos);
}

TEST(MoeScatterData, ADenseSearchIsColouredByItsHiddenSizeNotItsHeldParameters)
{
    // A dense search held at 8.03 B: the parameters say nothing; the hidden size is what was swept.
    auto rows = tenRows();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        rows[i].experts = 0;
        rows[i].topK = 0;
        rows[i].dModel = 1024 * int(i + 1);
        rows[i].totalParams = 8.03e9;
    }
    const auto d = moeScatterData(rows, MoeThroughput::TokensPerSecond);
    EXPECT_NE(d.title.find("Dense shape trade-off"), std::string::npos) << d.title;
    EXPECT_NE(d.title.find("colour: hidden size"), std::string::npos) << d.title;
    ASSERT_FALSE(d.colourBands.empty());
    EXPECT_EQ(d.colourBands.front().label.rfind("hidden 1024 – ", 0), 0u) << d.colourBands.front().label;
    EXPECT_NE(d.colourBands.back().label.find("– 10240"), std::string::npos) << d.colourBands.back().label;
    EXPECT_LT(d.points.front().colourBand, d.points.back().colourBand); // 1024 and 10240 in different bands
    // Two hidden sizes: each band names its one size, not the edges around it.
    rows.resize(4);
    rows[0].dModel = rows[1].dModel = 2048;
    rows[2].dModel = rows[3].dModel = 4096;
    const auto two = moeScatterData(rows, MoeThroughput::TokensPerSecond);
    std::set<std::string> labels;
    for (const auto& p : two.points)
        labels.insert(two.colourBands[std::size_t(p.colourBand)].label);
    EXPECT_EQ(labels, (std::set<std::string>{"hidden 2048", "hidden 4096"}));
    // A MoE search keeps its parameter colours.
    const auto moe = moeScatterData(tenRows(), MoeThroughput::TokensPerSecond);
    EXPECT_NE(moe.colourBands.front().label.find(" params"), std::string::npos) << moe.colourBands.front().label;
}
