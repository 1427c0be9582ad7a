// Issue 26 item 11: a long session selected in the main window is drawn first from its outline
// (store/collectiveoutline.h), then every point is read for the table. While only the outline is
// there, nothing that needs every point shows or exports a part of them; once they are in, the
// charts are the ones the outline drew.
#include <memory>

#include <QFileInfo>
#include <QLineSeries>
#include <QProgressBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QToolButton>

#include "chartcontent.h"
#include "collectivechart.h"
#include "gui/window/chartarea.h"
#include "gui/window/mainwindow.h"
#include "gui/window/sessionbrowser.h"
#include "scaleworkspace.h"
#include "settings.h"
#include "store/collectiveoutline.h"
#include "store/workspace.h"
#include "tempdir.h"
#include "test_gui_env.h"

namespace {
// The points each curve series of the chart draws, in series order.
std::vector<QList<QPointF>> drawnCurves(rl::charts::CollectiveChart* chart)
{
    std::vector<QList<QPointF>> out;
    auto* content = chart->findChild<rl::charts::ChartContent*>();
    for (QAbstractSeries* s : chart->chart()->series())
        if (auto* line = qobject_cast<QLineSeries*>(s);
            line && !line->name().contains(QStringLiteral("α")) && !line->name().contains(QStringLiteral("peak")))
            out.push_back(line->points());
    EXPECT_EQ(content->curves().size(), 8u);
    return out;
}

// A workspace of one long session (8 curves over 512 sizes, each measured points / 4,096 times) and
// the main window on it, its session list shown.
class GuiOutline : public ::testing::Test
{
protected:
    void open(std::int64_t points)
    {
        qputenv("RIDGELINE_NO_DIALOGS", "1");
        path = dir.filePath(QStringLiteral("long.db"));
        {
            rl::store::Workspace ws(path.toStdString());
            rl::scale::LongSession spec;
            spec.points = points;
            spec.sizes = 512;
            id = rl::scale::addLongSession(ws, spec);
            ASSERT_TRUE(rl::store::readCollectiveOutline(ws.database(), id));
        }
        settings = std::make_unique<rl::Settings>(dir.filePath(QStringLiteral("settings.ini")));
        m_window = std::make_unique<rl::MainWindow>(settings.get());
        m_window->resize(1400, 900);
        m_window->show();
        QSignalSpy listed(m_window.get(), &rl::MainWindow::sessionsShown);
        m_window->openWorkspace(path);
        ASSERT_TRUE(listed.wait(60000));
    }

    rl::test::TempDir dir;
    QString path;
    std::int64_t id = 0;
    std::unique_ptr<rl::Settings> settings;
    std::unique_ptr<rl::MainWindow> m_window;
};
} // namespace

TEST_F(GuiOutline, ALongSessionIsDrawnFromItsOutlineThenEveryPointFillsTheTable)
{
    const std::int64_t points = 100'000; // 8 curves of 12,500 points: each size measured ~24 times
    ASSERT_NO_FATAL_FAILURE(open(points));
    rl::MainWindow& window = *m_window;
    auto* area = window.chartArea();
    auto* table = area->findChild<QTableView*>(QStringLiteral("resultsTable"));
    auto* bandwidth = area->findChild<rl::charts::CollectiveChart*>(QStringLiteral("bandwidthChart"));
    auto* scaling = area->findChild<rl::charts::CollectiveChart*>(QStringLiteral("scalingChart"));
    ASSERT_TRUE(table && bandwidth && scaling);

    // What the window shows at the first handover, looked at as it happens.
    bool firstSeen = false;
    bool firstHeldEvery = true;
    int firstRows = -1;
    QString firstTab, bandwidthImage, bandwidthData, scalingExport;
    QObject::connect(&window, &rl::MainWindow::chartsShown, &window, [&] {
        if (firstSeen)
            return;
        firstSeen = true;
        firstHeldEvery = area->holdsEveryPoint();
        firstRows = table->model()->rowCount();
        firstTab = area->tabText(area->indexOf(table));
        if (!bandwidth->exportTo(dir.filePath(QStringLiteral("early.svg")), &bandwidthImage))
            bandwidthImage = QStringLiteral("failed: ") + bandwidthImage;
        bandwidth->exportTo(dir.filePath(QStringLiteral("early.csv")), &bandwidthData);
        scaling->exportTo(dir.filePath(QStringLiteral("early-scaling.png")), &scalingExport);
    });
    // The read of every point shows its progress in the status bar, and hides it when done.
    auto* bar = window.findChild<QProgressBar*>();
    ASSERT_TRUE(bar);
    int progressSeen = -1;
    QObject::connect(bar, &QProgressBar::valueChanged, &window, [&](int v) { progressSeen = std::max(progressSeen, v); });
    QSignalSpy every(&window, &rl::MainWindow::everyPointShown);
    window.sessionBrowser()->selectSessions({id});
    ASSERT_TRUE(every.wait(60000)) << "every point never reached the table";

    ASSERT_TRUE(firstSeen);
    EXPECT_FALSE(firstHeldEvery) << "the first handover was not the outline";
    EXPECT_EQ(firstRows, 0) << "the table showed the outline's points as if they were the session's";
    EXPECT_TRUE(firstTab.contains(QStringLiteral("reading"))) << firstTab.toStdString();
    // The bandwidth chart's image is the one every point draws: exported; its data is every point: not yet.
    EXPECT_TRUE(bandwidthImage.isEmpty()) << bandwidthImage.toStdString();
    EXPECT_TRUE(QFileInfo(dir.filePath(QStringLiteral("early.svg"))).size() > 1000);
    EXPECT_TRUE(bandwidthData.contains(QStringLiteral("still being read"))) << bandwidthData.toStdString();
    EXPECT_FALSE(QFileInfo::exists(dir.filePath(QStringLiteral("early.csv"))));
    EXPECT_TRUE(scalingExport.contains(QStringLiteral("still being read"))) << scalingExport.toStdString();

    // Every point is in, as the signal says.
    EXPECT_TRUE(area->holdsEveryPoint());
    EXPECT_EQ(every.first().first().toInt(), points);
    EXPECT_EQ(table->model()->rowCount(), points);
    EXPECT_EQ(area->tabText(area->indexOf(table)), QStringLiteral("Results table"));
    EXPECT_TRUE(window.statusBar()->currentMessage().contains(QStringLiteral("points read")))
        << window.statusBar()->currentMessage().toStdString();
    EXPECT_GT(progressSeen, 0) << "no progress was shown while every point was read";
    EXPECT_FALSE(bar->isVisible());
    QString error;
    EXPECT_TRUE(bandwidth->exportTo(dir.filePath(QStringLiteral("late.svg")), &error)) << error.toStdString();

    // The chart drawn from every point is the one the outline drew: the same series, point for
    // point, both drawn again here at this width.
    ASSERT_TRUE(rl::testing::waitForLayout(bandwidth->chart()));
    std::vector<rl::charts::SessionCurves> everyPoint, outline;
    {
        rl::store::Workspace ws(path.toStdString());
        everyPoint = rl::charts::loadSessionCurves(ws, {id});
        outline = rl::charts::loadSessionCurves(ws, {id}, rl::charts::MissingSession::Fail, {},
                                                rl::charts::PointsRead::OutlineWhereStored);
    }
    ASSERT_TRUE(rl::charts::anyOutline(outline));
    bandwidth->setSessions(std::move(everyPoint));
    const auto fromPoints = drawnCurves(bandwidth);
    bandwidth->setSessions(std::move(outline));
    const auto fromOutline = drawnCurves(bandwidth);
    ASSERT_EQ(fromPoints.size(), 8u);
    ASSERT_EQ(fromOutline.size(), fromPoints.size());
    for (std::size_t c = 0; c < fromPoints.size(); ++c) {
        EXPECT_GT(fromPoints[c].size(), 100);
        EXPECT_EQ(fromOutline[c], fromPoints[c]) << "curve " << c;
    }
}

// Cancel while every point is read: the charts stay drawn from the outline, the table says its
// points were not read, and opening it reads them.
TEST_F(GuiOutline, CancellingTheReadKeepsTheChartsAndOpeningTheTableReadsThePoints)
{
    const std::int64_t points = 600'000; // read for long enough that Cancel comes first: ~0.5 s
    ASSERT_NO_FATAL_FAILURE(open(points));
    rl::MainWindow& window = *m_window;
    auto* area = window.chartArea();
    auto* table = area->findChild<QTableView*>(QStringLiteral("resultsTable"));
    auto* bar = window.findChild<QProgressBar*>();
    auto* cancel = window.findChild<QToolButton*>(QStringLiteral("cancelJob"));
    ASSERT_TRUE(table && bar && cancel);

    // Cancel at the read's first sign of progress, as a user would click it.
    bool clicked = false;
    QObject::connect(bar, &QProgressBar::valueChanged, &window, [&] {
        if (!std::exchange(clicked, true))
            cancel->click();
    });
    QSignalSpy every(&window, &rl::MainWindow::everyPointShown);
    window.sessionBrowser()->selectSessions({id});
    ASSERT_TRUE(rl::testing::waitFor([&] { return area->tabText(area->indexOf(table)).contains(QStringLiteral("not read")); },
                                     60000))
        << area->tabText(area->indexOf(table)).toStdString();
    EXPECT_TRUE(clicked);
    EXPECT_TRUE(every.isEmpty());
    EXPECT_FALSE(area->holdsEveryPoint());
    EXPECT_EQ(table->model()->rowCount(), 0);
    EXPECT_TRUE(window.statusBar()->currentMessage().contains(QStringLiteral("cancelled")))
        << window.statusBar()->currentMessage().toStdString();
    EXPECT_FALSE(bar->isVisible());
    auto* content = area->currentChart()->findChild<rl::charts::ChartContent*>();
    ASSERT_TRUE(content);
    EXPECT_EQ(content->curves().size(), 8u); // still drawn

    // Opening the table reads them.
    QObject::disconnect(bar, nullptr, &window, nullptr);
    area->setCurrentWidget(table);
    ASSERT_TRUE(every.wait(60000));
    EXPECT_TRUE(area->holdsEveryPoint());
    EXPECT_EQ(table->model()->rowCount(), points);
    EXPECT_EQ(area->tabText(area->indexOf(table)), QStringLiteral("Results table"));
}
