// Desktop habits of issue 15 on the real main window over a temporary workspace: the session
// list's Rename (F2), Delete (Del) with Undo/Redo, Copy as CSV/JSON; the Edit and View menus
// (Find, dock toggles, Reset Layout); Esc/Ctrl+W closing the tool windows; F1's shortcut list
// built from the actions; About with the library versions.
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDockWidget>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTreeView>
#include <QUndoStack>

#include "gui/settings/aboutdialog.h"
#include "gui/window/chartarea.h"
#include "chartframe.h"
#include "collectivechart.h"
#include "detailspanel.h"
#include "resulttableview.h"
#include "gui/window/startpage.h"
#include "gui/window/mainwindow.h"
#include "gui/window/sessionactions.h"
#include "gui/window/sessionbrowser.h"
#include "sessionmodel.h"
#include "settings.h"
#include "store/workspace.h"
#include "tempdir.h"
#include "test_gui_env.h"

using rl::testing::waitFor;

namespace {
struct Fixture
{
    rl::test::TempDir dir;
    QString ws = dir.filePath(QStringLiteral("ws.db"));
    rl::Settings settings{dir.filePath(QStringLiteral("settings.ini"))};
    rl::MainWindow window{&settings};

    Fixture()
    {
        qputenv("RIDGELINE_NO_DIALOGS", "1");
        window.resize(1300, 800);
        window.show();
        QApplication::setActiveWindow(&window);
        EXPECT_TRUE(QTest::qWaitForWindowActive(&window));
        QSignalSpy shown(&window, &rl::MainWindow::sessionsShown);
        window.openWorkspace(ws);
        EXPECT_TRUE(shown.wait(15000));
        QSignalSpy imported(&window, &rl::MainWindow::importDone);
        window.importPaths({rl::testing::guiData("import")});
        EXPECT_TRUE(imported.wait(30000));
        EXPECT_TRUE(waitFor([&] { return window.sessionBrowser()->model()->sessionCount() == 3; }));
    }
    std::int64_t idOf(const std::string& title)
    {
        rl::store::Workspace store(ws.toStdString());
        for (const auto& s : store.sessions())
            if (s.title == title)
                return s.id;
        return 0;
    }
    std::size_t storedSessions() { return rl::store::Workspace(ws.toStdString()).sessions().size(); }
    QTreeView* view() { return window.sessionBrowser()->view(); }
    void focusList()
    {
        view()->setFocus();
        EXPECT_TRUE(waitFor([&] { return view()->hasFocus(); }));
    }
    QAction* menuAction(const QString& menu, const QString& objectNameOrText)
    {
        for (QAction* top : window.menuBar()->actions())
            if (top->menu() && top->text().remove(u'&') == menu)
                for (QAction* a : top->menu()->actions())
                    if (a->objectName() == objectNameOrText || a->text().remove(u'&') == objectNameOrText)
                        return a;
        return nullptr;
    }
    void shoot(QWidget* w, const char* name)
    {
        if (const QByteArray d = qgetenv("RIDGELINE_TEST_SCREENSHOT_DIR"); !d.isEmpty())
            w->grab().save(QString::fromLocal8Bit(d) + u'/' + QString::fromLatin1(name));
    }
};
} // namespace

TEST(GuiHabits, DeleteKeyRemovesSessionsAndUndoBringsThemBackWithPoints)
{
    Fixture f;
    const auto allreduce = f.idOf("all_reduce 8 ranks MI300X");
    const auto allgather = f.idOf("all_gather 8 ranks H100");
    ASSERT_NE(allreduce, 0);
    const auto points = rl::store::Workspace(f.ws.toStdString()).collectivePoints(allreduce).size();
    ASSERT_GT(points, 0u);

    f.window.sessionBrowser()->selectSessions({allreduce, allgather});
    f.focusList();
    QSignalSpy shown(&f.window, &rl::MainWindow::sessionsShown);
    QTest::keyClick(f.view(), Qt::Key_Delete);
    ASSERT_TRUE(shown.wait(15000));
    EXPECT_EQ(f.storedSessions(), 1u);
    EXPECT_EQ(f.window.sessionBrowser()->model()->sessionCount(), 1);
    EXPECT_TRUE(f.window.statusBar()->currentMessage().contains(QStringLiteral("deleted")));
    EXPECT_EQ(f.window.undoStack()->undoText(), QStringLiteral("Delete 2 sessions"));

    // Ctrl+Z anywhere in the window: the same ids, the same points, selected again.
    QTest::keyClick(&f.window, Qt::Key_Z, Qt::ControlModifier);
    ASSERT_TRUE(waitFor([&] { return f.window.sessionBrowser()->model()->sessionCount() == 3; }));
    EXPECT_EQ(rl::store::Workspace(f.ws.toStdString()).collectivePoints(allreduce).size(), points);
    ASSERT_TRUE(waitFor([&] { return f.window.sessionBrowser()->selectedIds().size() == 2; }));
    // The status bar says what Undo did, not "deleted" (issue 24, minor list).
    EXPECT_EQ(f.window.statusBar()->currentMessage().toStdString().rfind("Undone: Delete 2 sessions", 0), 0u)
        << f.window.statusBar()->currentMessage().toStdString();

    // Redo deletes again; the Edit menu's Delete acts without the focus in the list.
    f.window.undoStack()->redo();
    EXPECT_TRUE(waitFor([&] { return f.window.sessionBrowser()->model()->sessionCount() == 1; }));
    EXPECT_EQ(f.window.statusBar()->currentMessage(), QStringLiteral("Redone: Delete 2 sessions"));
    f.window.undoStack()->undo();
    EXPECT_TRUE(waitFor([&] { return f.window.sessionBrowser()->model()->sessionCount() == 3; }));
    EXPECT_EQ(f.storedSessions(), 3u);
}

// The reset of the session list cleared the selection without a signal, so the deleted session
// stayed in the chart and the details with its actions enabled. What is shown is what is selected:
// nothing left, the start page; Undo selects and shows it again.
TEST(GuiHabits, DeletingTheSelectedSessionClearsTheViewsAndDisablesTheActions)
{
    Fixture f;
    const auto id = f.idOf("all_gather 8 ranks H100");
    ASSERT_NE(id, 0);
    auto* actions = f.window.sessionActions();
    QSignalSpy charts(&f.window, &rl::MainWindow::chartsShown);
    f.window.sessionBrowser()->selectSessions({id});
    ASSERT_TRUE(charts.wait(15000));
    ASSERT_EQ(f.window.chartArea()->data().size(), 1u);
    ASSERT_EQ(f.window.chartArea()->data().front().session.id, id);
    ASSERT_EQ(f.window.detailsPanel()->sessionId(), id);
    ASSERT_TRUE(f.window.chartArea()->isVisible());
    ASSERT_GT(f.window.chartArea()->currentChart()->chart()->series().size(), 0);

    f.focusList();
    QSignalSpy shown(&f.window, &rl::MainWindow::sessionsShown);
    QTest::keyClick(f.view(), Qt::Key_Delete);
    ASSERT_TRUE(shown.wait(15000));
    ASSERT_EQ(f.storedSessions(), 2u);
    EXPECT_TRUE(f.window.sessionBrowser()->selectedIds().empty());
    EXPECT_TRUE(f.window.chartArea()->data().empty());
    EXPECT_TRUE(f.window.chartArea()->currentChart()->chart()->series().isEmpty());
    EXPECT_FALSE(f.window.detailsPanel()->sessionId().has_value());
    EXPECT_TRUE(f.window.startPage()->isVisible());
    EXPECT_FALSE(f.window.chartArea()->isVisible());
    for (QAction* a : {actions->rename(), actions->remove(), actions->duplicate(), actions->copyCsv(), actions->copyJson()})
        EXPECT_FALSE(a->isEnabled()) << a->text().toStdString();
    f.shoot(&f.window, "habits-deleted.png");

    // Undo: the session is back, selected, shown and its actions enabled again.
    f.window.undoStack()->undo();
    ASSERT_TRUE(waitFor([&] { return f.window.detailsPanel()->sessionId() == id; }));
    EXPECT_TRUE(waitFor([&] { return f.window.chartArea()->data().size() == 1; }));
    EXPECT_TRUE(f.window.chartArea()->isVisible());
    EXPECT_TRUE(actions->remove()->isEnabled());
    EXPECT_TRUE(actions->rename()->isEnabled());

    // Redo deletes it again, and the views follow again.
    f.window.undoStack()->redo();
    EXPECT_TRUE(waitFor([&] { return f.window.startPage()->isVisible(); }));
    EXPECT_FALSE(f.window.detailsPanel()->sessionId().has_value());
    EXPECT_FALSE(actions->remove()->isEnabled());
}

// Undoing a duplicate removes the selected copy: the original is selected and shown in its place,
// never the vanished copy.
TEST(GuiHabits, UndoingADuplicateShowsTheOriginal)
{
    Fixture f;
    const auto id = f.idOf("all_gather 8 ranks H100");
    f.window.sessionBrowser()->selectSessions({id});
    f.focusList();
    QTest::keyClick(f.view(), Qt::Key_D, Qt::ControlModifier);
    ASSERT_TRUE(waitFor([&] { return f.idOf("all_gather 8 ranks H100 (copy)") != 0; }));
    const auto copy = f.idOf("all_gather 8 ranks H100 (copy)");
    ASSERT_TRUE(waitFor([&] { return f.window.detailsPanel()->sessionId() == copy; }));
    f.window.undoStack()->undo();
    ASSERT_TRUE(waitFor([&] { return f.window.detailsPanel()->sessionId() == id; }));
    EXPECT_EQ(f.window.sessionBrowser()->selectedIds(), std::vector<std::int64_t>{id});
    EXPECT_TRUE(waitFor([&] {
        const auto& d = f.window.chartArea()->data();
        return d.size() == 1 && d.front().session.id == id;
    }));
    EXPECT_TRUE(f.window.sessionActions()->remove()->isEnabled());
}

// Duplicate (Ctrl+D): a new session "<title> (copy)" with every point of the original, selected;
// Ctrl+Z removes the copy, Redo brings it back under the same id.
TEST(GuiHabits, DuplicateCopiesTheSessionWithItsPointsAndUndoRemovesTheCopy)
{
    Fixture f;
    const auto id = f.idOf("all_gather 8 ranks H100");
    ASSERT_NE(id, 0);
    const auto points = rl::store::Workspace(f.ws.toStdString()).collectivePoints(id);
    ASSERT_FALSE(points.empty());
    f.window.sessionBrowser()->selectSessions({id});
    f.focusList();
    QTest::keyClick(f.view(), Qt::Key_D, Qt::ControlModifier);
    ASSERT_TRUE(waitFor([&] { return f.window.sessionBrowser()->model()->sessionCount() == 4; }));
    const auto copy = f.idOf("all_gather 8 ranks H100 (copy)");
    ASSERT_NE(copy, 0);
    EXPECT_NE(copy, id);
    const auto copied = rl::store::Workspace(f.ws.toStdString()).collectivePoints(copy);
    ASSERT_EQ(copied.size(), points.size());
    EXPECT_EQ(copied.back().bytes, points.back().bytes);
    EXPECT_TRUE(waitFor([&] { return f.window.sessionBrowser()->selectedIds() == std::vector<std::int64_t>{copy}; }));
    EXPECT_EQ(f.window.undoStack()->undoText(), QStringLiteral("Duplicate “all_gather 8 ranks H100”"));
    EXPECT_TRUE(f.window.statusBar()->currentMessage().contains(QStringLiteral("duplicated")));

    QTest::keyClick(&f.window, Qt::Key_Z, Qt::ControlModifier);
    ASSERT_TRUE(waitFor([&] { return f.window.sessionBrowser()->model()->sessionCount() == 3; }));
    EXPECT_EQ(f.idOf("all_gather 8 ranks H100 (copy)"), 0);
    EXPECT_EQ(rl::store::Workspace(f.ws.toStdString()).collectivePoints(id).size(), points.size());
    f.window.undoStack()->redo();
    ASSERT_TRUE(waitFor([&] { return f.window.sessionBrowser()->model()->sessionCount() == 4; }));
    EXPECT_EQ(f.idOf("all_gather 8 ranks H100 (copy)"), copy);
    EXPECT_EQ(rl::store::Workspace(f.ws.toStdString()).collectivePoints(copy).size(), points.size());
}

TEST(GuiHabits, DeleteInTheFilterFieldEditsTheTextNotTheSessions)
{
    Fixture f;
    f.window.sessionBrowser()->selectFirst(1);
    auto* search = f.window.findChild<QLineEdit*>(QStringLiteral("sessionSearch"));
    search->setText(QStringLiteral("ab"));
    search->setFocus();
    search->setCursorPosition(0);
    ASSERT_TRUE(waitFor([&] { return search->hasFocus(); }));
    QSignalSpy deleteFired(f.window.sessionActions()->remove(), &QAction::triggered);
    QTest::keyClick(search, Qt::Key_Delete);
    EXPECT_EQ(search->text(), QStringLiteral("b"));
    // Nothing to wait for: Delete deletes as the key is handled (the action pushes its command,
    // which deletes from the store there and then). It did not fire, and every session is stored.
    EXPECT_TRUE(deleteFired.isEmpty()) << "Delete in the filter field reached the session list's Delete";
    EXPECT_EQ(f.storedSessions(), 3u);
}

TEST(GuiHabits, F2RenamesInPlaceAndUndoRestoresTheTitle)
{
    Fixture f;
    const auto id = f.idOf("all_gather 8 ranks H100");
    f.window.sessionBrowser()->selectSessions({id});
    f.focusList();
    QTest::keyClick(f.view(), Qt::Key_F2);
    QLineEdit* editor = nullptr;
    ASSERT_TRUE(waitFor([&] { return (editor = f.view()->findChild<QLineEdit*>()) && editor->isVisible(); }));
    EXPECT_EQ(editor->text(), QStringLiteral("all_gather 8 ranks H100"));
    editor->selectAll();
    QTest::keyClicks(editor, QStringLiteral("H100 baseline"));
    f.shoot(&f.window, "habits-rename.png");
    QTest::keyClick(editor, Qt::Key_Return);
    ASSERT_TRUE(waitFor([&] { return f.idOf("H100 baseline") == id; }));
    EXPECT_TRUE(waitFor([&] {
        return f.window.sessionBrowser()->session(id) && f.window.sessionBrowser()->session(id)->title == "H100 baseline";
    }));
    EXPECT_EQ(f.window.sessionBrowser()->selectedIds(), std::vector<std::int64_t>{id});

    f.menuAction(QStringLiteral("Edit"), QStringLiteral("undoAction"))->trigger();
    EXPECT_TRUE(waitFor([&] { return f.idOf("all_gather 8 ranks H100") == id; }));
}

TEST(GuiHabits, CopyPutsThePointsOnTheClipboardAsCsvAndJson)
{
    Fixture f;
    const auto id = f.idOf("all_gather 8 ranks H100");
    const auto points = rl::store::Workspace(f.ws.toStdString()).collectivePoints(id).size();
    f.window.sessionBrowser()->selectSessions({id});
    f.focusList();
    QApplication::clipboard()->clear();
    QTest::keyClick(f.view(), Qt::Key_C, Qt::ControlModifier);
    const QString csv = QApplication::clipboard()->text();
    const QStringList lines = csv.split(u'\n', Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), qsizetype(points) + 2) << csv.toStdString();
    EXPECT_EQ(lines[0], QStringLiteral("# collective_results"));
    EXPECT_TRUE(lines[1].startsWith(QStringLiteral("session_id,op,nranks,dtype"))) << lines[1].toStdString();
    EXPECT_TRUE(lines[2].startsWith(QString::number(id) + QStringLiteral(",all_gather,8,")));

    f.window.sessionActions()->copyJson()->trigger();
    const auto doc = QJsonDocument::fromJson(QApplication::clipboard()->text().toUtf8());
    ASSERT_TRUE(doc.isArray());
    const QJsonObject entry = doc.array().at(0).toObject();
    EXPECT_EQ(entry[QStringLiteral("session")].toObject()[QStringLiteral("title")].toString(),
              QStringLiteral("all_gather 8 ranks H100"));
    EXPECT_EQ(entry[QStringLiteral("collective_results")].toArray().size(), qsizetype(points));
    EXPECT_TRUE(f.window.statusBar()->currentMessage().contains(QStringLiteral("JSON")));
}

TEST(GuiHabits, ContextMenuOffersTheSessionActions)
{
    Fixture f;
    const auto actions = f.view()->actions();
    EXPECT_EQ(f.view()->contextMenuPolicy(), Qt::ActionsContextMenu);
    ASSERT_EQ(actions.size(), 5);
    for (auto* a : actions)
        EXPECT_FALSE(a->statusTip().isEmpty()) << a->text().toStdString();
    f.window.sessionBrowser()->selectFirst(2);
    EXPECT_FALSE(f.window.sessionActions()->rename()->isEnabled()); // one title at a time
    EXPECT_TRUE(f.window.sessionActions()->remove()->isEnabled());
    EXPECT_TRUE(f.window.sessionActions()->duplicate()->isEnabled());
    f.window.sessionBrowser()->selectFirst(1);
    EXPECT_TRUE(f.window.sessionActions()->rename()->isEnabled());
}

TEST(GuiHabits, CtrlFFocusesTheFilterAndViewMenuBringsDocksBack)
{
    Fixture f;
    auto* search = f.window.findChild<QLineEdit*>(QStringLiteral("sessionSearch"));
    auto* sessions = f.window.findChild<QDockWidget*>(QStringLiteral("sessionsDock"));
    auto* details = f.window.findChild<QDockWidget*>(QStringLiteral("detailsDock"));
    sessions->close();
    details->close();
    QTest::keyClick(&f.window, Qt::Key_F, Qt::ControlModifier);
    EXPECT_TRUE(sessions->isVisible());
    EXPECT_TRUE(waitFor([&] { return search->hasFocus(); }));

    QAction* toggle = f.menuAction(QStringLiteral("View"), QStringLiteral("Details"));
    ASSERT_TRUE(toggle);
    EXPECT_FALSE(toggle->isChecked());
    toggle->trigger();
    EXPECT_TRUE(details->isVisible());

    details->setFloating(true);
    sessions->close();
    f.menuAction(QStringLiteral("View"), QStringLiteral("resetLayoutAction"))->trigger();
    EXPECT_TRUE(sessions->isVisible());
    EXPECT_FALSE(details->isFloating());
    EXPECT_EQ(f.window.dockWidgetArea(details), Qt::RightDockWidgetArea);
    EXPECT_EQ(f.window.dockWidgetArea(sessions), Qt::LeftDockWidgetArea);
}

TEST(GuiHabits, EscAndCtrlWCloseTheToolWindows)
{
    Fixture f;
    for (const char* name : {"MoE explorer…", "Sizing model…", "Resilience planner…", "Hardware profiles…"}) {
        QAction* open = f.menuAction(QStringLiteral("Tools"), QString::fromUtf8(name));
        ASSERT_TRUE(open) << name;
        for (auto key : {QKeyCombination(Qt::Key_Escape), QKeyCombination(Qt::ControlModifier, Qt::Key_W)}) {
            open->trigger();
            QWidget* tool = QApplication::activeWindow();
            ASSERT_TRUE(waitFor([&] { return (tool = QApplication::activeWindow()) && tool != &f.window; })) << name;
            QTest::keyClick(tool, key.key(), key.keyboardModifiers());
            EXPECT_TRUE(waitFor([&] { return !tool->isVisible(); })) << name;
        }
    }
}

TEST(GuiHabits, F1ListsTheShortcutsOfTheActions)
{
    Fixture f;
    QTest::keyClick(&f.window, Qt::Key_F1);
    rl::charts::ResultTableView* table = nullptr;
    ASSERT_TRUE(waitFor(
        [&] { return (table = f.window.findChild<rl::charts::ResultTableView*>(QStringLiteral("shortcutsTable"))); }));
    const auto* model = table->resultModel();
    const auto text = [model](int r, int c) { return model->index(r, c).data().toString(); };
    QMap<QString, QString> keys;
    for (int r = 0; r < model->rowCount(); ++r) {
        keys[text(r, 0)] = text(r, 1);
        EXPECT_FALSE(text(r, 2).isEmpty()) << text(r, 0).toStdString();
    }
    EXPECT_EQ(keys.value(QStringLiteral("File › Import")), QStringLiteral("Ctrl+I"));
    EXPECT_EQ(keys.value(QStringLiteral("File › New collective benchmark")), QStringLiteral("Ctrl+B"));
    EXPECT_EQ(keys.value(QStringLiteral("File › Export chart")), QStringLiteral("Ctrl+E"));
    EXPECT_EQ(keys.value(QStringLiteral("Edit › Find Session")), QStringLiteral("Ctrl+F"));
    EXPECT_EQ(keys.value(QStringLiteral("Edit › Delete Sessions")), QStringLiteral("Del"));
    EXPECT_EQ(keys.value(QStringLiteral("Edit › Rename Session")), QStringLiteral("F2"));
    EXPECT_EQ(keys.value(QStringLiteral("Edit › Undo")), QStringLiteral("Ctrl+Z"));
    EXPECT_EQ(keys.value(QStringLiteral("Help › Keyboard Shortcuts")), QStringLiteral("F1"));
    EXPECT_EQ(keys.value(QStringLiteral("Tools › Resilience planner")), QStringLiteral("Ctrl+Shift+K"));
    f.shoot(table->window(), "habits-shortcuts.png");
}

TEST(GuiHabits, AboutNamesTheLibraryVersions)
{
    Fixture f;
    f.menuAction(QStringLiteral("Help"), QStringLiteral("About Ridgeline"))->trigger();
    rl::charts::ResultTableView* table = nullptr;
    ASSERT_TRUE(waitFor(
        [&] { return (table = f.window.findChild<rl::charts::ResultTableView*>(QStringLiteral("aboutVersions"))); }));
    const auto* model = table->resultModel();
    QMap<QString, QString> versions;
    for (int r = 0; r < model->rowCount(); ++r)
        versions[model->index(r, 0).data().toString()] = model->index(r, 1).data().toString();
    EXPECT_EQ(versions.value(QStringLiteral("Qt")), QString::fromLatin1(qVersion()));
    EXPECT_EQ(versions.value(QStringLiteral("Ridgeline")), QStringLiteral(RIDGELINE_VERSION));
    EXPECT_TRUE(versions.value(QStringLiteral("SQLite")).startsWith(QStringLiteral("3.")));
    EXPECT_FALSE(versions.value(QStringLiteral("simdjson")).isEmpty());
    EXPECT_TRUE(versions.value(QStringLiteral("Eigen")).startsWith(QStringLiteral("3.")));
    EXPECT_FALSE(versions.value(QStringLiteral("MPI (ridgeline-bench)")).isEmpty());
    EXPECT_TRUE(rl::AboutDialog::versionsText().contains(QStringLiteral("SQLite 3.")));
    auto* text = table->window()->findChild<QLabel*>(QStringLiteral("aboutText"));
    ASSERT_TRUE(text);
    EXPECT_TRUE(text->text().contains(QStringLiteral("Apache License, Version 2.0"))) << text->text().toStdString();
    f.shoot(table->window(), "habits-about.png");
}
