// The pairs heatmap's data (analysis/views/pairsheatmapdata.h) on hand-built matrices: which cells
// are flagged, which rank is the suspect, the axes, bins, hover text and CSV.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "io/csv.h"
#include "views/pairsheatmapdata.h"

using namespace rl;
using namespace rl::views;

namespace {
PairPoint pair(int a, int b, double gbs, double us, const std::string& hostA = "node", const std::string& hostB = "node")
{
    PairPoint p;
    p.rankA = a;
    p.rankB = b;
    p.hostA = hostA;
    p.hostB = hostB;
    p.latencyBytes = 8;
    p.latencyUs = us;
    p.bandwidthBytes = 1 << 22;
    p.bandwidthGBs = gbs;
    p.iters = 20;
    return p;
}

// Four ranks on one host, rank 3 slow: its three pairs at 3 GB/s and 8 µs, the others at 10 GB/s
// and 2 µs. Medians (of six) 6.5 GB/s and 5 µs: 3/6.5 = 46 % and 8/5 = 1.6x, both past 0.8.
std::vector<PairPoint> fourRanksRankThreeSlow()
{
    return {pair(0, 1, 10, 2), pair(0, 2, 10, 2), pair(0, 3, 3, 8),
            pair(1, 2, 10, 2), pair(1, 3, 3, 8),  pair(2, 3, 3, 8)};
}

std::set<std::pair<int, int>> flaggedCells(const PairsHeatmap& h)
{
    std::set<std::pair<int, int>> out;
    for (const auto& c : h.cells)
        if (c.flagged)
            out.insert({c.column, c.row});
    return out;
}
} // namespace

TEST(PairsHeatmap, OneSlowRankFlagsItsRowAndColumnAndIsTheSuspect)
{
    const auto h = pairsHeatmap(fourRanksRankThreeSlow(), PairMetric::Bandwidth, 0.8);
    EXPECT_EQ(h.ranks, (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(h.labels, (std::vector<std::string>{"0", "1", "2", "3"})) << "one host: ranks on the axes";
    EXPECT_FALSE(h.byHost);
    ASSERT_EQ(h.cells.size(), 12u) << "both halves of the symmetric matrix, no diagonal";
    EXPECT_EQ(flaggedCells(h), (std::set<std::pair<int, int>>{{0, 3}, {3, 0}, {1, 3}, {3, 1}, {2, 3}, {3, 2}}));
    EXPECT_DOUBLE_EQ(h.report.medianBandwidthGBs, 6.5);
    ASSERT_EQ(h.report.suspects.size(), 1u) << "ranks 0-2 are in one slow pair each";
    EXPECT_EQ(h.report.suspects.front(), std::make_pair(3, 3));
    EXPECT_EQ(suspectLines(h), (std::vector<std::string>{"rank 3 (node) is in 3 of 3 slow pairs"}));
    const auto lines = slowPairLines(h);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines.front(), "rank 0 (node) ↔ rank 3 (node): bandwidth 46 % of the median, latency 1.6x the median");
}

TEST(PairsHeatmap, ThresholdBelowTheSlowPairsFlagsNothing)
{
    const auto h = pairsHeatmap(fourRanksRankThreeSlow(), PairMetric::Bandwidth, 0.4);
    EXPECT_TRUE(flaggedCells(h).empty());
    EXPECT_TRUE(suspectLines(h).empty());
}

TEST(PairsHeatmap, BinsRunFromTheLowestValueAndCellsLandInTheirs)
{
    const auto bw = pairsHeatmap(fourRanksRankThreeSlow(), PairMetric::Bandwidth, 0.8, 4);
    ASSERT_EQ(bw.bins.size(), 4u);
    EXPECT_FALSE(bw.logBins) << "3 to 10 GB/s spans less than a decade";
    EXPECT_DOUBLE_EQ(bw.bins.front().from, 3);
    EXPECT_DOUBLE_EQ(bw.bins.back().to, 10);
    EXPECT_EQ(bw.bins.front().label, "3 – 4.75 GB/s");
    for (const auto& c : bw.cells)
        EXPECT_EQ(c.bin, c.pair.rankB == 3 ? 0 : 3) << c.pair.rankA << "-" << c.pair.rankB;

    const auto lat = pairsHeatmap(fourRanksRankThreeSlow(), PairMetric::Latency, 0.8, 4);
    EXPECT_EQ(lat.unit, "µs");
    for (const auto& c : lat.cells) {
        EXPECT_DOUBLE_EQ(c.value, c.pair.latencyUs);
        EXPECT_EQ(c.bin, c.pair.rankB == 3 ? 3 : 0) << "the slow pairs have the highest latency";
    }
}

TEST(PairsHeatmap, ValuesOverADecadeGetLogBins)
{
    auto pairs = fourRanksRankThreeSlow();
    pairs[2].bandwidthGBs = 0.1; // 0.1 to 10 GB/s
    const auto h = pairsHeatmap(pairs, PairMetric::Bandwidth, 0.8, 2);
    ASSERT_TRUE(h.logBins);
    EXPECT_NEAR(h.bins[0].to, 1.0, 1e-9) << "the geometric middle of 0.1 and 10";
    for (const auto& c : h.cells) {
        if (c.pair.rankA == 0 && c.pair.rankB == 3) {
            EXPECT_EQ(c.bin, 0);
        } else {
            EXPECT_EQ(c.bin, 1) << "3 GB/s is above 1: the upper bin";
        }
    }
}

TEST(PairsHeatmap, OneRankPerHostPutsHostsOnTheAxes)
{
    const std::vector<PairPoint> pairs{pair(0, 1, 10, 2, "gpu-a", "gpu-b"), pair(0, 2, 10, 2, "gpu-a", "gpu-c"),
                                       pair(1, 2, 2, 9, "gpu-b", "gpu-c")};
    const auto h = pairsHeatmap(pairs, PairMetric::Bandwidth, 0.8);
    EXPECT_TRUE(h.byHost);
    EXPECT_EQ(h.labels, (std::vector<std::string>{"gpu-a", "gpu-b", "gpu-c"}));
    const auto& slow = *std::find_if(h.cells.begin(), h.cells.end(), [](const auto& c) { return c.flagged; });
    EXPECT_NE(slow.hover.find("gpu-b (rank 1) ↔ gpu-c (rank 2)"), std::string::npos) << slow.hover;
    EXPECT_NE(slow.hover.find("bandwidth 2 GB/s (4 MiB messages), 20 % of the median"), std::string::npos) << slow.hover;
    EXPECT_NE(slow.hover.find("latency 9 µs (8 B messages), 4.5x the median"), std::string::npos) << slow.hover;
    EXPECT_NE(slow.hover.find("20 timed round trips"), std::string::npos) << slow.hover;
    EXPECT_NE(slow.hover.find("slow: bandwidth 20 % of the median"), std::string::npos) << slow.hover;
}

TEST(PairsHeatmap, CsvHasOneRowPerPairWithItsFlag)
{
    const auto h = pairsHeatmap(fourRanksRankThreeSlow(), PairMetric::Latency, 0.8);
    std::istringstream in(pairsHeatmapCsv(h));
    io::CsvReader csv(in);
    io::CsvRow row;
    ASSERT_TRUE(csv.next(row));
    EXPECT_EQ(row.fields.front(), "rank_a");
    EXPECT_EQ(row.fields.back(), "slow");
    int rows = 0, slow = 0;
    while (csv.next(row)) {
        ++rows;
        EXPECT_EQ(row.fields.size(), 12u);
        if (row.fields.back() == "1") {
            ++slow;
            EXPECT_EQ(row.fields[1], "3");
            EXPECT_EQ(row.fields[9], "0.4615");
        }
    }
    EXPECT_EQ(rows, 6);
    EXPECT_EQ(slow, 3);
}

TEST(PairsHeatmap, NoPairsGiveAnEmptyHeatmap)
{
    const auto h = pairsHeatmap({}, PairMetric::Bandwidth, 0.8);
    EXPECT_TRUE(h.cells.empty());
    EXPECT_TRUE(h.bins.empty());
    EXPECT_EQ(pairsHeatmapCsv(h).find('\n'), pairsHeatmapCsv(h).size() - 1) << "the header only";
}
