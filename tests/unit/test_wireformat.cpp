// The JSON-lines wire format on hostile input: numbers too big for their field, fractions where
// whole numbers belong, wrong types. Each is a clear error naming the field, never a silent
// wrap-around (found by the importer fuzzer: nlohmann casts 1e97 to int unchecked).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "importers/importerregistry.h"
#include "records/wireformat.h"
#include "tempdir.h"

using namespace rl;

namespace {
std::string errorOf(const std::string& line)
{
    try {
        wire::parseLine(line);
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}
} // namespace

TEST(WireFormat, PointRoundTripsExactly)
{
    CollectivePoint p{"all_gather", 8, "float32", "", std::int64_t{1} << 33, std::int64_t{1} << 28, true, -1,
                      1234.5, 6.9, 6.0375, 0};
    const auto rec = wire::parseLine(wire::toJson(p).dump());
    ASSERT_TRUE(rec);
    const auto& q = std::get<CollectivePoint>(*rec);
    EXPECT_EQ(q.bytes, p.bytes);
    EXPECT_EQ(q.count, p.count);
    EXPECT_TRUE(q.inPlace);
    EXPECT_DOUBLE_EQ(q.busbwGBs, p.busbwGBs);
}

TEST(WireFormat, IntegerFieldsAreRangeChecked)
{
    const std::string base = R"({"record":"collective","op":"all_reduce","time_us":1,)";
    EXPECT_NE(errorOf(base + R"("nranks":1e97,"bytes":8})").find("\"nranks\" is out of range"), std::string::npos);
    EXPECT_NE(errorOf(base + R"("nranks":4,"bytes":2.04444e+83})").find("\"bytes\" is out of range"), std::string::npos);
    EXPECT_NE(errorOf(base + R"("nranks":4,"bytes":9223372036854775808})").find("\"bytes\" is out of range"),
              std::string::npos);
    EXPECT_NE(errorOf(base + R"("nranks":4.5,"bytes":8})").find("\"nranks\" is not a whole number"), std::string::npos);
    EXPECT_NE(errorOf(base + R"("nranks":"four","bytes":8})").find("\"nranks\" is not a number"), std::string::npos);
    EXPECT_NE(errorOf(base + R"("bytes":8})").find("missing \"nranks\""), std::string::npos);
    // Integral floats are whole numbers: 1e6 bytes is fine.
    EXPECT_EQ(errorOf(base + R"("nranks":4,"bytes":1e6})"), "");
}

TEST(WireFormat, ImportOfAFileWithAHugeNumberKeepsTheGoodLinesAndNamesTheBadOne)
{
    test::TempDir dir;
    const std::string path = (dir.path / "huge.jsonl").string();
    {
        std::ofstream f(path);
        f << R"({"record":"session","kind":"collectives","tool":"ridgeline-bench"})" << '\n'
          << R"({"record":"collective","op":"all_reduce","nranks":2,"bytes":8,"time_us":3})" << '\n'
          << R"({"record":"collective","op":"all_reduce","nranks":2,"bytes":1e300,"time_us":3})" << '\n';
    }
    const auto r = importFile(path, {});
    ASSERT_EQ(r.sessions.size(), 1u);
    EXPECT_EQ(r.sessions[0].collectives.size(), 1u);
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_EQ(r.warnings[0].where.line, 3);
    EXPECT_NE(r.warnings[0].message.find("bytes"), std::string::npos);
}

TEST(WireFormat, RunnerStatisticsRoundTripAndAreOptional)
{
    CollectivePoint p{"all_reduce", 2, "float32", "sum", 1024, 256, false, -1, 3.5, 0.29, 0.29, 0};
    p.stats = CallStats{1000, 100, 1, 3.5, 3.0, 40.0, 3.25, 12.5, 0.4};
    const auto j = wire::toJson(p);
    EXPECT_EQ(j.at("stats").at("p99_us"), 12.5);
    const auto back = std::get<CollectivePoint>(*wire::parseLine(j.dump()));
    EXPECT_EQ(back, p);
    p.stats.reset();
    EXPECT_FALSE(wire::toJson(p).contains("stats"));
    EXPECT_FALSE(std::get<CollectivePoint>(*wire::parseLine(wire::toJson(p).dump())).stats);
    // Counts in the statistics are range-checked like every other integer field.
    const std::string bad = R"({"record":"collective","op":"all_reduce","nranks":2,"bytes":8,"time_us":1,)"
                            R"("stats":{"iters":1e30,"mean_us":1}})";
    EXPECT_ANY_THROW(wire::parseLine(bad));
}

TEST(WireFormat, SplitGroupRoundTripsAndIsAbsentWhenEmpty)
{
    CollectivePoint p{"all_reduce", 2, "float32", "sum", 1024, 256, false, -1, 3.5, 0.29, 0.29, 0};
    EXPECT_FALSE(wire::toJson(p).contains("group")) << "a run of all ranks prints what it always did";
    p.group = "ranks 2-3";
    const auto j = wire::toJson(p);
    EXPECT_EQ(j.at("group"), "ranks 2-3");
    EXPECT_EQ(std::get<CollectivePoint>(*wire::parseLine(j.dump())), p);
    // Files written before --split carry no group.
    const auto old = wire::parseLine(R"({"record":"collective","op":"all_reduce","nranks":2,"bytes":8,"time_us":1})");
    EXPECT_EQ(std::get<CollectivePoint>(*old).group, "");
}

// The export's fast writer (issue 26 item 11) against the json path it replaces: the same text,
// or where a double prints differently (nlohmann's Grisu2 against std::to_chars), the same value.
TEST(WireFormat, FastJsonLineReadsBackAsTheJsonPath)
{
    CollectivePoint plain{"all_reduce", 8, "float32", "sum", 1 << 20, 1 << 18, false, -1, 52.25, 20.07, 35.1, 0};
    CollectivePoint full = plain;
    full.inPlace = true;
    full.stats = CallStats{20, 5, 1, 52.25, 50.0, 61.5, 52.0, 60.0, 0.031};
    full.imbalance = 1.25;
    full.group = "ranks 0-1";
    CollectivePoint awkward = plain;
    awkward.op = "all\"to\\all\n";
    awkward.group = "nœud é";
    awkward.timeUs = 1e-7;
    awkward.algbwGBs = 12345678901234.0;
    awkward.busbwGBs = std::numeric_limits<double>::infinity();
    awkward.wrong = -1;
    for (const auto& p : {plain, full, awkward}) {
        std::ostringstream out;
        io::TextBuffer buf(out);
        wire::writeJsonLine(buf, p);
        buf.flush();
        const std::string line = out.str();
        ASSERT_FALSE(line.empty());
        EXPECT_EQ(line.back(), '\n');
        EXPECT_EQ(line.find('\n'), line.size() - 1) << line;
        EXPECT_EQ(nlohmann::json::parse(line), nlohmann::json::parse(wire::toJson(p).dump())) << line << "\n" << wire::toJson(p).dump();
        if (std::isfinite(p.busbwGBs)) {
            EXPECT_EQ(std::get<CollectivePoint>(*wire::parseLine(line)), p) << line;
        }
    }
    // Numbers whose shortest form is the same in both: the same bytes as dump().
    std::ostringstream out;
    io::TextBuffer buf(out);
    wire::writeJsonLine(buf, full);
    buf.flush();
    EXPECT_EQ(out.str(), wire::toJson(full).dump() + "\n");
}

// `results --json` of a long session writes each point's members and adds its verdicts after them
// (issue 26 item 11): the object reads back as toJson's with those members, a non-finite number
// as null and a string escaped.
TEST(WireFormat, JsonMembersAndAddedMembersReadBackAsOneObject)
{
    CollectivePoint p;
    p.op = "all_reduce";
    p.nranks = 16;
    p.dtype = "bfloat16";
    p.redop = "sum";
    p.bytes = 1 << 20;
    p.count = 1 << 19;
    p.timeUs = 12.5;
    p.algbwGBs = 83.9;
    p.busbwGBs = 157.3;
    p.group = "node \"a\"";
    std::ostringstream out;
    io::TextBuffer buf(out);
    buf.ch('{');
    wire::writeJsonMembers(buf, p);
    wire::writeJsonNumber(buf, "ratio", 0.25);
    wire::writeJsonNumber(buf, "missing", std::nan(""));
    wire::writeJsonText(buf, "tier", "inter-node\n");
    wire::writeJsonFlag(buf, "below", true);
    buf.ch('}');
    buf.flush();
    auto want = wire::toJson(p);
    want["ratio"] = 0.25;
    want["missing"] = nullptr;
    want["tier"] = "inter-node\n";
    want["below"] = true;
    EXPECT_EQ(nlohmann::json::parse(out.str()), want) << out.str();
}
