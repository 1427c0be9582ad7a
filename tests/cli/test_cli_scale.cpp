// Issue 26 item 11: `ridgeline-cli export --points` of a long session streams its points from the
// store to the file. Exported under a data limit well below what the points take in memory (the
// former export read them all into one vector first and ran out), every point arrives, and the
// file reads back.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "childprocess.h"
#include "scaleworkspace.h"
#include "store/workspace.h"
#include "tempdir.h"

namespace fs = std::filesystem;
using namespace rl;

namespace {
constexpr std::int64_t kPoints = 1'000'000;
// The points in memory are ~1,000,000 x sizeof(CollectivePoint) (~250 MB); the limit leaves the
// program, SQLite's page cache and the write buffer room, and no room for the points.
constexpr std::int64_t kDataLimit = 120 << 20;

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

std::vector<std::string> limited(std::vector<std::string> argv)
{
    // OpenBLAS's thread pool hangs at exit under a data limit: one thread, as on a login node.
    argv.insert(argv.begin(), {"env", "OPENBLAS_NUM_THREADS=1", "prlimit", "--data=" + std::to_string(kDataLimit)});
    return argv;
}
} // namespace

TEST(CliScale, ExportOfAMillionPointsStreamsInBoundedMemory)
{
    if (!fs::exists("/usr/bin/prlimit"))
        GTEST_SKIP() << "prlimit (util-linux) not available";
    ASSERT_GT(scale::pointBytes(kPoints), 2 * kDataLimit) << "the limit must be below the points' size";
    test::TempDir dir;
    const auto db = dir.path / "long.db";
    std::int64_t id = 0;
    {
        store::Workspace ws(db.string());
        scale::LongSession spec;
        spec.points = kPoints;
        id = scale::addLongSession(ws, spec);
    }
    const auto jsonl = dir.path / "long.jsonl";
    auto r = test::runToEnd(limited(cli(db, {"export", std::to_string(id), "--points", "-o", jsonl.string()})), 300);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(lines(jsonl), kPoints + 2); // session header, points, end record

    const auto csv = dir.path / "long.csv";
    r = test::runToEnd(limited(cli(db, {"export", std::to_string(id), "--points", "-o", csv.string()})), 300);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(lines(csv), kPoints + 1); // header and points
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
