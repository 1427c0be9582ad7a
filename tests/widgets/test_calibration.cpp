// The Calibration picker and the model validation view on real data: sample files imported into a
// real workspace by the importer the GUI and CLI use, real widgets rendered offscreen, and the
// numbers checked against ridgeline-cli's own output for the same inputs.
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QFont>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QSignalSpy>
#include <QSpinBox>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>

#include "calibrationpicker.h"
#include "gui/sizing/configeditor.h"
#include "gui/sizing/moeexplorer.h"
#include "store/fileimport.h"
#include "store/workspace.h"
#include "tempdir.h"
#include "test_gui_env.h"
#include "units/units.h"
#include "validationchart.h"
#include "gui/sizing/validationview.h"
#include "resulttableview.h"

namespace {
// A workspace holding the bundled 8xH100 and 16xH100 nccl-tests runs, a GEMM table without
// efficiencies, and a training log (listed by neither picker list).
struct Workspace
{
    rl::test::TempDir dir;
    QString path = dir.filePath(QStringLiteral("ws.db"));
    std::vector<std::int64_t> node8; // one session per op of the 8xH100 file
    std::int64_t node16 = 0, gemm = 0, log = 0;
    std::int64_t rs8 = 0;            // its reduce_scatter session
    std::string rs8Title;

    Workspace()
    {
        rl::store::Workspace ws(path.toStdString());
        const auto import = [&ws](const std::string& file) {
            const auto out = rl::store::importIntoWorkspace(ws, file);
            EXPECT_TRUE(out.ok) << file << ": " << out.error;
            return out.sessionIds;
        };
        node8 = import(RIDGELINE_SAMPLE_DATA "/nccl-tests_8xH100_all_collectives.txt");
        node16 = import(RIDGELINE_SAMPLE_DATA "/nccl-tests_2node_16xH100_all_reduce.txt").at(0);
        log = import(RIDGELINE_SAMPLE_DATA "/megatron-lm_gpt-8b_16xH100_pretrain.log").at(0);
        gemm = import(RIDGELINE_TEST_DATA "/kernels/gemm-generic.csv").at(0);
        for (const auto id : node8)
            if (const auto s = ws.session(id); s && s->title.rfind("reduce_scatter", 0) == 0)
                rs8 = id, rs8Title = s->title;
        EXPECT_NE(rs8, 0);
    }
};

nlohmann::json cli(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(RIDGELINE_CLI_BIN), args);
    if (!p.waitForFinished(120000) || p.exitCode() != 0) {
        ADD_FAILURE() << "ridgeline-cli " << args.join(u' ').toStdString() << ": "
                      << p.readAllStandardError().toStdString();
        return {};
    }
    return nlohmann::json::parse(p.readAllStandardOutput().toStdString(), nullptr, false);
}

// For a look by eye: RIDGELINE_TEST_SCREENSHOT_DIR=/tmp saves the widget as it is drawn.
void saveShot(QWidget* w, const char* name)
{
    if (const QByteArray dir = qgetenv("RIDGELINE_TEST_SCREENSHOT_DIR"); !dir.isEmpty())
        w->window()->grab().save(QString::fromLocal8Bit(dir) + u'/' + QString::fromLatin1(name));
}
} // namespace

TEST(CalibrationPicker, ListsTheWorkspacesCollectiveAndGemmSessionsOnly)
{
    Workspace w;
    rl::CalibrationPicker picker;
    picker.show();
    QSignalSpy loaded(&picker, &rl::CalibrationPicker::sessionsLoaded);
    picker.setWorkspace(w.path);
    ASSERT_TRUE(loaded.wait(15000));
    EXPECT_EQ(loaded.front().at(0).toInt(), 6);
    EXPECT_EQ(loaded.front().at(1).toInt(), 1);

    auto* list = picker.findChild<QListWidget*>(QStringLiteral("calibrationCollectives"));
    ASSERT_TRUE(list);
    std::set<qint64> listed;
    for (int i = 0; i < list->count(); ++i) {
        listed.insert(list->item(i)->data(Qt::UserRole).toLongLong());
        EXPECT_TRUE(list->item(i)->flags() & Qt::ItemIsUserCheckable);
    }
    std::set<qint64> expected(w.node8.begin(), w.node8.end());
    expected.insert(w.node16);
    EXPECT_EQ(listed, expected); // the training log and GEMM table are not collectives
    auto* gemm = picker.findChild<QComboBox*>(QStringLiteral("calibrationGemm"));
    ASSERT_EQ(gemm->count(), 2);
    EXPECT_EQ(gemm->itemData(1).toLongLong(), w.gemm);

    // Nothing chosen: every figure from the datasheet or a stated default.
    EXPECT_EQ(picker.basisText(QStringLiteral("collectives")), QStringLiteral("datasheet"));
    EXPECT_EQ(picker.basisText(QStringLiteral("GEMM efficiency")), QStringLiteral("default"));

    // Both tiers checked: one basis line per session, each naming it.
    QSignalSpy changed(&picker, &rl::CalibrationPicker::calibrationChanged);
    picker.setCollectiveSessions({w.rs8, w.node16});
    ASSERT_TRUE(changed.wait(15000));
    const QString bases = picker.basisText(QStringLiteral("collectives"));
    EXPECT_TRUE(bases.contains(QStringLiteral("session %1 (").arg(w.rs8))) << bases.toStdString();
    EXPECT_TRUE(bases.contains(QStringLiteral("session %1 (").arg(w.node16))) << bases.toStdString();
    // In the basis table a measured session stands out (bold) from the datasheet and default rows.
    const auto* shown =
        picker.findChild<rl::charts::ResultTableView*>(QStringLiteral("calibrationBasis"))->resultModel();
    int measured = 0;
    for (int row = 0; row < shown->rowCount(); ++row) {
        const QModelIndex basis = shown->index(row, 1);
        const bool session = basis.data().toString().startsWith(QStringLiteral("session "));
        EXPECT_EQ(basis.data(Qt::FontRole).value<QFont>().bold(), session) << basis.data().toString().toStdString();
        EXPECT_TRUE(basis.data(Qt::ToolTipRole).toString().startsWith(shown->index(row, 0).data().toString() + u':'));
        measured += session ? 1 : 0;
    }
    EXPECT_EQ(measured, 2);
    ASSERT_TRUE(picker.calibration()->collectives());
    EXPECT_EQ(picker.calibration()->collectives()->fitCount(), 2u); // reduce_scatter over 8, all_reduce over 16

    // A GEMM table without efficiencies cannot time GEMMs: said, and nothing measured is used.
    changed.clear();
    picker.setGemmSession(w.gemm);
    ASSERT_TRUE(changed.wait(15000));
    EXPECT_TRUE(picker.problem().contains(QStringLiteral("no GEMM points with an efficiency"))) << picker.problem().toStdString();
    EXPECT_EQ(picker.basisText(QStringLiteral("GEMM efficiency")), QStringLiteral("default"));
    EXPECT_FALSE(picker.calibration()->collectives());
}

TEST(CalibrationPicker, ConfigEditorStepUsesTheChosenSessionAsTheCliDoes)
{
    Workspace w;
    rl::ConfigEditor editor;
    editor.resize(1200, 900);
    editor.show();
    auto* picker = editor.calibrationPicker();
    QSignalSpy loaded(picker, &rl::CalibrationPicker::sessionsLoaded);
    editor.setWorkspace(w.path);
    ASSERT_TRUE(loaded.wait(15000));
    editor.setHardware(QStringLiteral("h100-sxm"));
    editor.setParallel(QStringLiteral("dp=8"));
    ASSERT_TRUE(rl::testing::waitFor([&] { return editor.report().has_value() && !editor.resultText(QStringLiteral("Collectives timed by")).isEmpty(); }))
        << editor.problem().toStdString();
    const double datasheetStep = editor.report()->step.stepSeconds;
    EXPECT_TRUE(editor.resultText(QStringLiteral("Collectives timed by")).startsWith(QStringLiteral("datasheet:")))
        << editor.resultText(QStringLiteral("Collectives timed by")).toStdString();

    // The assembly lands in the background; the editor then recomputes once more.
    const auto recomputedWithSessions = [&] {
        return !picker->isAssembling() &&
               editor.resultText(QStringLiteral("Collectives timed by")).startsWith(QStringLiteral("session"));
    };
    picker->setCollectiveSessions({w.rs8});
    ASSERT_TRUE(rl::testing::waitFor(recomputedWithSessions)) << editor.resultText(QStringLiteral("Collectives timed by")).toStdString();
    ASSERT_TRUE(editor.report().has_value()) << editor.problem().toStdString();
    // The measured reduce_scatter names its session; the all_gather nobody measured stays on the datasheet.
    const QString label = QStringLiteral("session %1 (%2)").arg(w.rs8).arg(QString::fromStdString(w.rs8Title));
    const QString basis = editor.resultText(QStringLiteral("Collectives timed by"));
    EXPECT_EQ(basis, label + QStringLiteral(": dp grad reduce_scatter; datasheet: dp param all_gather"));
    EXPECT_TRUE(picker->basisText(QStringLiteral("collectives")).startsWith(label));
    const auto& step = editor.report()->step;
    EXPECT_NE(step.stepSeconds, datasheetStep); // the measured 8-GPU fits time the data-parallel collectives

    // ridgeline-cli size with the same session: the same step and the same basis per collective.
    const auto j = cli({QStringLiteral("--db"), w.path, QStringLiteral("--json"), QStringLiteral("size"),
                        QStringLiteral("llama-3-8b"), QStringLiteral("--hardware"), QStringLiteral("h100-sxm"),
                        QStringLiteral("--parallel"), QStringLiteral("dp=8"), QStringLiteral("--seq"),
                        QString::number(editor.config().seqLen), QStringLiteral("--collectives"),
                        QString::number(w.rs8)});
    ASSERT_TRUE(j.is_object());
    EXPECT_NEAR(j["step"]["step_s"].get<double>(), step.stepSeconds, 1e-9 * step.stepSeconds);
    EXPECT_NEAR(j["step"]["comm_s"].get<double>(), step.commSeconds, 1e-9 * std::max(step.commSeconds, 1e-9));
    ASSERT_EQ(j["step"]["comm"].size(), std::size_t(step.commCount));
    int measured = 0;
    for (int i = 0; i < step.commCount; ++i) {
        const auto& c = j["step"]["comm"][std::size_t(i)];
        EXPECT_NEAR(c["time_us"].get<double>(), step.comm[std::size_t(i)].timeUs, 1e-9 * step.comm[std::size_t(i)].timeUs);
        if (c["measured"].get<bool>()) {
            ++measured;
            EXPECT_EQ(c["basis"].get<std::string>(), label.toStdString());
        }
    }
    EXPECT_EQ(measured, 1);
    saveShot(&editor, "calibration-config-editor.png");
    // Every 8-GPU session checked: the step --calibrate computes over the whole workspace (the
    // 16-GPU run covers no 8-GPU collective).
    QList<qint64> all8(w.node8.begin(), w.node8.end());
    picker->setCollectiveSessions(all8);
    ASSERT_TRUE(rl::testing::waitFor([&] {
        return !picker->isAssembling() &&
               !editor.resultText(QStringLiteral("Collectives timed by")).contains(QStringLiteral("datasheet"));
    }));
    const auto all = cli({QStringLiteral("--db"), w.path, QStringLiteral("--json"), QStringLiteral("size"),
                          QStringLiteral("llama-3-8b"), QStringLiteral("--hardware"), QStringLiteral("h100-sxm"),
                          QStringLiteral("--parallel"), QStringLiteral("dp=8"), QStringLiteral("--seq"),
                          QString::number(editor.config().seqLen), QStringLiteral("--calibrate")});
    EXPECT_NEAR(all["step"]["step_s"].get<double>(), editor.report()->step.stepSeconds,
                1e-9 * editor.report()->step.stepSeconds);

    // The attention kernel: FA2's measured rates time the attention, as --attention fa2 does.
    EXPECT_EQ(picker->basisText(QStringLiteral("attention")), QStringLiteral("default"));
    const double byShape = editor.report()->step.stepSeconds;
    picker->setAttentionKernel(QStringLiteral("fa2"));
    ASSERT_TRUE(rl::testing::waitFor([&] { return editor.report() && editor.report()->step.stepSeconds != byShape; }));
    EXPECT_EQ(picker->attentionKernel(), QStringLiteral("fa2"));
    EXPECT_EQ(picker->basisText(QStringLiteral("attention")), QStringLiteral("published measurement"));
    EXPECT_EQ(editor.resultText(QStringLiteral("Attention timed by")), QStringLiteral("fa2, measured at head dim 128"));
    bool cited = false; // the citation is the cell's tooltip
    for (auto* table : editor.findChildren<rl::charts::ResultTableView*>()) {
        const auto* model = table->resultModel();
        for (int row = 0; row < model->rowCount(); ++row)
            for (int col = 0; col < model->columnCount(); ++col) {
                const QModelIndex cell = model->index(row, col);
                if (cell.data().toString() == QStringLiteral("fa2, measured at head dim 128"))
                    cited = cited || cell.data(Qt::ToolTipRole).toString().contains(QStringLiteral("FlashAttention-3"));
            }
    }
    EXPECT_TRUE(cited);
    const auto fa2 = cli({QStringLiteral("--db"), w.path, QStringLiteral("--json"), QStringLiteral("size"),
                          QStringLiteral("llama-3-8b"), QStringLiteral("--hardware"), QStringLiteral("h100-sxm"),
                          QStringLiteral("--parallel"), QStringLiteral("dp=8"), QStringLiteral("--seq"),
                          QString::number(editor.config().seqLen), QStringLiteral("--calibrate"),
                          QStringLiteral("--attention"), QStringLiteral("fa2")});
    EXPECT_NEAR(fa2["step"]["step_s"].get<double>(), editor.report()->step.stepSeconds,
                1e-9 * editor.report()->step.stepSeconds);
    saveShot(&editor, "calibration-attention-fa2.png");
    // A profile without measured kernels offers only the shape estimate.
    auto* kernels = picker->findChild<QComboBox*>(QStringLiteral("calibrationAttention"));
    ASSERT_NE(kernels, nullptr);
    EXPECT_EQ(kernels->count(), 5); // by shape, cudnn, fa2, fa3, triton
    editor.setHardware(QStringLiteral("mi300x"));
    EXPECT_EQ(kernels->count(), 1);
    EXPECT_FALSE(kernels->isEnabled());
    EXPECT_EQ(picker->attentionKernel(), QString());
}

// A measured run (the sample Megatron log: GPT-8B shape on 16 H100s, tp 8 x dp 2) calibrates the
// editor's step as ridgeline-cli size --calibrate-from does; another model's run is refused, saying why.
TEST(CalibrationPicker, AMeasuredRunCalibratesTheStepAsTheCliDoes)
{
    Workspace w;
    rl::ConfigEditor editor;
    editor.resize(1200, 900);
    editor.show();
    auto* picker = editor.calibrationPicker();
    QSignalSpy loaded(picker, &rl::CalibrationPicker::sessionsLoaded);
    editor.setWorkspace(w.path);
    ASSERT_TRUE(loaded.wait(15000));
    auto* runs = picker->findChild<QComboBox*>(QStringLiteral("calibrationRun"));
    ASSERT_TRUE(runs);
    EXPECT_TRUE(runs->isVisibleTo(&editor)); // the editor applies it; a picker whose host does not hides it
    rl::CalibrationPicker plain;
    EXPECT_FALSE(plain.findChild<QComboBox*>(QStringLiteral("calibrationRun"))->isVisibleTo(&plain));
    ASSERT_EQ(runs->count(), 2); // none, and the training log (collectives and GEMMs are not runs)
    EXPECT_EQ(runs->itemData(1).toLongLong(), w.log);
    editor.setHardware(QStringLiteral("h100-sxm"));
    editor.setParallel(QStringLiteral("dp=16"));
    ASSERT_TRUE(rl::testing::waitFor([&] { return editor.report().has_value(); })) << editor.problem().toStdString();

    picker->setRunSession(w.log);
    ASSERT_TRUE(rl::testing::waitFor([&] {
        return !picker->isAssembling() && !editor.resultText(QStringLiteral("  calibrated from")).isEmpty();
    })) << editor.resultText(QStringLiteral("  calibration from a run")).toStdString();
    ASSERT_TRUE(editor.report().has_value());
    const double calibrated = editor.report()->step.stepSeconds;
    EXPECT_TRUE(editor.resultText(QStringLiteral("  calibrated from")).startsWith(QStringLiteral("session %1 (").arg(w.log)));
    EXPECT_TRUE(editor.resultText(QStringLiteral("  rates moved")).contains(QStringLiteral("compute and bubble x")));
    saveShot(&editor, "calibrated-from-run.png");

    const auto j = cli({QStringLiteral("--db"), w.path, QStringLiteral("--json"), QStringLiteral("size"),
                        QStringLiteral("llama-3-8b"), QStringLiteral("--hardware"), QStringLiteral("h100-sxm"),
                        QStringLiteral("--parallel"), QStringLiteral("dp=16"), QStringLiteral("--seq"),
                        QString::number(editor.config().seqLen), QStringLiteral("--calibrate-from"),
                        QString::number(w.log)});
    ASSERT_TRUE(j.is_object());
    EXPECT_NEAR(j["step"]["step_s"].get<double>(), calibrated, 1e-9 * calibrated);
    const double uncalibrated = j["run_calibration"]["uncalibrated_step_s"].get<double>();
    EXPECT_NE(calibrated, uncalibrated);
    EXPECT_EQ(editor.resultText(QStringLiteral("  uncalibrated step")),
              QString::fromStdString(rl::units::formatTime(uncalibrated * 1e6)));

    // Another model (40 layers): the run is not used, and the row says why.
    editor.findChild<QSpinBox*>(QStringLiteral("layers"))->setValue(40);
    ASSERT_TRUE(rl::testing::waitFor([&] {
        return editor.resultText(QStringLiteral("  calibration from a run")).contains(QStringLiteral("another model"));
    }));
    EXPECT_TRUE(editor.resultText(QStringLiteral("  calibrated from")).isEmpty());
}

TEST(CalibrationPicker, MoeExplorerSweepStatesTheCalibrationItWasTimedWith)
{
    Workspace w;
    rl::MoeExplorer explorer;
    explorer.resize(1200, 850);
    explorer.show();
    auto* picker = explorer.calibrationPicker();
    QSignalSpy loaded(picker, &rl::CalibrationPicker::sessionsLoaded);
    explorer.setWorkspace(w.path);
    ASSERT_TRUE(loaded.wait(15000));
    picker->setHardware(QStringLiteral("h100-sxm"));
    explorer.findChild<QLineEdit*>(QStringLiteral("moeExperts"))->setText(QStringLiteral("8,16"));
    explorer.findChild<QLineEdit*>(QStringLiteral("moeTopK"))->setText(QStringLiteral("2"));
    QSignalSpy finished(&explorer, &rl::MoeExplorer::sweepFinished);
    explorer.runSweep();
    ASSERT_TRUE(finished.wait(30000));
    EXPECT_TRUE(explorer.statusText().contains(QStringLiteral("collectives: datasheet"))) << explorer.statusText().toStdString();
    const double before = explorer.result().rows.front().tokensPerSecond;

    // Choosing the 8-GPU session re-runs the shown sweep under it.
    finished.clear();
    picker->setCollectiveSessions(QList<qint64>(w.node8.begin(), w.node8.end()));
    ASSERT_TRUE(finished.wait(30000));
    QStringList ids;
    for (const auto id : w.node8)
        ids << QString::number(id); // fitted oldest first
    EXPECT_TRUE(explorer.statusText().contains(QStringLiteral("collectives: sessions %1 (measured)").arg(ids.join(QStringLiteral(", ")))))
        << explorer.statusText().toStdString();
    EXPECT_NE(explorer.result().rows.front().tokensPerSecond, before);
    saveShot(&explorer, "calibration-moe-explorer.png");

    // The attention kernel the picker names times the sweep's attention too, and the status says so.
    const double byShape = explorer.result().rows.front().tokensPerSecond;
    finished.clear();
    picker->setAttentionKernel(QStringLiteral("fa2"));
    ASSERT_TRUE(finished.wait(30000));
    EXPECT_TRUE(explorer.statusText().contains(QStringLiteral("attention: fa2 (published measurement)")))
        << explorer.statusText().toStdString();
    EXPECT_NE(explorer.result().rows.front().tokensPerSecond, byShape);
}

TEST(ValidationView, MedianAndMaxAreTheClisAndTheChartHasAPointPerPredictedRun)
{
    rl::ValidationView view;
    view.resize(1200, 900);
    view.show();
    QSignalSpy done(&view, &rl::ValidationView::validationFinished);
    view.run();
    ASSERT_TRUE(done.wait(60000));
    const auto& s = view.summary();
    ASSERT_FALSE(s.rows.empty());

    const auto j = cli({QStringLiteral("--json"), QStringLiteral("validate")});
    ASSERT_TRUE(j.is_object());
    EXPECT_DOUBLE_EQ(s.medianAbsError, j["median_abs_error"].get<double>());
    EXPECT_DOUBLE_EQ(s.maxAbsError, j["max_abs_error"].get<double>());
    EXPECT_EQ(s.refused, j["refused"].get<int>());
    ASSERT_EQ(s.rows.size(), j["rows"].size());
    // The summary line shows the same numbers, rounded as printed.
    EXPECT_TRUE(view.summaryText().contains(QString::number(s.medianAbsError * 100, 'f', 1) + QStringLiteral(" %")));
    EXPECT_TRUE(view.summaryText().contains(QString::number(s.maxAbsError * 100, 'f', 1) + QStringLiteral(" %")));

    const auto* table = view.table()->resultModel();
    EXPECT_EQ(table->rowCount(), int(s.rows.size()));
    int predicted = 0;
    for (std::size_t i = 0; i < s.rows.size(); ++i) {
        if (s.rows[i].refused)
            continue;
        ++predicted;
        // Each row's error is the CLI's error for the same run.
        EXPECT_EQ(j["rows"][i]["id"].get<std::string>(), s.rows[i].run.id);
        EXPECT_DOUBLE_EQ(table->index(int(i), rl::ValidationView::ErrorColumn).data(rl::charts::ResultTableModel::ValueRole).toDouble(),
                         j["rows"][i]["error"].get<double>());
        // The predicted cell says how its attention was timed, as validate --json does.
        EXPECT_TRUE(table->index(int(i), rl::ValidationView::PredictedColumn).data(Qt::ToolTipRole).toString().contains(
            QString::fromStdString(j["rows"][i]["attention"].get<std::string>())));
    }
    EXPECT_EQ(view.chart()->pointCount(), predicted);
    saveShot(&view, "validation-view.png");

    // The table copies with its header; the CSV export has a line per row.
    EXPECT_TRUE(view.tableText().startsWith(QStringLiteral("Run\tSource\t")));
    EXPECT_EQ(view.tableText().count(u'\n'), int(s.rows.size()) + 1);
    rl::test::TempDir dir;
    const QString csv = dir.filePath(QStringLiteral("validation.csv"));
    ASSERT_EQ(view.exportTo(csv), QString());
    QFile f(csv);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    EXPECT_TRUE(text.startsWith(QStringLiteral("run,source,hardware,gpus,measured_step_s,predicted_step_s,error")));
    EXPECT_TRUE(text.contains(QString::fromStdString(s.rows.front().run.id)));
    const QString png = dir.filePath(QStringLiteral("validation.png"));
    ASSERT_EQ(view.exportTo(png), QString()); // the same export writes the chart by suffix
    EXPECT_GT(QFileInfo(png).size(), 10000);
}
