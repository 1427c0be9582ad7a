// The column-mapping dialog for generic training-metrics tables: it lists the file's own columns,
// pre-fills the importer's guess, and the main window imports with the mapping the user chose, so
// a custom logger's table whose names defeat the guess ends up with the right values stored.
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>

#include <cmath>

#include "gui/window/columnmappingdialog.h"
#include "gui/window/importcontroller.h"
#include "gui/window/mainwindow.h"
#include "settings.h"
#include "store/traceresults.h"
#include "store/workspace.h"
#include "tempdir.h"
#include "test_gui_env.h"

namespace {
QString logFile(const char* name) { return QStringLiteral(RIDGELINE_TEST_DATA "/logs/") + QString::fromLatin1(name); }

QComboBox* combo(const rl::ColumnMappingDialog& d, const char* field)
{
    return d.findChild<QComboBox*>(QStringLiteral("column_") + QString::fromLatin1(field));
}

bool importEnabled(const rl::ColumnMappingDialog& d)
{
    return d.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->isEnabled();
}
} // namespace

TEST(GuiColumnMapping, ListsTheHeaderAndPrefillsTheGuess)
{
    rl::ColumnMappingDialog d(logFile("custom_logger_odd_columns.csv"));
    EXPECT_EQ(d.columns(), (QStringList{QStringLiteral("it"), QStringLiteral("lm loss"), QStringLiteral("iter time (s)"),
                                        QStringLiteral("elapsed (s)"), QStringLiteral("tok/s"), QStringLiteral("mfu (%)"),
                                        QStringLiteral("lr"), QStringLiteral("grad norm")}));
    // Every target field offers "(none)" plus every column.
    for (const char* field : {"step", "loss", "stepTime", "tokensPerSec", "tflops", "mfu", "wallTime", "learningRate",
                              "gradNorm"}) {
        ASSERT_TRUE(combo(d, field)) << field;
        EXPECT_EQ(combo(d, field)->count(), d.columns().size() + 1) << field;
        EXPECT_FALSE(combo(d, field)->toolTip().isEmpty()) << field;
    }
    EXPECT_EQ(combo(d, "loss")->currentText(), QStringLiteral("lm loss"));
    EXPECT_EQ(combo(d, "mfu")->currentText(), QStringLiteral("mfu (%)"));
    EXPECT_EQ(combo(d, "learningRate")->currentText(), QStringLiteral("lr"));
    EXPECT_EQ(combo(d, "gradNorm")->currentText(), QStringLiteral("grad norm"));
    // "it" is not a name the guess knows: no step column, so nothing can be imported yet.
    EXPECT_TRUE(d.mapping().step.empty());
    EXPECT_FALSE(importEnabled(d));
    EXPECT_TRUE(d.problem().contains(QStringLiteral("step")));
    combo(d, "step")->setCurrentText(QStringLiteral("it"));
    EXPECT_TRUE(importEnabled(d));
    EXPECT_EQ(d.mapping().step, "it");
    if (const QByteArray dir = qgetenv("RIDGELINE_TEST_SCREENSHOT_DIR"); !dir.isEmpty()) // for a look by eye
        d.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/column-mapping.png"));

    // JSON lines: the keys of the first object, in file order, with the unit the guess implies.
    rl::ColumnMappingDialog j(logFile("metrics.jsonl"));
    EXPECT_EQ(j.columns(), (QStringList{QStringLiteral("step"), QStringLiteral("loss"), QStringLiteral("step_time_ms"),
                                        QStringLiteral("tps"), QStringLiteral("mfu")}));
    EXPECT_EQ(j.mapping().step, "step");
    EXPECT_EQ(j.mapping().stepTime, "step_time_ms");
    EXPECT_EQ(j.findChild<QComboBox*>(QStringLiteral("stepTimeUnit"))->currentText(), QStringLiteral("ms"));
    EXPECT_TRUE(importEnabled(j));

    // A file without a header says so and cannot be accepted.
    rl::ColumnMappingDialog empty(logFile("empty.log"));
    EXPECT_TRUE(empty.columns().isEmpty());
    EXPECT_FALSE(empty.problem().isEmpty());
    EXPECT_FALSE(importEnabled(empty));
}

TEST(GuiColumnMapping, ImportsWithTheChosenMappingAndConvertsUnits)
{
    rl::test::TempDir dir;
    const QString ws = dir.filePath(QStringLiteral("ws.db"));
    qputenv("RIDGELINE_NO_DIALOGS", "1");
    rl::Settings settings{dir.filePath(QStringLiteral("settings.ini"))};
    rl::MainWindow window{&settings};
    QSignalSpy shown(&window, &rl::MainWindow::sessionsShown);
    window.openWorkspace(ws);
    ASSERT_TRUE(shown.wait(15000));
    const QString file = logFile("custom_logger_odd_columns.csv");

    // Without a mapping the file is not recognised at all.
    QSignalSpy imported(&window, &rl::MainWindow::importDone);
    window.importPaths({file});
    ASSERT_TRUE(imported.wait(30000));
    EXPECT_EQ(imported.takeFirst().at(0).value<rl::ImportReport>().imported, 0);

    rl::ColumnMappingDialog d(file);
    combo(d, "step")->setCurrentText(QStringLiteral("it"));
    combo(d, "stepTime")->setCurrentText(QStringLiteral("iter time (s)"));
    d.findChild<QComboBox*>(QStringLiteral("stepTimeUnit"))->setCurrentText(QStringLiteral("s"));
    combo(d, "tokensPerSec")->setCurrentText(QStringLiteral("tok/s"));
    combo(d, "wallTime")->setCurrentText(QStringLiteral("elapsed (s)"));
    d.findChild<QCheckBox*>(QStringLiteral("mfuPercent"))->setChecked(true);
    combo(d, "gradNorm")->setCurrentIndex(0); // "(none)": left out
    ASSERT_TRUE(importEnabled(d));
    window.importWithColumnMapping(file, d.mapping());
    ASSERT_TRUE(imported.wait(30000));
    const auto report = imported.takeFirst().at(0).value<rl::ImportReport>();
    ASSERT_EQ(report.imported, 1) << report.errors.join(u'\n').toStdString();
    ASSERT_EQ(report.newSessionIds.size(), 1u);

    rl::store::Workspace store(ws.toStdString());
    const auto session = store.session(report.newSessionIds[0]);
    ASSERT_TRUE(session);
    EXPECT_EQ(session->kind, rl::kind::TrainingLog);
    EXPECT_EQ(session->params["columns"]["step"], "it");
    const auto steps = rl::store::trainSteps(store.database(), session->id);
    ASSERT_EQ(steps.size(), 6u);
    EXPECT_EQ(steps[0].step, 10);
    EXPECT_EQ(steps[5].step, 60);
    EXPECT_DOUBLE_EQ(steps[0].loss, 9.8713);
    EXPECT_NEAR(steps[0].stepTimeMs, 1482, 1e-9); // seconds -> ms
    EXPECT_NEAR(steps[4].stepTimeMs, 1530, 1e-9);
    EXPECT_DOUBLE_EQ(steps[0].tokensPerSec, 22113);
    EXPECT_NEAR(steps[1].mfu, 0.391, 1e-12); // percent -> fraction
    // Wall time is stored from the log's first row (trace/trainloganalysis.h): 44.0 s - 14.9 s.
    EXPECT_DOUBLE_EQ(steps[0].wallTimeS, 0);
    EXPECT_NEAR(steps[2].wallTimeS, 29.1, 1e-9);
    EXPECT_DOUBLE_EQ(steps[0].learningRate, 3.0e-05);
    EXPECT_TRUE(std::isnan(steps[0].gradNorm));
    EXPECT_TRUE(std::isnan(steps[0].tflopsPerGpu));
}
