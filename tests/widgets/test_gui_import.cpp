// ImportController on a real folder: good files are stored, a broken file is reported with its
// name, a truncated line with file and line, and importing again skips everything by sha256.
#include <QSignalSpy>
#include <QTemporaryDir>

#include "importcontroller.h"
#include "store/workspace.h"
#include "test_gui_env.h"

using rl::ImportController;
using rl::ImportReport;

namespace {
ImportReport runImport(ImportController& c, const QStringList& paths)
{
    QSignalSpy finished(&c, &ImportController::importFinished);
    c.start(paths);
    EXPECT_TRUE(finished.wait(30000));
    return finished.isEmpty() ? ImportReport{} : finished.first().first().value<ImportReport>();
}
} // namespace

TEST(GuiImport, FolderImportStoresGoodFilesAndNamesBrokenOnes)
{
    QTemporaryDir dir;
    const QString ws = dir.filePath(QStringLiteral("ws.db"));
    ImportController c;
    c.setWorkspacePath(ws);
    QSignalSpy progress(&c, &ImportController::progressChanged);
    const ImportReport r = runImport(c, {rl::testing::guiData("import")});
    EXPECT_EQ(r.filesTotal, 4);
    EXPECT_EQ(r.imported, 3);
    EXPECT_EQ(r.newSessionIds.size(), 3u);
    ASSERT_EQ(r.errors.size(), 1) << r.errors.join(u'\n').toStdString();
    EXPECT_TRUE(r.errors.first().contains(QStringLiteral("notes_garbage.txt"))) << r.errors.first().toStdString();
    ASSERT_FALSE(r.warnings.isEmpty());
    EXPECT_TRUE(r.warnings.first().contains(QStringLiteral("killed_allreduce_16r.jsonl:9:")))
        << r.warnings.first().toStdString();
    EXPECT_FALSE(progress.isEmpty());
    EXPECT_EQ(progress.last().first().toInt(), 1000);

    rl::store::Workspace check(ws.toStdString());
    const auto sessions = check.sessions();
    ASSERT_EQ(sessions.size(), 3u);
    std::size_t points = 0;
    for (const auto& s : sessions)
        points += check.collectivePoints(s.id).size();
    EXPECT_EQ(points, 12u + 12u + 7u);

    const ImportReport again = runImport(c, {rl::testing::guiData("import")});
    EXPECT_EQ(again.imported, 0);
    EXPECT_EQ(again.alreadyImported, 3);
    EXPECT_EQ(check.sessions().size(), 3u) << "nothing stored twice";
    EXPECT_TRUE(again.summary().contains(QStringLiteral("3 already in the workspace")));
}

TEST(GuiImport, MissingFileIsReportedAndNothingStored)
{
    QTemporaryDir dir;
    const QString ws = dir.filePath(QStringLiteral("ws.db"));
    ImportController c;
    c.setWorkspacePath(ws);
    const ImportReport r = runImport(c, {dir.filePath(QStringLiteral("no-such-run.log"))});
    ASSERT_EQ(r.errors.size(), 1);
    EXPECT_TRUE(r.errors.first().contains(QStringLiteral("no-such-run.log")));
    EXPECT_EQ(r.imported, 0);
    rl::store::Workspace check(ws.toStdString());
    EXPECT_TRUE(check.sessions().empty());
}
