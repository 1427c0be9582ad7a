// Settings: recent workspaces deduplicated and capped, setters emit only on change, window state
// from another layout version is ignored.
#include <QJsonObject>
#include <QSignalSpy>

#include "settings.h"
#include "tempdir.h"
#include "test_gui_env.h"

using rl::Settings;

TEST(GuiSettings, RecentWorkspacesAreDeduplicatedCappedAndClearable)
{
    rl::test::TempDir dir;
    Settings s(dir.filePath(QStringLiteral("s.ini")));
    QSignalSpy changed(&s, &Settings::recentWorkspacesChanged);
    for (int i = 0; i < 12; ++i)
        s.addRecentWorkspace(dir.filePath(QStringLiteral("ws%1.db").arg(i)));
    s.addRecentWorkspace(dir.filePath(QStringLiteral("ws5.db")));
    s.addRecentWorkspace(dir.filePath(QStringLiteral("sub/../ws5.db"))); // same file: no change
    const QStringList recent = s.recentWorkspaces();
    ASSERT_EQ(recent.size(), Settings::kMaxRecent);
    EXPECT_EQ(recent.front(), dir.filePath(QStringLiteral("ws5.db")));
    EXPECT_EQ(recent.count(dir.filePath(QStringLiteral("ws5.db"))), 1);
    EXPECT_FALSE(recent.contains(dir.filePath(QStringLiteral("ws0.db")))) << "oldest dropped";
    EXPECT_EQ(changed.size(), 13);
    s.clearRecentWorkspaces();
    EXPECT_TRUE(s.recentWorkspaces().isEmpty());
    s.clearRecentWorkspaces();
    EXPECT_EQ(changed.size(), 14) << "clearing an empty list emits nothing";
}

TEST(GuiSettings, SettersEmitOnlyOnChangeAndPersist)
{
    rl::test::TempDir dir;
    const QString ini = dir.filePath(QStringLiteral("s.ini"));
    {
        Settings s(ini);
        QSignalSpy size(&s, &Settings::exportSizeChanged);
        EXPECT_EQ(s.exportSize(), QSize(1600, 1000));
        s.setExportSize(QSize(800, 600));
        s.setExportSize(QSize(800, 600));
        EXPECT_EQ(size.size(), 1);
        s.setWindowState(QByteArray("state-bytes"));
        s.setLastWorkspace(QStringLiteral("/tmp/a.db"));
    }
    Settings again(ini);
    EXPECT_EQ(again.exportSize(), QSize(800, 600));
    EXPECT_EQ(again.windowState(), QByteArray("state-bytes"));
    EXPECT_EQ(again.lastWorkspace(), QStringLiteral("/tmp/a.db"));
    QSettings raw(ini, QSettings::IniFormat);
    raw.setValue(QStringLiteral("window/stateVersion"), Settings::kWindowStateVersion + 1);
    raw.sync();
    Settings newer(ini);
    EXPECT_TRUE(newer.windowState().isEmpty()) << "a state saved by another layout version is not applied";
}

// Each file dialog purpose keeps its own folder, and the benchmark dialogs' last configurations
// survive a restart as the JSON they stored; a damaged value reads as "nothing stored".
TEST(GuiSettings, LastFoldersPerPurposeAndBenchmarkConfigsPersist)
{
    rl::test::TempDir dir;
    const QString ini = dir.filePath(QStringLiteral("s.ini"));
    const QJsonObject collective{{QStringLiteral("version"), 1}, {QStringLiteral("np"), 16}};
    const QJsonObject kernel{{QStringLiteral("version"), 1}, {QStringLiteral("kind"), QStringLiteral("gemm")}};
    {
        Settings s(ini);
        EXPECT_TRUE(s.lastDir(Settings::DirPurpose::Export).isEmpty());
        EXPECT_TRUE(s.collectiveBenchmark().isEmpty());
        s.setLastDir(Settings::DirPurpose::Import, dir.filePath(QStringLiteral("results/../results")));
        s.setLastDir(Settings::DirPurpose::Export, dir.filePath(QStringLiteral("charts")));
        s.setLastDir(Settings::DirPurpose::Workspace, QString()); // ignored
        s.setCollectiveBenchmark(collective);
        s.setKernelBenchmark(kernel);
    }
    Settings again(ini);
    EXPECT_EQ(again.lastDir(Settings::DirPurpose::Import), dir.filePath(QStringLiteral("results")));
    EXPECT_EQ(again.lastDir(Settings::DirPurpose::Export), dir.filePath(QStringLiteral("charts")));
    EXPECT_TRUE(again.lastDir(Settings::DirPurpose::Workspace).isEmpty());
    EXPECT_TRUE(again.lastDir(Settings::DirPurpose::Hostfile).isEmpty());
    EXPECT_EQ(again.collectiveBenchmark(), collective);
    EXPECT_EQ(again.kernelBenchmark(), kernel);

    QSettings raw(ini, QSettings::IniFormat);
    raw.setValue(QStringLiteral("benchmark/collective"), QStringLiteral("{not json"));
    raw.sync();
    EXPECT_TRUE(Settings(ini).collectiveBenchmark().isEmpty());
}
