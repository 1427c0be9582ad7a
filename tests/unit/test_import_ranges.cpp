// Issue 26 item 6: figures out of range (negative sizes and times, inf, nan) are skipped row by row
// with a warning naming the file and line, and the rest of the file is stored. The fixtures in
// tests/data/hostile are real outputs from tests/data with a few values edited (see its README).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <unistd.h>

#include "importers/figurecheck.h"
#include "importers/importerregistry.h"
#include "store/fileimport.h"
#include "tempdir.h"

using namespace rl;
namespace fs = std::filesystem;
using rl::test::TempDir;

namespace {
std::string hostile(const char* name) { return std::string(RIDGELINE_TEST_DATA) + "/hostile/" + name; }
std::string data(const char* name) { return std::string(RIDGELINE_TEST_DATA) + "/" + name; }


// The warnings as the CLI prints them: "path:line: message".
std::vector<std::string> printed(const std::string& path, const std::vector<ImportWarning>& warnings)
{
    std::vector<std::string> out;
    for (const auto& w : warnings)
        out.push_back(describeLocation(path, w.where) + ": " + w.message);
    return out;
}

bool has(const std::vector<std::string>& lines, const std::string& line)
{
    return std::find(lines.begin(), lines.end(), line) != lines.end();
}

std::string joined(const std::vector<std::string>& lines)
{
    std::string out;
    for (const auto& l : lines)
        out += l + '\n';
    return out;
}

std::size_t collectiveCount(const ImportResult& r)
{
    std::size_t n = 0;
    for (const auto& s : r.sessions)
        n += s.collectives.size();
    return n;
}

void expectAllInRange(const std::vector<CollectivePoint>& points)
{
    for (const auto& p : points) {
        EXPECT_GE(p.bytes, 0);
        EXPECT_TRUE(std::isfinite(p.timeUs) && p.timeUs > 0) << p.timeUs;
        EXPECT_TRUE(std::isfinite(p.algbwGBs) && p.algbwGBs >= 0) << p.algbwGBs;
        EXPECT_TRUE(std::isfinite(p.busbwGBs) && p.busbwGBs >= 0) << p.busbwGBs;
    }
}
} // namespace

TEST(ImportRanges, FigureProblemNamesTheFigureTheValueAndWhatIsWrong)
{
    EXPECT_EQ(figureProblem("time", -123, "us"), "time -123 us is negative");
    EXPECT_EQ(figureProblem("time", INFINITY, "s"), "time inf s is infinite");
    EXPECT_EQ(figureProblem("time", -NAN, "us"), "time nan us is not a number");
    EXPECT_EQ(figureProblem("time", 0, "us", FigureRange::Positive), "time 0 us is zero");
    EXPECT_EQ(figureProblem("size", -1048576, "B"), "size -1048576 B is negative");
    EXPECT_EQ(figureProblem("time", 0, "us"), "");
    EXPECT_EQ(figureProblem("busbw", 394.72, "GB/s"), "");
}

TEST(ImportRanges, AZeroByteRowMayHaveZeroTimeButAMessageWithBytesMayNot)
{
    CollectivePoint empty;
    empty.bytes = 0;
    empty.timeUs = 0; // IMB prints 0.00 for some 0-byte rows
    EXPECT_EQ(figureProblem(empty), "");
    CollectivePoint full = empty;
    full.bytes = 1024;
    EXPECT_EQ(figureProblem(full), "time 0 us is zero");
}

TEST(ImportRanges, NcclTestsSkipsTheBadRowsWithFileAndLineAndStoresTheRest)
{
    const std::string path = hostile("nccl_allreduce_ranges.txt");
    TempDir tmp;
    store::Workspace ws((tmp.path / "w.db").string());
    const auto out = store::importIntoWorkspace(ws, path);
    ASSERT_TRUE(out.ok) << out.error; // before: "NOT NULL constraint failed" naming the workspace
    const auto lines = printed(path, out.warnings);
    EXPECT_TRUE(has(lines, path + ":17: size -32 B is negative; row skipped")) << joined(lines);
    EXPECT_TRUE(has(lines, path + ":20: time -123 us is negative; row skipped")) << joined(lines);
    EXPECT_TRUE(has(lines, path + ":22: time inf us is infinite; row skipped")) << joined(lines);
    EXPECT_TRUE(has(lines, path + ":24: time nan us is not a number; row skipped")) << joined(lines);
    EXPECT_EQ(out.warnings.size(), 4u) << joined(lines);
    ASSERT_EQ(out.sessionIds.size(), 1u);
    const auto points = ws.collectivePoints(out.sessionIds[0]);
    EXPECT_EQ(points.size(), 2u * (14 - 4)); // out-of-place and in-place of the 10 good rows
    expectAllInRange(points);
}

TEST(ImportRanges, OsuSkipsANegativeSizeAndAnInfiniteLatency)
{
    const std::string path = hostile("osu_ranges.txt");
    const auto r = importFile(path);
    ASSERT_TRUE(r.ok) << r.error;
    const auto lines = printed(path, r.warnings);
    EXPECT_TRUE(has(lines, path + ":8: size -1024 B is negative; row skipped")) << joined(lines);
    EXPECT_TRUE(has(lines, path + ":9: latency inf us is infinite; row skipped")) << joined(lines);
    ASSERT_EQ(r.sessions.size(), 1u);
    EXPECT_EQ(r.sessions[0].collectives.size(), 3u); // sizes 1, 2, 4
    expectAllInRange(r.sessions[0].collectives);
}

TEST(ImportRanges, ImbSkipsANegativeAndANanTime)
{
    const std::string path = hostile("imb_ranges.txt");
    const auto r = importFile(path);
    ASSERT_TRUE(r.ok) << r.error;
    const auto lines = printed(path, r.warnings);
    EXPECT_TRUE(has(lines, path + ":43: time -2.2 us is negative; row skipped")) << joined(lines);
    EXPECT_TRUE(has(lines, path + ":44: time nan us is not a number; row skipped")) << joined(lines);
    const auto original = importFile(data("collectives/imb_mpi1_allreduce_allgather_pingpong.txt"));
    ASSERT_TRUE(original.ok) << original.error;
    EXPECT_EQ(collectiveCount(r), collectiveCount(original) - 2);
    EXPECT_EQ(r.sessions.size(), original.sessions.size());
}

TEST(ImportRanges, StreamSkipsANegativeTimeAndAnInfiniteRate)
{
    const std::string path = hostile("stream_ranges.txt");
    const auto r = importFile(path);
    ASSERT_TRUE(r.ok) << r.error;
    const auto lines = printed(path, r.warnings);
    EXPECT_TRUE(has(lines, path + ":28: best time -4220 us is negative; row skipped")) << joined(lines);
    EXPECT_TRUE(has(lines, path + ":29: bandwidth inf GB/s is infinite; row skipped")) << joined(lines);
    ASSERT_EQ(r.sessions.size(), 1u);
    ASSERT_EQ(r.sessions[0].membw.size(), 2u);
    EXPECT_EQ(r.sessions[0].membw[0].kernel, "copy");
    EXPECT_EQ(r.sessions[0].membw[1].kernel, "triad");
}

TEST(ImportRanges, GemmCsvSkipsNegativeInfiniteAndNanTimes)
{
    const std::string path = hostile("gemm_ranges.csv");
    const auto r = importFile(path);
    ASSERT_TRUE(r.ok) << r.error;
    const auto lines = printed(path, r.warnings);
    EXPECT_TRUE(has(lines, path + ":3: time -180 us is negative; row skipped")) << joined(lines);
    EXPECT_TRUE(has(lines, path + ":4: time inf us is infinite; row skipped")) << joined(lines);
    EXPECT_TRUE(has(lines, path + ":5: time nan us is not a number; row skipped")) << joined(lines);
    ASSERT_EQ(r.sessions.size(), 1u);
    EXPECT_EQ(r.sessions[0].gemms.size(), 2u);
}

TEST(ImportRanges, TrainingTableSkipsBadStepTimesAndKeepsANanLoss)
{
    const std::string path = hostile("metrics_ranges.csv");
    const auto r = importFile(path);
    ASSERT_TRUE(r.ok) << r.error;
    const auto lines = printed(path, r.warnings);
    EXPECT_TRUE(has(lines, path + ":3: step time -1100 ms is negative; row skipped")) << joined(lines);
    EXPECT_TRUE(has(lines, path + ":5: step time inf ms is infinite; row skipped")) << joined(lines);
    ASSERT_EQ(r.sessions.size(), 1u);
    std::vector<std::int64_t> steps;
    for (const auto& s : r.sessions[0].trainSteps)
        steps.push_back(s.step);
    EXPECT_EQ(steps, (std::vector<std::int64_t>{1, 3, 5})); // step 3's nan loss is what the log said
}

TEST(ImportRanges, TheLastPassDropsWhatAnImporterLetThroughAndEmptiedSessions)
{
    ImportResult r;
    SessionData kept;
    kept.session.title = "kept";
    CollectivePoint good;
    good.bytes = 8;
    good.timeUs = 10;
    CollectivePoint bad = good;
    bad.busbwGBs = INFINITY;
    kept.collectives = {good, bad};
    SessionData emptied;
    emptied.session.title = "emptied";
    StoragePoint nanTime;
    nanTime.timeS = NAN;
    emptied.storage = {nanTime};
    SessionData header; // a run's header with no points yet stays as the importer made it
    header.session.title = "header";
    r.sessions = {kept, emptied, header};
    dropOutOfRange(r);
    ASSERT_EQ(r.sessions.size(), 2u);
    EXPECT_EQ(r.sessions[0].session.title, "kept");
    EXPECT_EQ(r.sessions[0].collectives, std::vector<CollectivePoint>{good});
    EXPECT_EQ(r.sessions[1].session.title, "header");
    ASSERT_EQ(r.warnings.size(), 2u);
    EXPECT_EQ(r.warnings[0].message, "session 'kept', collective point 2: busbw inf GB/s is infinite; skipped");
    EXPECT_EQ(r.warnings[1].message, "session 'emptied', storage point 1: time nan s is not a number; skipped");
}
