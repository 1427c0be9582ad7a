// The CSV behind the collective charts (views/collectivecsv.h) from real nccl-tests logs: what the
// GUI's Export as CSV and `ridgeline-cli export --chart bandwidth|latency|scaling|compare` write.
#include <gtest/gtest.h>

#include <sstream>

#include "io/csv.h"
#include "samplestore.h"
#include "views/collectivecsv.h"

using namespace rl;
using namespace rl::charts;

namespace {
std::vector<std::vector<std::string>> rows(const std::string& csv)
{
    std::istringstream in(csv);
    io::CsvReader reader(in);
    std::vector<std::vector<std::string>> out;
    io::CsvRow row;
    while (reader.next(row))
        out.push_back(row.fields);
    return out;
}

struct Sessions
{
    test::SampleStore store;
    std::int64_t h100x8 = 0, h100x16 = 0, h100x32 = 0;
    Sessions()
    {
        h100x8 = store.import(test::sampleData("nccl-tests_8xH100_all_collectives.txt")).front(); // all_reduce
        h100x16 = store.import(test::sampleData("nccl-tests_2node_16xH100_all_reduce.txt")).front();
        h100x32 = store.import(test::sampleData("nccl-tests_4node_32xH100_all_reduce.txt")).front();
    }
    std::vector<SessionCurves> load(const std::vector<std::int64_t>& ids) { return loadSessionCurves(store.workspace(), ids); }
};
} // namespace

TEST(CollectiveCsv, BandwidthRowsAreEveryStoredPointThenTheFits)
{
    Sessions s;
    const auto sessions = s.load({s.h100x8});
    const auto table = rows(collectiveCsv(ChartKind::Bandwidth, sessions, ChartOptions{}));
    ASSERT_FALSE(table.empty());
    EXPECT_EQ(table[0][0], "session_id");
    EXPECT_EQ(table[0][11], "busbw_gbs");
    std::size_t points = 0, fits = 0;
    bool inFits = false;
    for (std::size_t i = 1; i < table.size(); ++i) {
        if (table[i][0] == "fit_session_id") {
            inFits = true;
            continue;
        }
        (inFits ? fits : points) += 1;
    }
    EXPECT_EQ(points, sessions.front().points.size());
    EXPECT_GE(fits, 1u) << "the fit the chart draws";
    // nccl-tests' first all_reduce row: 8 B in 22 µs.
    EXPECT_EQ(table[1][2], "all_reduce");
    EXPECT_EQ(table[1][7], "8");
    EXPECT_EQ(table[1][9], "22");

    ChartOptions noFits;
    noFits.showFits = false;
    EXPECT_EQ(collectiveCsv(ChartKind::Latency, sessions, noFits).find("fit_session_id"), std::string::npos);
}

TEST(CollectiveCsv, ScalingHasOneRowPerRankCountAtTheChosenSize)
{
    Sessions s;
    const auto table = rows(collectiveCsv(ChartKind::Scaling, s.load({s.h100x8, s.h100x16, s.h100x32}), ChartOptions{}));
    ASSERT_EQ(table.size(), 4u);
    EXPECT_EQ(table[0], (std::vector<std::string>{"op", "nranks", "session_id", "session", "bytes", "busbw_gbs"}));
    std::vector<std::string> ranks;
    for (std::size_t i = 1; i < table.size(); ++i) {
        EXPECT_EQ(table[i][0], "all_reduce");
        EXPECT_EQ(table[i][4], "268435456") << "256 MiB, the default --size";
        EXPECT_GT(std::stod(table[i][5]), 0);
        ranks.push_back(table[i][1]);
    }
    EXPECT_EQ(ranks, (std::vector<std::string>{"8", "16", "32"}));
}

TEST(CollectiveCsv, CompareIsTheRatioOfBOverAAtEachSize)
{
    Sessions s;
    ChartOptions algbw;
    algbw.metric = BandwidthMetric::AlgBw;
    const auto table = rows(collectiveCsv(ChartKind::Compare, s.load({s.h100x8, s.h100x16}), algbw));
    ASSERT_GT(table.size(), 10u);
    EXPECT_EQ(table[0][3], "a_algbw_gbs");
    for (std::size_t i = 1; i < table.size(); ++i)
        EXPECT_NEAR(std::stod(table[i][5]), std::stod(table[i][4]) / std::stod(table[i][3]), 1e-6 * std::stod(table[i][5]))
            << "row " << i;
}

TEST(CollectiveCsv, CompareOfOneSessionIsAProblemNotAnEmptyFile)
{
    Sessions s;
    const auto one = s.load({s.h100x8});
    EXPECT_EQ(collectiveExportProblem(ChartKind::Compare, one), "compare needs exactly two sessions, got 1");
    EXPECT_EQ(collectiveExportProblem(ChartKind::Bandwidth, one), "");
}
