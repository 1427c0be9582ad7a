// Issue 26, item 1: session titles, host names and notes come from users and imported files, and
// reach every output. A hostile title goes into each one and the result is read back the way its
// reader reads it: SVG by an XML parser, the HTML report by an HTML parser (and its inline SVGs by
// the XML parser), GUI labels and chart legends by the rule Qt applies to decide between rich and
// plain text, CSV by the CSV reader. Each must show the title as the characters typed, and run
// nothing.
#include <gtest/gtest.h>

#include <QApplication>
#include <QCategoryAxis>
#include <QChart>
#include <QFile>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QProcess>
#include <QStandardPaths>
#include <QTextDocumentFragment>
#include <QXmlStreamReader>

#include <fstream>
#include <sstream>

#include "chartexport.h"
#include "chartfixtures.h"
#include "detailspanel.h"
#include "io/csv.h"
#include "pairsheatmapchart.h"
#include "report/report.h"
#include "reportwriter.h"

QT_BEGIN_NAMESPACE
// Failures print the text, not its UTF-16 code units.
inline void PrintTo(const QString& s, std::ostream* os) { *os << '"' << s.toStdString() << '"'; }
QT_END_NAMESPACE

using namespace rl;
using namespace rl::charts;

namespace {
// Script, markup, an entity-looking ampersand, quotes, and a spreadsheet formula.
const std::string kHostile = "<script>alert(1)</script> & \"q\" <b>x</b> =cmd|' /C calc'!A0";
// The same starting with the formula, as a CSV cell would run it.
const std::string kFormula = "=cmd|' /C calc'!A0 <script>alert(1)</script> & <b>x</b>";

QString q(const std::string& s) { return QString::fromStdString(s); }
QString qpath(const std::filesystem::path& p) { return QString::fromStdString(p.string()); }

// What a reader sees of text in a widget of format f: Qt::AutoText is rich when mightBeRichText
// says so (QLabel, tooltips, QMessageBox); QtCharts titles, legends and axis labels are always
// rich. Zero-width spaces (break points) and no-break spaces are not what the title differs by.
QString displayed(const QString& text, Qt::TextFormat f)
{
    const bool rich = f == Qt::RichText || (f == Qt::AutoText && Qt::mightBeRichText(text));
    QString shown = rich ? QTextDocumentFragment::fromHtml(text).toPlainText() : text;
    shown.remove(QChar(0x200B));
    shown.replace(QChar(0x00A0), QLatin1Char(' '));
    return shown;
}

// Parses an SVG with Qt's XML reader: well-formed, an <svg> root, no <script> element; returns
// the first <title> and <desc>.
struct SvgFacts
{
    bool wellFormed = false;
    QString error, root, title, desc;
    int scripts = 0;
};

SvgFacts readSvg(const QByteArray& svg)
{
    SvgFacts f;
    QXmlStreamReader xml(svg);
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        const auto name = xml.name().toString().toLower();
        if (f.root.isEmpty())
            f.root = name;
        if (name == QLatin1String("script"))
            ++f.scripts;
        else if (name == QLatin1String("title") && f.title.isEmpty())
            f.title = xml.readElementText(QXmlStreamReader::IncludeChildElements);
        else if (name == QLatin1String("desc") && f.desc.isEmpty())
            f.desc = xml.readElementText(QXmlStreamReader::IncludeChildElements);
    }
    f.wellFormed = !xml.hasError();
    f.error = xml.errorString();
    return f;
}

QByteArray readFile(const std::filesystem::path& p)
{
    QFile f(qpath(p));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A workspace whose first session has the hostile title, host, hosts and notes.
struct HostileWorkspace : test::ChartWorkspace
{
    std::int64_t hostile = 0;
    HostileWorkspace(const std::string& title = kHostile)
    {
        Session s = test::session(title, "nccl-tests");
        s.host = kHostile;
        s.params["hosts"] = nlohmann::json::array({kHostile, "node02"});
        s.notes = kHostile;
        SessionData d{s, {}};
        for (auto b : test::sweep())
            d.collectives.push_back(test::modelPoint("all_reduce", 8, b, 25.0, 150.0));
        hostile = ws.storeSession(d);
    }
};

// Four ranks on four hosts, one of them hostile: the heatmap's axes are labelled by host.
PairsSessionData hostilePairs(const std::string& host)
{
    PairsSessionData d;
    d.session = test::session("pairs", "ridgeline-bench");
    d.session.kind = kind::Pairs;
    const std::vector<std::string> hosts{host, "node02", "node03", "node04"};
    for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b)
            d.pairs.push_back({a, b, hosts[std::size_t(a)], hosts[std::size_t(b)], 8, 2.0 + a + b, 1 << 26,
                               20.0 + a + b, 100});
    return d;
}
} // namespace

TEST(HostileText, ExportedSvgIsWellFormedWithTheTitleAsText)
{
    HostileWorkspace w;
    ChartOptions o;
    o.title = kHostile; // ridgeline-cli export --title
    const auto file = w.dir.path / "chart.svg";
    QString error;
    ASSERT_TRUE(exportChart(ChartKind::Bandwidth, w.load({w.hostile, w.h100}), o, qpath(file), &error))
        << error.toStdString();
    const auto svg = readSvg(readFile(file));
    EXPECT_TRUE(svg.wellFormed) << svg.error.toStdString();
    EXPECT_EQ(svg.root, QStringLiteral("svg"));
    EXPECT_EQ(svg.scripts, 0);
    EXPECT_EQ(svg.title, q(kHostile));
    EXPECT_TRUE(svg.desc.contains(q(kHostile))) << svg.desc.toStdString(); // the session's name
}

TEST(HostileText, HeatmapSvgWithAHostileHostIsWellFormed)
{
    const auto data = hostilePairs(kHostile);
    test::TempDir dir;
    const auto file = dir.path / "pairs.svg";
    QString error;
    ASSERT_TRUE(PairsHeatmapChart::exportChart(data, PairsHeatmapOptions{}, QSize(900, 700), qpath(file), &error))
        << error.toStdString();
    const auto svg = readSvg(readFile(file));
    EXPECT_TRUE(svg.wellFormed) << svg.error.toStdString();
    EXPECT_EQ(svg.scripts, 0);
}

TEST(HostileText, ChartTitleLegendAndAxisLabelsShowTheTextAsTyped)
{
    HostileWorkspace w;
    ChartOptions o;
    o.title = kHostile;
    QChart chart;
    populateCollectiveChart(&chart, ChartKind::Bandwidth, w.load({w.hostile}), o);
    EXPECT_EQ(displayed(chart.title(), Qt::RichText), q(kHostile));
    bool named = false;
    for (auto* m : chart.legend()->markers()) {
        if (!m->label().contains(QStringLiteral("alert")))
            continue;
        named = true;
        // The legend names the session (and the op); what it shows must hold the title verbatim.
        EXPECT_TRUE(displayed(m->label(), Qt::RichText).contains(q(kHostile))) << m->label().toStdString();
    }
    EXPECT_TRUE(named) << "no legend entry names the session";

    // Host names label the heatmap's axes.
    const auto pairs = hostilePairs(kHostile);
    const auto heatmap = views::pairsHeatmap(pairs.pairs, views::PairMetric::Bandwidth, kDefaultSlowPairFraction);
    ASSERT_TRUE(heatmap.byHost);
    QChart map;
    PairsHeatmapChart::populate(&map, pairs, heatmap, PairsHeatmapOptions{});
    bool labelled = false;
    for (auto* axis : map.axes()) {
        auto* cat = qobject_cast<QCategoryAxis*>(axis);
        if (!cat)
            continue;
        for (const auto& label : cat->categoriesLabels())
            if (label.contains(QStringLiteral("alert"))) {
                labelled = true;
                EXPECT_EQ(displayed(label, Qt::RichText), q(kHostile));
            }
    }
    EXPECT_TRUE(labelled) << "no axis label names the hostile host";
}

TEST(HostileText, DetailsPanelShowsTitleAndHostAsPlainText)
{
    Session s = test::session(kHostile, "nccl-tests");
    s.id = 7;
    s.host = kHostile;
    s.commandLine = kHostile;
    DetailsPanel panel;
    panel.setSession(s);
    for (const char* name : {"detailsTitle", "detailsHost", "detailsCommandLine", "detailsTool"}) {
        auto* label = panel.findChild<QLabel*>(QLatin1String(name));
        ASSERT_NE(label, nullptr) << name;
        if (std::string(name) != "detailsTool")
            EXPECT_EQ(displayed(label->text(), label->textFormat()), q(kHostile)) << name;
        else
            EXPECT_FALSE(label->textFormat() != Qt::PlainText && Qt::mightBeRichText(label->text())) << name;
    }
    // Tooltips are rich text whenever they look like it.
    auto* title = panel.findChild<QLabel*>(QStringLiteral("detailsTitle"));
    EXPECT_EQ(displayed(title->toolTip(), Qt::AutoText), q(kHostile));
}

TEST(HostileText, HtmlReportParsesWithoutScriptAndShowsTheTitle)
{
    HostileWorkspace w;
    report::Options o;
    o.title = kHostile;
    const auto r = report::buildReport(w.ws, {w.hostile, w.h100}, o);
    QStringList problems;
    const auto svgs = renderReportCharts(loadReportCharts(w.ws, r), std::nullopt, &problems);
    ASSERT_FALSE(svgs.empty());
    const QString html = reportHtml(r, svgs);
    // In HTML "<script" always opens a script element, wherever it stands.
    EXPECT_FALSE(html.contains(QStringLiteral("<script"), Qt::CaseInsensitive));
    int charts = 0;
    for (qsizetype at = html.indexOf(QLatin1String("<svg")); at >= 0; at = html.indexOf(QLatin1String("<svg"), at + 1)) {
        const auto end = html.indexOf(QLatin1String("</svg>"), at);
        ASSERT_GT(end, at);
        const auto svg = readSvg(html.mid(at, end + 6 - at).toUtf8());
        EXPECT_TRUE(svg.wellFormed) << "chart " << charts << ": " << svg.error.toStdString();
        EXPECT_EQ(svg.scripts, 0);
        ++charts;
        at = end;
    }
    EXPECT_GE(charts, 1);

    // A browser's view: Python's html.parser (the tokenizer of the HTML standard, minus the tree).
    const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
    if (python.isEmpty())
        GTEST_SKIP() << "python3 not installed: the HTML parser check is skipped";
    const char* script = R"(import sys, html.parser
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True); self.tags = []; self.text = {}; self.open = []
    def handle_starttag(self, tag, attrs):
        self.tags.append(tag); self.open.append(tag)
        for k, v in attrs:
            if k.startswith('on') or (v or '').lower().startswith('javascript:'): print('handler', tag, k)
    def handle_endtag(self, tag):
        if self.open and self.open[-1] == tag: self.open.pop()
    def handle_data(self, d):
        if self.open: self.text.setdefault(self.open[-1], d)
p = P(); p.feed(sys.stdin.read()); p.close()
print('scripts', p.tags.count('script'))
print('title', p.text.get('title', ''))
print('h1', p.text.get('h1', ''))
)";
    QProcess proc;
    proc.start(python, {QStringLiteral("-c"), QString::fromUtf8(script)});
    ASSERT_TRUE(proc.waitForStarted());
    proc.write(html.toUtf8());
    proc.closeWriteChannel();
    ASSERT_TRUE(proc.waitForFinished(30000));
    ASSERT_EQ(proc.exitCode(), 0) << proc.readAllStandardError().toStdString();
    const QStringList lines = QString::fromUtf8(proc.readAllStandardOutput()).split(QLatin1Char('\n'));
    EXPECT_TRUE(lines.contains(QStringLiteral("scripts 0"))) << lines.join(QLatin1Char('|')).toStdString();
    EXPECT_TRUE(lines.contains(QStringLiteral("title ") + q(kHostile))) << lines.join(QLatin1Char('|')).toStdString();
    EXPECT_TRUE(lines.contains(QStringLiteral("h1 ") + q(kHostile))) << lines.join(QLatin1Char('|')).toStdString();
    for (const auto& l : lines)
        EXPECT_FALSE(l.startsWith(QLatin1String("handler"))) << l.toStdString();
}

TEST(HostileText, CsvCellsFromTitlesAndHostsCannotRunAsFormulas)
{
    HostileWorkspace w(kFormula);
    const auto file = w.dir.path / "chart.csv";
    QString error;
    ASSERT_TRUE(exportChart(ChartKind::Bandwidth, w.load({w.hostile}), ChartOptions{}, qpath(file), &error))
        << error.toStdString();
    std::ifstream in(file);
    io::CsvReader reader(in);
    io::CsvRow row;
    ASSERT_TRUE(reader.next(row)); // header
    ASSERT_TRUE(reader.next(row));
    EXPECT_EQ(row.fields[1], "'" + kFormula);
    // Numbers we write stay numbers, also negative ones (only text cells are neutralised).
    for (std::size_t i = 0; i < row.fields.size(); ++i) {
        if (i != 1 && !row.fields[i].empty()) {
            EXPECT_NE(row.fields[i].front(), '\'') << "column " << i << ": " << row.fields[i];
        }
    }

    const auto pairs = hostilePairs(kFormula);
    const std::string csv = views::pairsHeatmapCsv(
        views::pairsHeatmap(pairs.pairs, views::PairMetric::Bandwidth, kDefaultSlowPairFraction));
    std::istringstream pin(csv);
    io::CsvReader preader(pin);
    ASSERT_TRUE(preader.next(row));
    ASSERT_EQ(row.fields[2], "host_a");
    int hostile = 0;
    while (preader.next(row))
        for (const auto& f : {row.fields[2], row.fields[3]})
            if (f.find("calc") != std::string::npos) {
                ++hostile;
                EXPECT_EQ(f, "'" + kFormula);
            }
    EXPECT_EQ(hostile, 3);
}
