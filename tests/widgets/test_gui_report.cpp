// File > Report… (issue 15): the selected sessions, a file name asked for, the report written off
// the GUI thread (the action returns before the file exists), a status message when done; HTML
// with the charts inline, and PDF when that filter is chosen.
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTimer>

#include <algorithm>

#include "mainwindow.h"
#include "sessionbrowser.h"
#include "sessionmodel.h"
#include "settings.h"
#include "store/workspace.h"
#include "test_gui_env.h"

using rl::Settings;

namespace {
QAction* action(rl::MainWindow& window, const QString& text)
{
    const auto actions = window.findChildren<QAction*>();
    const auto it = std::find_if(actions.begin(), actions.end(), [&](QAction* a) { return a->text() == text; });
    return it == actions.end() ? nullptr : *it;
}

// Triggers `a`, answering its modal file dialog with `answer`.
void triggerAndAnswer(QAction* a, const std::function<void(QFileDialog*)>& answer)
{
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, [&] {
        if (auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
            poll.stop();
            answer(dialog);
        }
    });
    poll.start(20);
    a->trigger();
}
} // namespace

TEST(GuiReport, FileReportWritesHtmlAndPdfOfTheSelectedSessionsOffTheGuiThread)
{
    QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
    qputenv("RIDGELINE_NO_DIALOGS", "1");
    QTemporaryDir dir;
    Settings settings(dir.filePath(QStringLiteral("settings.ini")));
    rl::MainWindow window(&settings);
    window.resize(1300, 800);
    window.show();
    QSignalSpy shown(&window, &rl::MainWindow::sessionsShown);
    window.openWorkspace(dir.filePath(QStringLiteral("ws.db")));
    ASSERT_TRUE(shown.wait(15000));
    QSignalSpy imported(&window, &rl::MainWindow::importDone);
    window.importPaths({rl::testing::guiData("import")});
    ASSERT_TRUE(imported.wait(30000));
    ASSERT_TRUE(rl::testing::waitFor([&] { return window.sessionBrowser()->model()->sessionCount() == 3; }));
    std::vector<std::int64_t> ids;
    for (const auto& s : rl::store::Workspace(dir.filePath(QStringLiteral("ws.db")).toStdString()).sessions())
        if (s.kind == rl::kind::Collectives)
            ids.push_back(s.id);
    ASSERT_FALSE(ids.empty());
    QSignalSpy charts(&window, &rl::MainWindow::chartsShown);
    window.sessionBrowser()->selectSessions(ids);
    ASSERT_TRUE(charts.wait(15000));

    QAction* report = action(window, QStringLiteral("&Report…"));
    ASSERT_TRUE(report);
    EXPECT_EQ(report->shortcut(), QKeySequence(QStringLiteral("Ctrl+R")));

    QSignalSpy written(&window, &rl::MainWindow::reportWritten);
    QSignalSpy failed(&window, &rl::MainWindow::reportFailed);
    const QString html = dir.filePath(QStringLiteral("cluster.html"));
    triggerAndAnswer(report, [&](QFileDialog* d) {
        d->selectFile(html);
        static_cast<QDialog*>(d)->accept();
    });
    // The action came back at once: the charts are drawn and the file written after the worker
    // read the sessions, so nothing is there yet.
    EXPECT_FALSE(QFileInfo::exists(html));
    ASSERT_TRUE(written.wait(30000)) << (failed.isEmpty() ? "" : failed.first().first().toString().toStdString());
    EXPECT_EQ(written.first().first().toString().toStdString(), html.toStdString());
    EXPECT_TRUE(window.statusBar()->currentMessage().startsWith(QStringLiteral("Report written to ")))
        << window.statusBar()->currentMessage().toStdString();
    QFile f(html);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    EXPECT_TRUE(text.startsWith(QStringLiteral("<!DOCTYPE html>")));
    EXPECT_EQ(text.count(QStringLiteral("<svg")), qsizetype(2 * ids.size())) << "bandwidth and latency per session";
    EXPECT_TRUE(text.contains(QStringLiteral("peaks at a busbw of")));

    // The PDF filter and a bare name: the suffix follows the filter.
    written.clear();
    triggerAndAnswer(report, [&](QFileDialog* d) {
        const auto filters = d->nameFilters();
        const auto pdf = std::find_if(filters.begin(), filters.end(), [](const QString& n) { return n.contains(QStringLiteral("*.pdf")); });
        auto* name = d->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
        if (pdf == filters.end() || !name) { // an ASSERT here would leave the dialog open for ever
            ADD_FAILURE() << "no PDF filter or no file name field";
            d->reject();
            return;
        }
        d->selectNameFilter(*pdf);
        // Typed, as a user does, in the folder the last report went to.
        EXPECT_EQ(d->directory().absolutePath(), QFileInfo(html).absolutePath());
        name->setText(QStringLiteral("bare"));
        static_cast<QDialog*>(d)->accept();
    });
    ASSERT_TRUE(written.wait(30000)) << (failed.isEmpty() ? "" : failed.first().first().toString().toStdString());
    const QString pdf = dir.filePath(QStringLiteral("bare.pdf"));
    EXPECT_EQ(written.first().first().toString().toStdString(), pdf.toStdString());
    QFile p(pdf);
    ASSERT_TRUE(p.open(QIODevice::ReadOnly));
    EXPECT_TRUE(p.read(5) == "%PDF-");
    EXPECT_GT(p.size(), 10000);

    // The cluster template through its filter.
    written.clear();
    triggerAndAnswer(report, [&](QFileDialog* d) {
        const auto filters = d->nameFilters();
        const auto cluster = std::find_if(filters.begin(), filters.end(), [](const QString& n) {
            return n.startsWith(QStringLiteral("HTML, cluster template"));
        });
        auto* name = d->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
        if (cluster == filters.end() || !name) {
            ADD_FAILURE() << "no cluster filter or no file name field";
            d->reject();
            return;
        }
        d->selectNameFilter(*cluster);
        name->setText(QStringLiteral("cluster-template"));
        static_cast<QDialog*>(d)->accept();
    });
    ASSERT_TRUE(written.wait(30000)) << (failed.isEmpty() ? "" : failed.first().first().toString().toStdString());
    QFile t(dir.filePath(QStringLiteral("cluster-template.html")));
    ASSERT_TRUE(t.open(QIODevice::ReadOnly));
    const QString clusterText = QString::fromUtf8(t.readAll());
    EXPECT_TRUE(clusterText.contains(QStringLiteral("<title>Cluster characterisation</title>")));
    EXPECT_TRUE(clusterText.contains(QStringLiteral("<h2>Collectives")));
}
