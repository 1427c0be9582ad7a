// ridgeline-cli export --chart roofline | membw | gemm-efficiency on a real workspace: short real
// peakflops and GEMM runs plus a recorded membw sweep; the files are opened again to check them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <QFile>
#include <QImage>

#include "childprocess.h"
#include "svgtext.h"
#include "tempdir.h"

namespace fs = std::filesystem;
using namespace rl;

namespace {
struct KernelWorkspace
{
    test::TempDir tmp;
    const fs::path& dir = tmp.path;
    fs::path db = dir / "w.db";
    KernelWorkspace()
    {
        const auto peak = dir / "peak.jsonl", gemm = dir / "gemm.jsonl";
        auto p = test::runToEnd({RIDGELINE_BENCH, "peakflops", "--threads", "1", "--seconds", "0.05", "--repeats", "1"});
        EXPECT_EQ(p.exitCode, 0) << p.err;
        std::ofstream(peak) << p.out;
        auto g = test::runToEnd({RIDGELINE_BENCH, "gemm", "-m", "64:512:64", "--dtypes", "float32", "--repeats", "1",
                                 "--budget", "0.02", "--threads", "1"});
        EXPECT_EQ(g.exitCode, 0) << g.err;
        std::ofstream(gemm) << g.out;
        // Sessions 1 peakflops, 2 gemm, 3 membw (recorded on this machine type).
        auto r = cli({"import", peak.string(), gemm.string(), RIDGELINE_TEST_DATA "/kernels/membw-zen5-2cpu-kvm.jsonl"});
        EXPECT_EQ(r.exitCode, 0) << r.err;
    }
    test::Finished cli(std::vector<std::string> args) const
    {
        std::vector<std::string> argv{RIDGELINE_CLI, "--db", db.string()};
        argv.insert(argv.end(), args.begin(), args.end());
        return test::runToEnd(argv);
    }
};

} // namespace

TEST(CliExportKernels, RooflineWithMeasuredAndProfileCeilingsInEveryFormat)
{
    KernelWorkspace w;
    const auto svg = w.dir / "roof.svg";
    auto r = w.cli({"export", "2", "1", "3", "--chart", "roofline", "--hardware", "mi300x", "-o", svg.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const QString text = test::svgText(svg);
    EXPECT_TRUE(text.contains(QStringLiteral("FLOP/byte"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("GFLOP/s")));
    EXPECT_TRUE(text.contains(QStringLiteral("measured")));
    EXPECT_TRUE(text.contains(QStringLiteral("MI300X"))) << "the profile's ceilings are labelled";

    const auto png = w.dir / "roof.png";
    ASSERT_EQ(w.cli({"export", "2", "1", "--chart", "roofline", "-o", png.string(), "--width", "800", "--height",
                     "500"}).exitCode,
              0);
    QImage img(QString::fromStdString(png.string()));
    ASSERT_FALSE(img.isNull());
    EXPECT_EQ(img.size(), QSize(800, 500));

    const auto pdf = w.dir / "roof.pdf";
    ASSERT_EQ(w.cli({"export", "2", "--chart", "roofline", "-o", pdf.string()}).exitCode, 0);
    std::ifstream in(pdf, std::ios::binary);
    std::string head(5, '\0');
    in.read(head.data(), 5);
    EXPECT_EQ(head, "%PDF-");

    const auto csv = w.dir / "roof.csv";
    ASSERT_EQ(w.cli({"export", "2", "1", "3", "--chart", "roofline", "-o", csv.string()}).exitCode, 0);
    std::ifstream c(csv);
    std::string all((std::istreambuf_iterator<char>(c)), std::istreambuf_iterator<char>());
    EXPECT_NE(all.find("ceiling,name,origin,value,unit"), std::string::npos) << all;
    EXPECT_NE(all.find("ridge_dtype"), std::string::npos);
    EXPECT_NE(all.find("intensity_flop_per_byte"), std::string::npos);
}

TEST(CliExportKernels, MembwAloneAndGemmEfficiencyRender)
{
    KernelWorkspace w;
    // A membw session alone on the roofline: slopes without roofs (this used to loop forever in Qt).
    const auto roof = w.dir / "membw-roof.png";
    ASSERT_EQ(w.cli({"export", "3", "--chart", "roofline", "-o", roof.string()}).exitCode, 0);
    EXPECT_FALSE(QImage(QString::fromStdString(roof.string())).isNull());

    const auto bw = w.dir / "membw.svg";
    auto r = w.cli({"export", "3", "--chart", "membw", "-o", bw.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const QString text = test::svgText(bw);
    EXPECT_TRUE(text.contains(QStringLiteral("GB/s"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("KiB")) || text.contains(QStringLiteral("MiB")));

    const auto eff = w.dir / "eff.png";
    r = w.cli({"export", "2", "1", "--chart", "gemm-efficiency", "--hardware", "mi300x", "-o", eff.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_FALSE(QImage(QString::fromStdString(eff.string())).isNull());
}

TEST(CliExportKernels, WrongSessionKindsAreNamed)
{
    KernelWorkspace w;
    auto r = w.cli({"export", "1", "--chart", "membw", "-o", (w.dir / "x.png").string()});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("session 1"), std::string::npos) << r.err;
    r = w.cli({"export", "3", "--chart", "gemm-efficiency", "-o", (w.dir / "y.png").string()});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("gemm"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(w.dir / "x.png"));
}
