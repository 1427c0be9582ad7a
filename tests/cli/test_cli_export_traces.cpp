// ridgeline-cli export of trace and training-log charts: a real trace and a real log imported,
// every chart kind written as SVG, PNG, PDF and CSV and opened again; wrong session kinds fail
// with a message that says what the chart needs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <QFile>
#include <QImage>

#include "childprocess.h"
#include "svgtext.h"
#include "tempdir.h"

namespace fs = std::filesystem;

namespace {
using rl::test::TempDir;

rl::test::Finished cli(const fs::path& db, std::vector<std::string> args)
{
    std::vector<std::string> argv{RIDGELINE_CLI, "--db", db.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return rl::test::runToEnd(argv);
}

// A two-rank trace (session 1), a Megatron-LM log with a restart and a stall (session 2) and a
// torchtitan log with a restart and MFU values (session 3).
struct Imported
{
    TempDir dir;
    fs::path db = dir.path / "w.db";
    Imported()
    {
        auto r = cli(db, {"import", RIDGELINE_TEST_DATA "/traces/ranks", RIDGELINE_TEST_DATA "/logs/megatron_lm_restart.log",
                          RIDGELINE_TEST_DATA "/logs/torchtitan_restart.log"});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        EXPECT_NE(r.out.find("session 1 (kineto)"), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("session 2 (trainlog)"), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("session 3 (trainlog)"), std::string::npos) << r.out;
    }
};

std::string readFile(const fs::path& p)
{
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

double inkFraction(const QImage& img)
{
    const QRgb bg = img.pixel(0, 0);
    qint64 ink = 0;
    for (int y = 0; y < img.height(); y += 2)
        for (int x = 0; x < img.width(); x += 2)
            ink += img.pixel(x, y) != bg;
    return double(ink) / (double(img.width() / 2) * double(img.height() / 2));
}

struct KindCase
{
    const char* kind;
    int session;
    const char* svgMustContain; // an axis title with its unit
    const char* csvHeader;      // the first CSV columns
};

const KindCase kCases[] = {
    {"trace-steps", 1, "Time per step (ms)", "step,rank,gemm_ms,"},
    {"trace-totals", 1, "(ms)", "rank,steps,gemm_ms,"},
    {"trace-timeline", 1, "Time from the step's start (ms)", "rank,step,stream,class,start_us,duration_us,name"},
    {"trainlog", 2, "Loss", "step,segment,redone,wall_s,loss"},
    {"trainlog-loss", 2, "Loss", "step,segment,redone,wall_s,loss"},
    {"trainlog-steptime", 2, "Step time (ms)", "step,segment,redone,wall_s,step_time_ms"},
    {"trainlog-throughput", 3, "Throughput (tokens/s)", "step,segment,redone,wall_s,tokens_per_s"},
    {"trainlog-tflops", 2, "TFLOP/s", "step,segment,redone,wall_s,tflops_per_gpu"},
    {"trainlog-mfu", 3, "MFU (%)", "step,segment,redone,wall_s,mfu_percent"},
};

class ExportTraceKind : public ::testing::TestWithParam<KindCase>
{
};
} // namespace

TEST_P(ExportTraceKind, WritesSvgPngPdfAndCsvThatOpen)
{
    const KindCase& c = GetParam();
    Imported w;
    const std::string session = std::to_string(c.session);
    const fs::path svg = w.dir.path / "c.svg", png = w.dir.path / "c.png", pdf = w.dir.path / "c.pdf",
                   csv = w.dir.path / "c.csv";
    for (const auto& out : {svg, png, pdf, csv}) {
        auto r = cli(w.db, {"export", session, "--chart", c.kind, "-o", out.string(), "--width", "900", "--height", "600"});
        ASSERT_EQ(r.exitCode, 0) << c.kind << " " << out << ": " << r.err;
        ASSERT_TRUE(fs::exists(out)) << out;
    }
    EXPECT_TRUE(rl::test::svgText(svg).contains(QLatin1String(c.svgMustContain))) << c.kind;

    const QImage img(QString::fromStdString(png.string()));
    ASSERT_FALSE(img.isNull());
    EXPECT_EQ(img.size(), QSize(900, 600));
    EXPECT_GT(inkFraction(img), 0.02) << "blank chart: " << c.kind;

    EXPECT_EQ(readFile(pdf).substr(0, 5), "%PDF-");

    const std::string text = readFile(csv);
    EXPECT_EQ(text.substr(0, std::string(c.csvHeader).size()), c.csvHeader) << text;
    EXPECT_GT(std::count(text.begin(), text.end(), '\n'), 1) << text; // a header and rows
}

INSTANTIATE_TEST_SUITE_P(Kinds, ExportTraceKind, ::testing::ValuesIn(kCases),
                         [](const auto& info) {
                             std::string n = info.param.kind;
                             std::replace(n.begin(), n.end(), '-', '_');
                             return n;
                         });

TEST(ExportTraces, TraceStepsCsvHoldsTheMeanOverRanksAndTheSpread)
{
    Imported w;
    const fs::path csv = w.dir.path / "s.csv";
    auto r = cli(w.db, {"export", "1", "--chart", "trace-steps", "-o", csv.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    // Step 8 took 1.2 ms on one rank and 1.5 ms on the other (tests/data/traces/ranks).
    EXPECT_NE(readFile(csv).find("\n8,mean,"), std::string::npos) << readFile(csv);
    EXPECT_NE(readFile(csv).find(",1.35,1.2,1.5,2\n"), std::string::npos) << readFile(csv);
}

TEST(ExportTraces, TrainlogCsvListsTheRestartEvent)
{
    Imported w;
    const fs::path csv = w.dir.path / "l.csv";
    auto r = cli(w.db, {"export", "2", "--chart", "trainlog-steptime", "-o", csv.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string text = readFile(csv);
    EXPECT_NE(text.find("\n\nevent,event_step,event_wall_s,lost_s,message\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\nrestart,40,"), std::string::npos) << text;
    EXPECT_NE(text.find("\nstall,40,"), std::string::npos) << text;
}

TEST(ExportTraces, WrongSessionKindFailsWithAClearMessage)
{
    Imported w;
    const fs::path out = w.dir.path / "x.png";
    auto r = cli(w.db, {"export", "1", "--chart", "trainlog", "-o", out.string()});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("session 1 is a 'trace' session; --chart trainlog needs a 'trainlog' session"),
              std::string::npos)
        << r.err;
    r = cli(w.db, {"export", "2", "--chart", "trace-steps", "-o", out.string()});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("needs a 'trace' session"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out));
    r = cli(w.db, {"export", "7", "--chart", "trace-steps", "-o", out.string()});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("no session 7"), std::string::npos) << r.err;
    r = cli(w.db, {"export", "1", "2", "--chart", "trace-steps", "-o", out.string()});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("draws one session"), std::string::npos) << r.err;
    r = cli(w.db, {"export", "1", "--chart", "trace-steps", "-o", (w.dir.path / "x.gif").string()});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("use .png, .svg, .pdf or .csv"), std::string::npos) << r.err;
}
