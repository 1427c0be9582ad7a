// ridgeline-cli export: real charts from a real workspace, checked by opening what was written
// (QImage for PNG, the SVG's XML, pdftoppm for PDF), and raw points that import back unchanged.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include <QFile>
#include <QImage>

#include <nlohmann/json.hpp>

#include "childprocess.h"
#include "svgtext.h"
#include "tempdir.h"
#include "records/wireformat.h"
#include "store/workspace.h"

using namespace rl;
namespace fs = std::filesystem;

namespace {
using test::TempDir;

test::Finished cli(const fs::path& db, std::vector<std::string> args)
{
    std::vector<std::string> argv{RIDGELINE_CLI, "--db", db.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return test::runToEnd(argv);
}

// Two imported sessions (8 H100 ranks from nccl-tests, 8 MI300X ranks from rccl-tests).
struct Workspace2
{
    TempDir dir;
    fs::path db = dir.path / "w.db";
    Workspace2()
    {
        auto r = cli(db, {"import", RIDGELINE_TEST_DATA "/collectives/nccl_2.13_allreduce_8xh100.txt",
                          RIDGELINE_TEST_DATA "/collectives/rccl_mi300x_allreduce.txt"});
        EXPECT_EQ(r.exitCode, 0) << r.err;
    }
};

// Fraction of pixels that differ from the top-left (background) pixel.
double inkFraction(const QImage& img)
{
    const QRgb bg = img.pixel(0, 0);
    qint64 ink = 0;
    for (int y = 0; y < img.height(); y += 2)
        for (int x = 0; x < img.width(); x += 2)
            ink += img.pixel(x, y) != bg;
    return double(ink) / (double(img.width() / 2) * double(img.height() / 2));
}

} // namespace

TEST(CliExport, BandwidthChartAsPngHasTheRequestedSizeAndIsDrawn)
{
    Workspace2 w;
    const auto png = w.dir.path / "bw.png";
    auto r = cli(w.db, {"export", "1", "2", "--chart", "bandwidth", "-o", png.string(), "--width", "900",
                        "--height", "600"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    QImage img(QString::fromStdString(png.string()));
    ASSERT_FALSE(img.isNull());
    EXPECT_EQ(img.width(), 900);
    EXPECT_EQ(img.height(), 600);
    EXPECT_GT(inkFraction(img), 0.02); // axes, labels and two curves, not a blank page
}

TEST(CliExport, LatencyChartAsSvgIsValidXmlWithUnitsOnTheAxes)
{
    Workspace2 w;
    const auto svg = w.dir.path / "lat.svg";
    auto r = cli(w.db, {"export", "1", "--chart", "latency", "-o", svg.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const QString text = test::svgText(svg);
    EXPECT_TRUE(text.contains(QStringLiteral("Message size"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("µs"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("KiB")) || text.contains(QStringLiteral("MiB"))) << text.toStdString();
}

TEST(CliExport, ScalingChartAsPdfRendersWithPdftoppm)
{
    Workspace2 w;
    const auto pdf = w.dir.path / "scaling.pdf";
    auto r = cli(w.db, {"export", "1", "2", "--chart", "scaling", "--size", "128M", "-o", pdf.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::ifstream in(pdf, std::ios::binary);
    std::string head(5, '\0');
    in.read(head.data(), 5);
    EXPECT_EQ(head, "%PDF-");
    if (std::system("command -v pdftoppm > /dev/null") != 0)
        GTEST_SKIP() << "pdftoppm (poppler-utils) not installed";
    const auto prefix = w.dir.path / "page";
    const std::string cmd = "pdftoppm -png -r 50 -singlefile '" + pdf.string() + "' '" + prefix.string() + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    QImage page(QString::fromStdString(prefix.string() + ".png"));
    ASSERT_FALSE(page.isNull());
    EXPECT_GT(inkFraction(page), 0.01);
}

TEST(CliExport, ChartDataAsCsvHasOneRowPerPlottedPoint)
{
    Workspace2 w;
    const auto csv = w.dir.path / "bw.csv";
    auto r = cli(w.db, {"export", "1", "--chart", "bandwidth", "--no-fits", "-o", csv.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    store::Workspace ws(w.db.string());
    std::ifstream in(csv);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line.rfind("session_id,session,op,", 0), 0u) << line;
    std::size_t rows = 0;
    while (std::getline(in, line))
        rows += !line.empty();
    EXPECT_EQ(rows, ws.collectivePoints(1).size());
}

TEST(CliExport, RawPointsRoundTripThroughImport)
{
    Workspace2 w;
    TempDir other;
    const auto jsonl = w.dir.path / "both.jsonl";
    const auto csv = w.dir.path / "one.csv";
    ASSERT_EQ(cli(w.db, {"export", "1", "2", "--points", "-o", jsonl.string()}).exitCode, 0);
    ASSERT_EQ(cli(w.db, {"export", "2", "--points", "-o", csv.string()}).exitCode, 0);
    const auto db2 = other.path / "copy.db";
    auto r = cli(db2, {"import", jsonl.string(), csv.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;

    store::Workspace a(w.db.string());
    store::Workspace b(db2.string());
    ASSERT_EQ(b.sessions().size(), 3u); // two from the JSON lines, one from the CSV
    auto same = [](const std::vector<CollectivePoint>& x, const std::vector<CollectivePoint>& y) {
        ASSERT_EQ(x.size(), y.size());
        for (std::size_t i = 0; i < x.size(); ++i) {
            EXPECT_EQ(x[i].op, y[i].op);
            EXPECT_EQ(x[i].bytes, y[i].bytes);
            EXPECT_EQ(x[i].inPlace, y[i].inPlace);
            EXPECT_EQ(x[i].nranks, y[i].nranks);
            EXPECT_DOUBLE_EQ(x[i].timeUs, y[i].timeUs);
            EXPECT_DOUBLE_EQ(x[i].busbwGBs, y[i].busbwGBs);
            EXPECT_EQ(x[i].wrong, y[i].wrong);
        }
    };
    same(a.collectivePoints(1), b.collectivePoints(1));
    same(a.collectivePoints(2), b.collectivePoints(2));
    same(a.collectivePoints(2), b.collectivePoints(3));
    EXPECT_EQ(b.session(1)->title, a.session(1)->title);
}

TEST(CliExport, BadRequestsFailWithAClearMessageAndWriteNothing)
{
    Workspace2 w;
    const auto out = w.dir.path / "x.png";
    auto r = cli(w.db, {"export", "1", "--chart", "pie", "-o", out.string()});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("unknown chart 'pie'"), std::string::npos) << r.err;
    r = cli(w.db, {"export", "99", "--chart", "bandwidth", "-o", out.string()});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("99"), std::string::npos) << r.err;
    r = cli(w.db, {"export", "1", "--chart", "compare", "-o", out.string()});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("two sessions"), std::string::npos) << r.err;
    r = cli(w.db, {"export", "1", "--chart", "bandwidth", "-o", (w.dir.path / "x.bmpx").string()});
    EXPECT_NE(r.exitCode, 0);
    r = cli(w.db, {"export", "1", "--chart", "bandwidth", "-o", "/nonexistent-dir/x.svg"});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("/nonexistent-dir/x.svg"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out));
}

// moe-sweep draws the explorer's scatter by suffix, and sweeps expert width when nothing is held.
TEST(CliExport, MoeSweepWritesTheScatterAndTheRowsWithAWidthAxis)
{
    TempDir dir;
    const fs::path db = dir.path / "w.db", png = dir.path / "sweep.png", svg = dir.path / "sweep.svg",
                   csv = dir.path / "sweep.csv";
    const std::vector<std::string> sweep{"moe-sweep", "mixtral-8x7b", "--hardware", "mi300x", "--parallel",
                                         "dp=8,ep=8", "--experts", "8:64:8", "--top-k", "1,2", "--shared", "0",
                                         "--hold", "none", "--widths", "1024:4096:1024"};
    auto with = [&](std::vector<std::string> extra) {
        auto args = sweep;
        args.insert(args.end(), extra.begin(), extra.end());
        return cli(db, args);
    };
    auto r = with({"-o", csv.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::ifstream in(csv);
    std::string header, line;
    std::getline(in, header);
    std::set<std::string> widths;
    int rows = 0;
    while (std::getline(in, line)) {
        ++rows;
        widths.insert(line.substr(0, line.find(',', line.find(',', line.find(',', line.find(',') + 1) + 1) + 1)));
    }
    EXPECT_EQ(rows, 8 * 2 * 4); // experts x top-k x widths, nothing held so nothing dropped
    EXPECT_EQ(widths.size(), size_t(rows));

    r = with({"-o", png.string(), "--metric", "mfu"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("scatter of all rows drawn to"), std::string::npos);
    const QImage img(QString::fromStdString(png.string()));
    ASSERT_FALSE(img.isNull());
    EXPECT_EQ(img.size(), QSize(1200, 800));
    EXPECT_GT(inkFraction(img), 0.02);

    r = with({"-o", svg.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const QString text = test::svgText(svg);
    EXPECT_TRUE(text.contains(QStringLiteral("Decode latency per token (ms)")));
    EXPECT_TRUE(text.contains(QStringLiteral("Pareto front")));

    r = with({"-o", (dir.path / "sweep.bmpx").string()});
    EXPECT_NE(r.exitCode, 0);
    r = cli(db, {"moe-sweep", "mixtral-8x7b", "--hardware", "mi300x", "--experts", "8:x"});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("--experts"), std::string::npos) << r.err;
}
