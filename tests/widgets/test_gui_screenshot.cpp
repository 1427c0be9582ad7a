// `ridgeline --screenshot out.png` on a temporary workspace renders a real, non-blank window.
#include <QImage>
#include <QProcess>

#include <set>

#include "tempdir.h"
#include "test_gui_env.h"

TEST(GuiScreenshot, RendersANonBlankPngAndExitsZero)
{
    rl::test::TempDir dir;
    const QString png = dir.filePath(QStringLiteral("out.png"));
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("data")));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(RIDGELINE_GUI_BIN),
            {QStringLiteral("--db"), dir.filePath(QStringLiteral("ws.db")), QStringLiteral("--screenshot"), png,
             rl::testing::guiData("import")});
    ASSERT_TRUE(p.waitForFinished(120000)) << "ridgeline did not finish";
    EXPECT_EQ(p.exitStatus(), QProcess::NormalExit);
    EXPECT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
    QImage image(png);
    ASSERT_FALSE(image.isNull()) << "no PNG written";
    EXPECT_GE(image.width(), 800);
    EXPECT_GE(image.height(), 500);
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
    EXPECT_GT(colours.size(), 20u) << "the window is blank";
}

TEST(GuiScreenshot, FailsWithAMessageWhenThePngCannotBeWritten)
{
    rl::test::TempDir dir;
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(RIDGELINE_GUI_BIN), {QStringLiteral("--db"), dir.filePath(QStringLiteral("ws.db")),
                                               QStringLiteral("--screenshot"),
                                               dir.filePath(QStringLiteral("no/such/dir/out.png"))});
    ASSERT_TRUE(p.waitForFinished(120000));
    EXPECT_NE(p.exitCode(), 0);
    EXPECT_TRUE(p.readAllStandardError().contains("cannot write screenshot"));
}
