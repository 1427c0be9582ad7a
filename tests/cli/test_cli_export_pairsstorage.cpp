// ridgeline-cli export --chart pairs-heatmap (a real 4-rank `run pairs` with rank 2 slowed by the
// stand-in delay) and --chart storage-size / storage-ranks (a real fio JSON and IOR summary), drawn
// by the GUI's chart widgets; every file is opened again: the PNG loads, the SVG is XML naming the
// series, the PDF starts as one, the CSV has its rows.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <QFile>
#include <QImage>

#include "childprocess.h"
#include "clirun.h"
#include "svgtext.h"
#include "tempdir.h"

namespace fs = std::filesystem;
using namespace rl;

namespace {
using test::cli;

std::string fileText(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
} // namespace

TEST(CliExportPairs, HeatmapOfARealRunWithASlowRankInEveryFormat)
{
    if (!fs::exists(RIDGELINE_MPIEXEC) || !fs::exists(RIDGELINE_BENCH))
        GTEST_SKIP() << "mpirun or ridgeline-bench not available";
    test::TempDir dir;
    const auto db = dir.path / "w.db";
    const auto r = test::runToEnd(test::cliRun(db, "pairs", 4,
                                               {"--bandwidth-bytes", "256K", "--latency-iters", "10", "--bandwidth-iters",
                                                "5", "-w", "2", "--delay-rank", "2", "--delay-us", "20000",
                                                "--one-pair-at-a-time"}),
                                  180);
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;

    const auto svg = dir.path / "pairs.svg";
    auto e = test::runToEnd(cli(db, {"export", "1", "--chart", "pairs-heatmap", "-o", svg.string()}));
    ASSERT_EQ(e.exitCode, 0) << e.err;
    const QString text = test::svgText(svg);
    EXPECT_TRUE(text.contains(QStringLiteral("Point-to-point bandwidth, GB/s"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("slow pair (below 80 % of median)")));
    EXPECT_TRUE(text.contains(QStringLiteral(" GB/s"))) << "the bins' legend states the unit";

    const auto png = dir.path / "pairs.png";
    ASSERT_EQ(test::runToEnd(cli(db, {"export", "1", "--chart", "pairs-heatmap", "-o", png.string(), "--width", "700",
                                      "--height", "600"})).exitCode, 0);
    const QImage img(QString::fromStdString(png.string()));
    ASSERT_FALSE(img.isNull());
    EXPECT_EQ(img.size(), QSize(700, 600));

    const auto pdf = dir.path / "pairs.pdf";
    ASSERT_EQ(test::runToEnd(cli(db, {"export", "1", "--chart", "pairs-heatmap", "-o", pdf.string()})).exitCode, 0);
    EXPECT_EQ(fileText(pdf).rfind("%PDF", 0), 0u);

    const auto csv = dir.path / "pairs.csv";
    ASSERT_EQ(test::runToEnd(cli(db, {"export", "1", "--chart", "pairs-heatmap", "-o", csv.string()})).exitCode, 0);
    std::ifstream in(csv);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line.rfind("rank_a,rank_b,host_a,host_b,", 0), 0u) << line;
    int rows = 0, slow = 0;
    while (std::getline(in, line)) {
        ++rows;
        if (line.back() == '1') {
            ++slow;
            EXPECT_TRUE(line.rfind("2,", 0) == 0 || line.find(",2,") == 1) << "a pair of rank 2: " << line;
        }
    }
    EXPECT_EQ(rows, 6);
    EXPECT_EQ(slow, 3);

    // Not a pairs session, or two of them: a clear error, no file.
    ASSERT_EQ(test::runToEnd(cli(db, {"import", RIDGELINE_TEST_DATA "/storage/fio-ckpt-2jobs.json"})).exitCode, 0);
    e = test::runToEnd(cli(db, {"export", "2", "--chart", "pairs-heatmap", "-o", (dir.path / "x.png").string()}));
    EXPECT_NE(e.exitCode, 0);
    EXPECT_NE(e.err.find("not a pairs session"), std::string::npos) << e.err;
    EXPECT_FALSE(fs::exists(dir.path / "x.png"));
}

TEST(CliExportStorage, BothChartsOfImportedFioAndIorDrawnByTheWidget)
{
    test::TempDir dir;
    const auto db = dir.path / "w.db";
    ASSERT_EQ(test::runToEnd(cli(db, {"import", RIDGELINE_TEST_DATA "/storage/fio-ckpt-2jobs.json",
                                      RIDGELINE_TEST_DATA "/storage/ior-3.2.0-shared.txt"})).exitCode, 0);
    const auto svg = dir.path / "ranks.svg";
    auto e = test::runToEnd(cli(db, {"export", "1", "2", "--chart", "storage-ranks", "-o", svg.string()}));
    ASSERT_EQ(e.exitCode, 0) << e.err;
    const QString text = test::svgText(svg);
    EXPECT_TRUE(text.contains(QStringLiteral("Storage bandwidth vs ranks"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("write fpp 16 MiB/rank"))) << "the fio write series";
    EXPECT_TRUE(text.contains(QStringLiteral("write shared"))) << "the IOR series";
    EXPECT_TRUE(text.contains(QStringLiteral("Aggregate bandwidth (GB/s"))) << "the unit on the axis";

    const auto png = dir.path / "size.png";
    e = test::runToEnd(cli(db, {"export", "1", "2", "--chart", "storage-size", "-o", png.string()}));
    ASSERT_EQ(e.exitCode, 0) << e.err;
    EXPECT_FALSE(QImage(QString::fromStdString(png.string())).isNull());
    const auto csv = dir.path / "size.csv";
    ASSERT_EQ(test::runToEnd(cli(db, {"export", "1", "--chart", "storage-size", "-o", csv.string()})).exitCode, 0);
    std::ifstream in(csv);
    std::string header;
    std::getline(in, header);
    EXPECT_EQ(header, "series,file_bytes_per_rank,aggregate_gbs");
}
