// Issue 26 item 11: `ridgeline-cli export --points` of a long session streams its points from the
// store to the file: its peak resident memory stays well below what the points take in memory (the
// former export read them all into one vector first: about 1x their size), every point arrives,
// and the file reads back. `results` and `fit` read the points as they come too (results twice:
// the table's widths, then its rows; fit keeps each point's size and time, 24 bytes).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "childprocess.h"
#include "scaleworkspace.h"
#include "store/workspace.h"
#include "tempdir.h"

namespace fs = std::filesystem;
using namespace rl;

namespace {
constexpr std::int64_t kPoints = 1'000'000;
// The points in memory are ~1,000,000 x sizeof(CollectivePoint) (~270 MB); half of that leaves the
// program, SQLite's page cache, the write buffer (and a sanitizer's bookkeeping) room, and no room
// for the points. A peak RSS, not a data limit: ASan reserves its shadow memory beyond any limit.
#if defined(__SANITIZE_ADDRESS__)
#define RL_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RL_TEST_ASAN 1
#endif
#endif
#ifdef RL_TEST_ASAN
// Under ASan its own bookkeeping (the shadow of the touched heap, allocator metadata) adds ~150 MB
// (measured: 170 MB in all): the bound is then the points' size, which the former export passed on
// the points alone.
constexpr std::int64_t kRssLimit = 272'000'000;
#else
constexpr std::int64_t kRssLimit = 128 << 20;
#endif

std::int64_t lines(const fs::path& file)
{
    std::ifstream in(file);
    std::string line;
    std::int64_t n = 0;
    while (std::getline(in, line))
        ++n;
    return n;
}

std::vector<std::string> cli(const fs::path& db, std::vector<std::string> args)
{
    std::vector<std::string> argv{RIDGELINE_CLI, "--db", db.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
}

// argv under GNU time, its peak resident set (KiB) written to rssFile. ASan's quarantine of freed
// blocks (256 MB by default) is not the program's memory: kept small here.
std::vector<std::string> measured(std::vector<std::string> argv, const fs::path& rssFile)
{
    const char* asan = std::getenv("ASAN_OPTIONS");
    std::string options = std::string(asan ? asan : "") + (asan && *asan ? ":" : "") + "quarantine_size_mb=8";
    argv.insert(argv.begin(), {"/usr/bin/time", "-f", "%M", "-o", rssFile.string(), "env", "ASAN_OPTIONS=" + options,
                               "OPENBLAS_NUM_THREADS=1"});
    return argv;
}

// argv with its stdout counted in lines rather than collected: the count is the output, the
// program's exit status the status.
std::vector<std::string> linesCounted(std::vector<std::string> argv)
{
    argv.insert(argv.begin(), {"/bin/bash", "-c", "set -o pipefail; \"$@\" | wc -l", "bash"});
    return argv;
}

std::int64_t peakRssBytes(const fs::path& rssFile)
{
    std::ifstream in(rssFile);
    std::int64_t kib = -1;
    in >> kib;
    return kib * 1024;
}
} // namespace

std::int64_t addLongSession(const fs::path& db)
{
    store::Workspace ws(db.string());
    scale::LongSession spec;
    spec.points = kPoints;
    return scale::addLongSession(ws, spec);
}

TEST(CliScale, ExportOfAMillionPointsStreamsInBoundedMemory)
{
    if (!fs::exists("/usr/bin/time"))
        GTEST_SKIP() << "GNU time (package time) not available";
    ASSERT_GE(scale::pointBytes(kPoints), kRssLimit) << "the limit must not be above the points' size";
    test::TempDir dir;
    const auto db = dir.path / "long.db";
    const std::int64_t id = addLongSession(db);
    const auto jsonl = dir.path / "long.jsonl";
    const auto rss = dir.path / "rss";
    auto r = test::runToEnd(measured(cli(db, {"export", std::to_string(id), "--points", "-o", jsonl.string()}), rss), 300);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(lines(jsonl), kPoints + 2); // session header, points, end record
    EXPECT_GT(peakRssBytes(rss), 0);
    EXPECT_LT(peakRssBytes(rss), kRssLimit) << "JSON lines: the peak RSS grows with the points";

    const auto csv = dir.path / "long.csv";
    r = test::runToEnd(measured(cli(db, {"export", std::to_string(id), "--points", "-o", csv.string()}), rss), 300);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(lines(csv), kPoints + 1); // header and points
    EXPECT_GT(peakRssBytes(rss), 0);
    EXPECT_LT(peakRssBytes(rss), kRssLimit) << "CSV: the peak RSS grows with the points";
}

TEST(CliScale, ResultsAndFitOfAMillionPointsStayInBoundedMemory)
{
    if (!fs::exists("/usr/bin/time") || !fs::exists("/bin/bash"))
        GTEST_SKIP() << "GNU time (package time) or bash not available";
    test::TempDir dir;
    const auto db = dir.path / "long.db";
    const std::string id = std::to_string(addLongSession(db));
    const auto rss = dir.path / "rss";

    // The table: a header and a row per point, then a line per op and rank count on its tier.
    auto r = test::runToEnd(linesCounted(measured(cli(db, {"results", id}), rss)), 300);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_GE(std::stoll(r.out), kPoints + 1);
    EXPECT_GT(peakRssBytes(rss), 0);
    EXPECT_LT(peakRssBytes(rss), kRssLimit) << "results: the peak RSS grows with the points";

    r = test::runToEnd(linesCounted(measured(cli(db, {"--json", "results", id}), rss)), 600);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(std::stoll(r.out), kPoints + 2); // the brackets, and a line per point
    EXPECT_LT(peakRssBytes(rss), kRssLimit) << "results --json: the peak RSS grows with the points";

    // 4 ops x in-place or not on 16 ranks: 8 fits.
    r = test::runToEnd(measured(cli(db, {"--json", "fit", id}), rss), 300);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto fits = nlohmann::json::parse(r.out);
    ASSERT_EQ(fits.size(), 8u) << r.out;
    for (const auto& f : fits)
        EXPECT_EQ(f.at("points").get<std::int64_t>(), kPoints / 8) << f.dump();
    EXPECT_LT(peakRssBytes(rss), kRssLimit) << "fit: the peak RSS grows with the points";
}

// A streamed export is the same file the importer reads back: a --split session through both
// formats keeps every point and group.
TEST(CliScale, StreamedExportReadsBackThePoints)
{
    test::TempDir dir;
    const auto db = dir.path / "split.db";
    std::vector<std::int64_t> ids;
    std::vector<CollectivePoint> want;
    {
        store::Workspace ws(db.string());
        scale::SplitSessions spec;
        spec.sessions = 1;
        spec.groups = 4;
        spec.sizes = 6;
        ids = scale::addSplitSessions(ws, spec);
        want = ws.collectivePoints(ids.front());
    }
    ASSERT_EQ(want.size(), 4u * 2 * 2 * 6);
    for (const char* ext : {".jsonl", ".csv"}) {
        const auto file = dir.path / (std::string("points") + ext);
        auto e = test::runToEnd(cli(db, {"export", std::to_string(ids.front()), "--points", "-o", file.string()}));
        ASSERT_EQ(e.exitCode, 0) << e.err;
        const auto db2 = dir.path / (std::string("again") + ext + ".db");
        auto i = test::runToEnd(cli(db2, {"import", file.string()}));
        ASSERT_EQ(i.exitCode, 0) << i.err;
        store::Workspace again(db2.string());
        const auto got = again.collectivePoints(again.sessions().front().id);
        ASSERT_EQ(got.size(), want.size()) << ext;
        for (std::size_t k = 0; k < got.size(); ++k) {
            EXPECT_EQ(got[k].group, want[k].group) << ext << " point " << k;
            EXPECT_EQ(got[k].bytes, want[k].bytes) << ext << " point " << k;
            EXPECT_EQ(got[k].timeUs, want[k].timeUs) << ext << " point " << k;
            EXPECT_EQ(got[k].busbwGBs, want[k].busbwGBs) << ext << " point " << k;
        }
    }
}
