#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "importers/collectivecsv.h"
#include "importers/importerregistry.h"
#include "io/csv.h"
#include "tempdir.h"

using namespace rl;

TEST(Csv, QuotesOnlyWhatNeedsIt)
{
    EXPECT_EQ(io::csvField("all_reduce"), "all_reduce");
    EXPECT_EQ(io::csvField("a,b"), "\"a,b\"");
    EXPECT_EQ(io::csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
    std::stringstream ss;
    io::writeCsvRow(ss, {"x", "a,b", "line\nbreak", ""});
    io::CsvReader reader(ss);
    io::CsvRow row;
    ASSERT_TRUE(reader.next(row));
    EXPECT_EQ(row.fields, (std::vector<std::string>{"x", "a,b", "line\nbreak", ""}));
    EXPECT_EQ(row.where.line, 1);
    EXPECT_FALSE(reader.next(row));
}

TEST(Csv, RowsKnowTheirLineAndOpenQuotesAreErrors)
{
    std::stringstream ss("a,b\n\n\"multi\nline\",c\nd,e\n\"open,f\n");
    io::CsvReader reader(ss);
    io::CsvRow row;
    ASSERT_TRUE(reader.next(row));
    EXPECT_EQ(row.where.line, 1);
    ASSERT_TRUE(reader.next(row));
    EXPECT_EQ(row.where.line, 3);
    EXPECT_EQ(row.fields[0], "multi\nline");
    ASSERT_TRUE(reader.next(row));
    EXPECT_EQ(row.where.line, 5);
    try {
        reader.next(row);
        FAIL() << "open quote not reported";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("line 6"), std::string::npos) << e.what();
    }
}

TEST(ImportCollectiveCsv, RoundTripThroughWriterAndRegistryIsExact)
{
    std::vector<CollectivePoint> points;
    for (int i = 0; i < 5; ++i) {
        CollectivePoint p;
        p.op = i % 2 ? "all_gather" : "all_reduce";
        p.nranks = 8;
        p.dtype = "bfloat16";
        p.redop = i % 2 ? "" : "sum";
        p.bytes = std::int64_t{1} << (10 + 4 * i);
        p.count = p.bytes / 2;
        p.inPlace = i == 3;
        p.timeUs = 10.0 / 3.0 * (i + 1);
        p.algbwGBs = p.bytes / p.timeUs / 1e3;
        p.busbwGBs = p.algbwGBs * 1.75;
        p.wrong = i == 4 ? -1 : 0;
        points.push_back(p);
    }
    test::TempDir dir;
    const std::string path = (dir.path / "points.csv").string();
    {
        std::ofstream out(path);
        writeCollectiveCsv(out, points);
    }
    auto r = importFile(path);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.format, "ridgeline-csv");
    ASSERT_EQ(r.sessions.size(), 1u);
    EXPECT_EQ(r.sessions[0].collectives, points);
}

// A --split session's points keep their groups in a last "group" column (only then: other files
// keep the header they always had).
TEST(ImportCollectiveCsv, SplitGroupsRoundTripInAnOptionalLastColumn)
{
    CollectivePoint p{"all_reduce", 2, "float32", "sum", 1024, 256, false, -1, 3.5, 0.29, 0.29, 0};
    std::ostringstream plain;
    writeCollectiveCsv(plain, {p});
    EXPECT_EQ(plain.str().find("group"), std::string::npos);
    std::vector<CollectivePoint> points{p, p};
    points[0].group = "ranks 0-1";
    points[1].group = "nodes a+b, c"; // quoted on the way out
    test::TempDir dir;
    const std::string path = (dir.path / "groups.csv").string();
    {
        std::ofstream out(path);
        writeCollectiveCsv(out, points);
    }
    auto r = importFile(path);
    ASSERT_TRUE(r.ok) << r.error;
    ASSERT_EQ(r.sessions.size(), 1u);
    EXPECT_EQ(r.sessions[0].collectives, points);
}

TEST(ImportCollectiveCsv, OpenQuoteFailsAndStoresNothing)
{
    auto r = importFile(std::string(RIDGELINE_TEST_DATA) + "/collectives/ridgeline_broken_quote.csv");
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(r.sessions.empty());
    EXPECT_NE(r.error.find("ridgeline_broken_quote.csv"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("line 3"), std::string::npos) << r.error;
}
