// The shared export path: PNG/SVG/PDF at a fixed size with metadata, CSV data, and errors that
// name the file. Every chart kind is also rendered to /tmp/ridgeline-chart-<kind>.png to look at.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include <QFile>
#include <QImage>
#include <QImageReader>
#include <QXmlStreamReader>

#include "chartexport.h"
#include "chartfixtures.h"
#include "io/csv.h"

using namespace rl;
using namespace rl::charts;

namespace {
QString qpath(const std::filesystem::path& p)
{
    return QString::fromStdString(p.string());
}

// Distinct colours on a coarse grid: a blank or single-colour render has one or two.
int distinctColours(const QImage& image)
{
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y) & 0xF0F0F0);
    return static_cast<int>(colours.size());
}

std::string readAll(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

struct KindCase
{
    ChartKind kind;
    bool useScalingSessions;
    friend void PrintTo(const KindCase& c, std::ostream* os) { *os << toString(c.kind); }
};
} // namespace

class ExportEveryKind : public ::testing::TestWithParam<KindCase>
{
};

TEST_P(ExportEveryKind, PngHasFixedSizeMetadataAndIsNotBlank)
{
    test::ChartWorkspace w;
    const auto sessions = GetParam().useScalingSessions ? w.load(w.scaling) : w.load({w.h100, w.mi300});
    ChartOptions o;
    o.width = 1000;
    o.height = 640;
    const auto file = w.dir.path / "chart.png";
    QString error;
    ASSERT_TRUE(exportChart(GetParam().kind, sessions, o, qpath(file), &error)) << error.toStdString();
    QImageReader reader(qpath(file));
    const QImage image = reader.read();
    ASSERT_FALSE(image.isNull()) << reader.errorString().toStdString();
    EXPECT_EQ(image.size(), QSize(1000, 640));
    EXPECT_GE(distinctColours(image), 6);
    EXPECT_TRUE(image.text(QStringLiteral("Description")).contains(QLatin1String(toString(GetParam().kind))));
    // Keep a 1200x800 render for a human to look at.
    const QString look = QStringLiteral("/tmp/ridgeline-chart-%1.png").arg(QLatin1String(toString(GetParam().kind)));
    EXPECT_TRUE(exportChart(GetParam().kind, sessions, ChartOptions{}, look, &error)) << error.toStdString();
}

INSTANTIATE_TEST_SUITE_P(Kinds, ExportEveryKind,
                         ::testing::Values(KindCase{ChartKind::Bandwidth, false}, KindCase{ChartKind::Latency, false},
                                           KindCase{ChartKind::Scaling, true}, KindCase{ChartKind::Compare, false}),
                         [](const auto& info) { return std::string(toString(info.param.kind)); });

TEST(ChartExport, SvgParsesAsXmlWithTitleAndParameters)
{
    test::ChartWorkspace w;
    ChartOptions o;
    o.fitMinBytes = 1 << 20;
    o.fitMaxBytes = std::int64_t{1} << 30;
    const auto file = w.dir.path / "chart.svg";
    QString error;
    ASSERT_TRUE(exportChart(ChartKind::Bandwidth, w.load({w.h100}), o, qpath(file), &error)) << error.toStdString();
    QFile f(qpath(file));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&f);
    QString title, desc;
    bool sawSvg = false;
    int texts = 0;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (xml.name() == QLatin1String("svg")) {
            sawSvg = true;
            EXPECT_EQ(xml.attributes().value(QLatin1String("viewBox")), QLatin1String("0 0 1200 800"));
        } else if (xml.name() == QLatin1String("title") && title.isEmpty()) {
            title = xml.readElementText();
        } else if (xml.name() == QLatin1String("desc") && desc.isEmpty()) {
            desc = xml.readElementText();
        } else if (xml.name() == QLatin1String("text")) {
            ++texts;
        }
    }
    EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    EXPECT_TRUE(sawSvg);
    EXPECT_EQ(title, QStringLiteral("Bus bandwidth vs message size"));
    EXPECT_TRUE(desc.contains(QStringLiteral("1 MiB to 1 GiB"))) << desc.toStdString();
    EXPECT_TRUE(desc.contains(QStringLiteral("H100 8 ranks"))) << desc.toStdString();
    EXPECT_GT(texts, 10); // axis labels and legend are text, not paths
}

TEST(ChartExport, PdfIsAPdfAndRendersWithPdftoppm)
{
    test::ChartWorkspace w;
    const auto file = w.dir.path / "chart.pdf";
    QString error;
    ASSERT_TRUE(exportChart(ChartKind::Latency, w.load({w.h100, w.mi300}), ChartOptions{}, qpath(file), &error))
        << error.toStdString();
    const std::string pdf = readAll(file);
    ASSERT_GT(pdf.size(), 1000u);
    EXPECT_EQ(pdf.substr(0, 5), "%PDF-");
    EXPECT_NE(pdf.find("Time vs message size"), std::string::npos); // XMP title is uncompressed
    if (std::system("command -v pdftoppm >/dev/null 2>&1") != 0)
        GTEST_SKIP() << "pdftoppm not installed";
    const auto out = w.dir.path / "page";
    const std::string cmd = "pdftoppm -png -r 96 -singlefile '" + file.string() + "' '" + out.string() + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    const QImage page(qpath(w.dir.path / "page.png"));
    ASSERT_FALSE(page.isNull());
    EXPECT_NEAR(page.width(), 1200, 2);
    EXPECT_NEAR(page.height(), 800, 2);
    EXPECT_GE(distinctColours(page), 6);
}

TEST(ChartExport, CsvHoldsThePlottedRowsQuoted)
{
    test::ChartWorkspace w;
    auto sessions = w.load({w.h100});
    sessions[0].session.title = "H100, \"NVLink\" 8 ranks"; // needs quoting
    const auto file = w.dir.path / "chart.csv";
    QString error;
    ASSERT_TRUE(exportChart(ChartKind::Bandwidth, sessions, ChartOptions{}, qpath(file), &error))
        << error.toStdString();
    std::ifstream in(file);
    io::CsvReader reader(in);
    io::CsvRow row;
    ASSERT_TRUE(reader.next(row));
    EXPECT_EQ(row.fields[0], "session_id");
    EXPECT_EQ(row.fields[11], "busbw_gbs");
    int points = 0;
    while (reader.next(row) && row.fields[0] != "fit_session_id") {
        ++points;
        EXPECT_EQ(row.fields[1], "H100, \"NVLink\" 8 ranks");
    }
    EXPECT_EQ(points, 32 + 32 + 21);
    ASSERT_EQ(row.fields[0], "fit_session_id");
    int fits = 0;
    while (reader.next(row)) {
        ++fits;
        if (row.fields[1] == "all_reduce" && row.fields[2] == "0") {
            EXPECT_NEAR(std::stod(row.fields[3]), 25.0, 1e-6);
        }
    }
    EXPECT_EQ(fits, 3);
}

TEST(ChartExport, FailuresNameTheFileAndTheReason)
{
    test::ChartWorkspace w;
    const auto sessions = w.load({w.h100});
    QString error;
    EXPECT_FALSE(exportChart(ChartKind::Bandwidth, sessions, ChartOptions{}, QStringLiteral("/tmp/x.bmpx"), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("/tmp/x.bmpx"))) << error.toStdString();
    for (const char* name : {"a.png", "a.svg", "a.pdf", "a.csv"}) {
        const QString bad = qpath(w.dir.path / "no-such-dir" / name);
        error.clear();
        EXPECT_FALSE(exportChart(ChartKind::Bandwidth, sessions, ChartOptions{}, bad, &error)) << name;
        EXPECT_TRUE(error.startsWith(bad)) << error.toStdString();
        EXPECT_GT(error.size(), bad.size() + 5) << "no reason given: " << error.toStdString();
    }
    error.clear();
    EXPECT_FALSE(exportChart(ChartKind::Compare, sessions, ChartOptions{}, qpath(w.dir.path / "c.png"), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("two sessions"))) << error.toStdString();
    EXPECT_FALSE(std::filesystem::exists(w.dir.path / "c.png"));
}
