// Issue 13, per-node subsets: a real 4-rank `run collectives --split ranks:2` with rank 2 slowed by
// the stand-in delay. `results` shows each point's group and names the slow group; the points keep
// their groups through export --points (JSON lines and CSV) and import; the bandwidth chart has a
// curve per group with the group in its legend.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "childprocess.h"
#include "clirun.h"
#include "svgtext.h"
#include "tempdir.h"

namespace fs = std::filesystem;
using namespace rl;

namespace {
using test::cli;

int count(const std::string& text, const std::string& what)
{
    int n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}
} // namespace

TEST(CliSplit, ASlowedGroupIsNamedAndGroupsSurviveExportAndImport)
{
    if (!fs::exists(RIDGELINE_MPIEXEC) || !fs::exists(RIDGELINE_BENCH))
        GTEST_SKIP() << "mpirun or ridgeline-bench not available";
    test::TempDir dir;
    const auto db = dir.path / "w.db";
    // Rank 2 sleeps 20 ms before every call: its group's calls take at least that long, where the
    // other group's take microseconds (or a few ms when the polling ranks starve each other on an
    // oversubscribed 2-core machine; the sleeping rank frees a core).
    const auto r = test::runToEnd(test::cliRun(db, "collectives", 4,
                                               {"--split", "ranks:2", "--ops", "all_reduce", "--inplace", "0", "-b", "1K",
                                                "-e", "64K", "-f", "8", "-w", "1", "-n", "3", "--delay-rank", "2",
                                                "--delay-us", "20000"}),
                                  180);
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;

    auto res = test::runToEnd(cli(db, {"results", "1"}));
    ASSERT_EQ(res.exitCode, 0) << res.err;
    EXPECT_NE(res.out.find("group"), std::string::npos) << res.out;
    EXPECT_EQ(count(res.out, "ranks 0-1"), 3) << res.out; // 1, 8 and 64 KiB
    EXPECT_NE(res.out.find("slowest: ranks 2-3 at 64 KiB (all_reduce): busbw "), std::string::npos) << res.out;
    EXPECT_NE(res.out.find("of the median group"), std::string::npos) << res.out;

    // JSON lines and CSV back into a fresh workspace: the same groups, the same verdict.
    for (const char* ext : {".jsonl", ".csv"}) {
        const auto file = dir.path / (std::string("points") + ext);
        auto e = test::runToEnd(cli(db, {"export", "1", "--points", "-o", file.string()}));
        ASSERT_EQ(e.exitCode, 0) << e.err;
        const auto db2 = dir.path / (std::string("again") + ext + ".db");
        ASSERT_EQ(test::runToEnd(cli(db2, {"import", file.string()})).exitCode, 0) << ext;
        const auto again = test::runToEnd(cli(db2, {"results", "1"}));
        EXPECT_EQ(count(again.out, "ranks 2-3"), count(res.out, "ranks 2-3")) << ext << again.out;
        EXPECT_NE(again.out.find("slowest: ranks 2-3 at 64 KiB"), std::string::npos) << ext << again.out;
    }

    const auto svg = dir.path / "split.svg";
    auto e = test::runToEnd(cli(db, {"export", "1", "--chart", "bandwidth", "--no-fits", "-o", svg.string()}));
    ASSERT_EQ(e.exitCode, 0) << e.err;
    const QString text = test::svgText(svg);
    EXPECT_TRUE(text.contains(QStringLiteral("ranks 0-1"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("ranks 2-3"))) << text.toStdString();
}
