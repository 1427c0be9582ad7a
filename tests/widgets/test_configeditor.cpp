// The config editor recomputes on every edit with the same numbers as the sizing model, names the
// rule findings, explains an invalid layout instead of showing stale figures, and the MoE explorer
// hands a clicked configuration to it.
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStyle>
#include <QScrollBar>
#include <QWheelEvent>

#include "calibrationpicker.h"
#include "gui/sizing/configeditor.h"
#include "model/modelcounts.h"
#include "resulttableview.h"
#include "gui/sizing/sizingwindow.h"
#include "tempdir.h"
#include "test_gui_env.h"
#include "units/units.h"
#include "units/memory.h"

using rl::ConfigEditor;

TEST(ConfigEditor, ShowsThePresetsParameterCountAndAStepEstimate)
{
    ConfigEditor editor;
    editor.loadConfig(rl::model::loadPreset("llama-3-8b"));
    ASSERT_TRUE(rl::testing::waitFor([&] { return editor.report().has_value(); }, 5000)) << editor.problem().toStdString();
    EXPECT_EQ(editor.report()->params.total(), 8'030'261'248.0);
    EXPECT_EQ(editor.resultText(QStringLiteral("Total parameters")),
              QString::fromStdString(rl::units::formatCount(8'030'261'248.0)));
    EXPECT_GT(editor.report()->step.stepSeconds, 0);
    EXPECT_TRUE(editor.resultText(QStringLiteral("MFU")).endsWith(QStringLiteral(" %")));
    EXPECT_TRUE(editor.resultText(QStringLiteral("Training throughput")).contains(QStringLiteral("tokens/s")));
    EXPECT_GT(editor.findChild<rl::charts::ResultTableView*>(QStringLiteral("findings"))->model()->rowCount(), 0);
    // The figure behind the text: what the model's value role sorts and copies by.
    const auto* results = editor.findChild<rl::charts::ResultTableView*>(QStringLiteral("results"))->resultModel();
    ASSERT_EQ(results->index(0, 0).data().toString(), QStringLiteral("Total parameters"));
    EXPECT_EQ(results->index(0, 1).data(rl::charts::ResultTableModel::ValueRole).toDouble(), 8'030'261'248.0);
}

TEST(ConfigEditor, AnEditRecomputesAndABadWidthIsFlaggedByTheRules)
{
    ConfigEditor editor;
    editor.loadConfig(rl::model::loadPreset("llama-3-8b"));
    ASSERT_TRUE(rl::testing::waitFor([&] { return editor.report().has_value(); }, 5000));
    const double before = editor.report()->params.total();
    const int warningsBefore = editor.findingCount(rl::model::RuleSeverity::Warning);
    QSignalSpy changed(&editor, &ConfigEditor::reportChanged);
    auto* width = editor.findChild<QSpinBox*>(QStringLiteral("mlpWidth"));
    ASSERT_TRUE(width);
    width->setValue(14337); // 14336 - 1: odd, off every GEMM tile
    ASSERT_TRUE(rl::testing::waitFor([&] { return !changed.isEmpty(); }, 5000));
    ASSERT_TRUE(editor.report());
    // One column more in gate, up and down of every layer: 3 x d_model x layers parameters more.
    EXPECT_DOUBLE_EQ(editor.report()->params.total(), before + 3.0 * 4096 * 32);
    EXPECT_GT(editor.findingCount(rl::model::RuleSeverity::Warning), warningsBefore);
}

TEST(ConfigEditor, FastWidthsAreNearTheCurrentWidthBestFirst)
{
    ConfigEditor editor;
    editor.loadConfig(rl::model::loadPreset("llama-3-8b"));
    const auto found = editor.fastWidths();
    ASSERT_FALSE(found.empty());
    for (std::size_t i = 0; i < found.size(); ++i) {
        EXPECT_EQ(found[i].width % 64, 0);
        EXPECT_LE(std::abs(found[i].width - 14336), 512);
        if (i > 0) {
            EXPECT_LE(found[i].efficiency, found[i - 1].efficiency);
        }
    }
    editor.loadConfig(rl::model::loadPreset("mixtral-8x7b")); // MoE: the expert width is searched
    const auto experts = editor.fastWidths();
    ASSERT_FALSE(experts.empty());
    EXPECT_LE(std::abs(experts[0].width - rl::model::loadPreset("mixtral-8x7b").moe.expertWidth), 512);
}

TEST(ConfigEditor, AnImpossibleLayoutIsExplainedAndNoStaleFiguresRemain)
{
    ConfigEditor editor;
    editor.loadConfig(rl::model::loadPreset("llama-3-8b"));
    ASSERT_TRUE(rl::testing::waitFor([&] { return editor.report().has_value(); }, 5000));
    editor.setParallel(QStringLiteral("dp=8,pp=40")); // 32 layers cannot fill 40 stages (uneven splits are fine)
    ASSERT_TRUE(rl::testing::waitFor([&] { return !editor.report().has_value(); }, 5000));
    EXPECT_TRUE(editor.problem().contains(QStringLiteral("pp=40"))) << editor.problem().toStdString();
    EXPECT_EQ(editor.resultText(QStringLiteral("Total parameters")), QString());
}

TEST(ConfigEditor, SavedConfigurationsLiveInTheWorkspace)
{
    rl::test::TempDir dir;
    const QString ws = dir.filePath(QStringLiteral("w.db"));
    ConfigEditor editor;
    editor.setWorkspace(ws);
    editor.loadConfig(rl::model::loadPreset("llama-3-8b"));
    editor.findChild<QSpinBox*>(QStringLiteral("layers"))->setValue(40);
    QSignalSpy saved(&editor, &ConfigEditor::configSaved);
    editor.saveToWorkspace(QStringLiteral("candidate-a"));
    ASSERT_TRUE(saved.wait(10000));
    EXPECT_EQ(saved.first().at(1).toString(), QString());

    ConfigEditor other; // another editor on the same workspace offers it and loads it
    QSignalSpy listed(&other, &ConfigEditor::savedConfigsLoaded);
    other.setWorkspace(ws);
    ASSERT_TRUE(listed.wait(10000));
    EXPECT_TRUE(listed.first().first().toStringList().contains(QStringLiteral("candidate-a")));
    auto* preset = other.findChild<QComboBox*>(QStringLiteral("preset"));
    preset->setCurrentIndex(preset->findText(QStringLiteral("candidate-a")));
    EXPECT_EQ(other.config().layers, 40);
    ASSERT_TRUE(rl::testing::waitFor([&] { return other.report().has_value(); }, 5000));
}

namespace {
// Sets one recipe control and waits for the estimate it gives.
template <typename Change>
rl::model::StepEstimate stepAfter(ConfigEditor& editor, Change change)
{
    QSignalSpy changed(&editor, &ConfigEditor::reportChanged);
    change();
    EXPECT_TRUE(rl::testing::waitFor([&] { return !changed.isEmpty(); }, 5000));
    EXPECT_TRUE(editor.report().has_value()) << editor.problem().toStdString();
    return editor.report() ? editor.report()->step : rl::model::StepEstimate{};
}
} // namespace

// The recipe ridgeline-cli size takes as --dtype, --micro-batches, --recompute, --sp and
// --ep-overlap is in the editor too, and each control moves the estimate the way the model says.
TEST(ConfigEditor, TrainingRecipeControlsReachTheEstimate)
{
    ConfigEditor editor;
    editor.setHardware(QStringLiteral("h100-sxm"));
    editor.loadConfig(rl::model::loadPreset("llama-3-8b"));
    editor.setParallel(QStringLiteral("dp=4,tp=2"));
    ASSERT_TRUE(rl::testing::waitFor([&] { return editor.report().has_value(); }, 5000)) << editor.problem().toStdString();
    const auto base = editor.report()->step;

    auto* dtype = editor.findChild<QComboBox*>(QStringLiteral("dtype"));
    ASSERT_TRUE(dtype);
    const auto fp8 = stepAfter(editor, [&] { dtype->setCurrentText(QStringLiteral("fp8")); });
    EXPECT_LT(fp8.gemmSeconds, base.gemmSeconds);
    // The cap is the profile's FP8 max-achievable rate (1402.6 TFLOP/s), not BF16's.
    EXPECT_TRUE(editor.resultText(QStringLiteral("Max achievable (GEMM cap)"))
                    .startsWith(QString::fromStdString(rl::units::formatFlops(1402.6e12))))
        << editor.resultText(QStringLiteral("Max achievable (GEMM cap)")).toStdString();
    // The picker's figure sources follow the dtype.
    EXPECT_EQ(editor.calibrationPicker()->basisText(QStringLiteral("peak TFLOP/s (fp8)")), QStringLiteral("datasheet"));
    // A device without FP8 tensor cores says so instead of showing figures.
    QSignalSpy changed(&editor, &ConfigEditor::reportChanged);
    editor.setHardware(QStringLiteral("a100-80gb"));
    ASSERT_TRUE(rl::testing::waitFor([&] { return !changed.isEmpty() && !editor.report().has_value(); }, 5000));
    EXPECT_TRUE(editor.problem().contains(QStringLiteral("fp8"))) << editor.problem().toStdString();
    EXPECT_TRUE(editor.calibrationPicker()->problem().contains(QStringLiteral("fp8")));
    editor.setHardware(QStringLiteral("h100-sxm"));
    stepAfter(editor, [&] { dtype->setCurrentText(QStringLiteral("bf16")); });
    EXPECT_TRUE(editor.calibrationPicker()->problem().isEmpty()) << editor.calibrationPicker()->problem().toStdString();

    auto* recompute = editor.findChild<QComboBox*>(QStringLiteral("recompute"));
    ASSERT_TRUE(recompute);
    EXPECT_EQ(base.recomputeSeconds, 0);
    const auto full = stepAfter(editor, [&] { recompute->setCurrentText(QStringLiteral("full")); });
    EXPECT_GT(full.recomputeSeconds, 0);
    EXPECT_LT(full.memory.activations, base.memory.activations);
    stepAfter(editor, [&] { recompute->setCurrentText(QStringLiteral("none")); });

    auto* sp = editor.findChild<QCheckBox*>(QStringLiteral("sequenceParallel"));
    ASSERT_TRUE(sp);
    const auto withSp = stepAfter(editor, [&] { sp->setChecked(true); });
    EXPECT_LT(withSp.memory.activations, base.memory.activations); // norms and residuals split over TP
    stepAfter(editor, [&] { sp->setChecked(false); });

    auto* microBatches = editor.findChild<QSpinBox*>(QStringLiteral("microBatches"));
    ASSERT_TRUE(microBatches);
    EXPECT_EQ(microBatches->text(), QStringLiteral("auto"));
    const auto sixteen = stepAfter(editor, [&] { microBatches->setValue(16); });
    EXPECT_NEAR(sixteen.computeSeconds / base.computeSeconds, 16.0, 0.5); // one micro-batch by default

    // A MoE whose expert all_to_all crosses nodes: overlapping it with another micro-batch hides some.
    editor.loadConfig(rl::model::loadPreset("qwen3-30b-a3b")); // 128 experts over 16 GPUs on two nodes
    editor.setParallel(QStringLiteral("dp=16,ep=16"));
    const auto exposed = stepAfter(editor, [&] { microBatches->setValue(8); });
    auto* epOverlap = editor.findChild<QCheckBox*>(QStringLiteral("epOverlap"));
    ASSERT_TRUE(epOverlap);
    const auto hidden = stepAfter(editor, [&] { epOverlap->setChecked(true); });
    EXPECT_LT(hidden.exposedCommSeconds, exposed.exposedCommSeconds);
    EXPECT_EQ(hidden.computeSeconds, exposed.computeSeconds);
    // DeepEP / HybridEP send a token across once: less crosses the nodes.
    auto* flex = editor.findChild<QCheckBox*>(QStringLiteral("flexDispatch"));
    ASSERT_TRUE(flex);
    epOverlap->setChecked(false);
    const auto deduplicated = stepAfter(editor, [&] { flex->setChecked(true); });
    EXPECT_LT(deduplicated.exposedCommSeconds, exposed.exposedCommSeconds);

    // --grad-dtype: Megatron-Core's default fp32 main grads (4 B a parameter) against bf16 (2 B), as
    // NeMo's performance recipes reduce; the reduction's bytes halve with them.
    auto* grad = editor.findChild<QComboBox*>(QStringLiteral("gradDtype"));
    ASSERT_TRUE(grad);
    EXPECT_EQ(grad->currentData().toString(), QString());
    const auto byDefault = stepAfter(editor, [&] { grad->setCurrentIndex(grad->findData(QStringLiteral("fp32"))); });
    const auto bf16 = stepAfter(editor, [&] { grad->setCurrentIndex(grad->findData(QStringLiteral("bf16"))); });
    EXPECT_DOUBLE_EQ(bf16.memory.gradients * 2, byDefault.memory.gradients);
    EXPECT_LT(bf16.memory.total(), byDefault.memory.total());
}

TEST(SizingWindow, TwoEditorsCompareTwoDevices)
{
    rl::SizingWindow window;
    window.editorA()->setHardware(QStringLiteral("mi300x"));
    window.editorB()->setHardware(QStringLiteral("h100-sxm"));
    ASSERT_TRUE(rl::testing::waitFor(
        [&] { return window.editorA()->report().has_value() && window.editorB()->report().has_value(); }, 5000));
    EXPECT_EQ(window.editorA()->report()->params.total(), window.editorB()->report()->params.total());
    EXPECT_NE(window.editorA()->report()->step.stepSeconds, window.editorB()->report()->step.stepSeconds);
}

namespace {
// Whether a cell shows its whole text: wrapped to the column's width when the table wraps, on one
// line otherwise, within the cell's rectangle (less the item view's text margins).
bool fullyShown(const QTableView* t, int row, int col)
{
    const QModelIndex index = t->model()->index(row, col);
    const QRect cell = t->visualRect(index);
    const int margin = 2 * (t->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, t) + 1);
    const QFontMetrics fm(t->font());
    const QRect need = fm.boundingRect(QRect(0, 0, cell.width() - margin, 100000),
                                       Qt::AlignLeft | (t->wordWrap() ? Qt::TextWordWrap : 0), index.data().toString());
    return need.width() <= cell.width() - margin && need.height() <= cell.height();
}
} // namespace

// Mixtral on 4 MI300X (dp=4, ep=4) needs more memory per GPU than the device's 192 GB. In the two-editor sizing
// window (1400 px wide) the value column is narrow; the "does not fit" warning and every finding must still be
// readable in full (wrapped, rows as tall as their text), and carry their text as a tooltip.
TEST(SizingWindow, MemoryWarningAndFindingsAreNotCutOff)
{
    rl::SizingWindow window;
    window.resize(1400, 800); // the main window's width on a laptop
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ConfigEditor* editor = window.editorA();
    // The edits of one pass are sized together on a zero-time timer; until then report() is the one
    // of the window's first preset (it fits), so wait for the report of these edits.
    QSignalSpy sized(editor, &ConfigEditor::reportChanged);
    editor->loadConfig(rl::model::loadPreset("mixtral-8x7b"));
    editor->setHardware(QStringLiteral("mi300x"));
    editor->setParallel(QStringLiteral("dp=4,ep=4"));
    ASSERT_TRUE(rl::testing::waitFor([&] { return !sized.isEmpty(); }, 5000)) << "the edits were never sized";
    ASSERT_TRUE(editor->report().has_value()) << editor->problem().toStdString();
    const QString memory = editor->resultText(QStringLiteral("Memory per GPU"));
    EXPECT_TRUE(memory.contains(QStringLiteral("does not fit: "))) << memory.toStdString();
    EXPECT_TRUE(memory.contains(QStringLiteral(" GiB usable of 192 GiB"))) << memory.toStdString();
    EXPECT_TRUE(memory.startsWith(QString::fromStdString(rl::units::formatMemory(editor->report()->step.memory.total()))));
    // Issue 27: each part under the total, the communicators' buffers among them: a DP ring of 4 and
    // an all_to_all to 3 peers, (32 x 9,633,792 + 3 x 2 x 4 MiB x 2) B = 342 MiB.
    const auto& parts = editor->report()->step.memory;
    EXPECT_EQ(editor->resultText(QStringLiteral("  comm. buffers")), QStringLiteral("342 MiB"));
    EXPECT_EQ(editor->resultText(QStringLiteral("  weights")), QString::fromStdString(rl::units::formatMemory(parts.weights)));
    EXPECT_EQ(editor->resultText(QStringLiteral("  activations")),
              QString::fromStdString(rl::units::formatMemory(parts.activations)));
    // Issue 24 item 8: not only the memory cell says so. The figures it would reach are marked,
    // and the rules do not all read "ok": the memory rule warns first.
    for (const char* quantity : {"Step time", "Training throughput", "MFU"})
        EXPECT_TRUE(editor->resultText(QString::fromLatin1(quantity)).endsWith(QStringLiteral("cannot run: does not fit in memory")))
            << quantity << ": " << editor->resultText(QString::fromLatin1(quantity)).toStdString();
    const auto& firstFinding = editor->report()->findings.at(0);
    EXPECT_EQ(firstFinding.rule, "memory");
    EXPECT_EQ(firstFinding.severity, rl::model::RuleSeverity::Warning);
    EXPECT_NE(firstFinding.message.find("this layout cannot run"), std::string::npos) << firstFinding.message;

    auto* results = editor->findChild<rl::charts::ResultTableView*>(QStringLiteral("results"));
    auto* findings = editor->findChild<rl::charts::ResultTableView*>(QStringLiteral("findings"));
    ASSERT_TRUE(results && findings);
    // The tables lay themselves out on zero-time timers after the report fills them: the stretched
    // columns take the table's width, then the headers make each row as tall as its wrapped text.
    // Until every cell shows its text; the checks below say which one did not.
    const auto allShown = [&] {
        for (int row = 0; row < results->model()->rowCount(); ++row)
            if (!fullyShown(results, row, 1))
                return false;
        for (int row = 0; row < findings->model()->rowCount(); ++row)
            for (int col = 0; col < findings->model()->columnCount(); ++col)
                if (!fullyShown(findings, row, col))
                    return false;
        return true;
    };
    EXPECT_TRUE(rl::testing::waitFor(allShown, 5000)) << "the rows never grew to their text";
    if (const QByteArray dir = qgetenv("RIDGELINE_TEST_SCREENSHOT_DIR"); !dir.isEmpty())
        window.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/sizing-window.png"));
    // Every column within the table: no value pushed out to a horizontal scroll bar.
    EXPECT_FALSE(results->horizontalScrollBar()->isVisible());
    EXPECT_FALSE(findings->horizontalScrollBar()->isVisible());
    const auto cell = [](const QTableView* t, int row, int col, int role = Qt::DisplayRole) {
        return t->model()->index(row, col).data(role).toString();
    };
    bool gradientsRow = false;
    for (int row = 0; row < results->model()->rowCount(); ++row) {
        EXPECT_TRUE(fullyShown(results, row, 1)) << cell(results, row, 1).toStdString();
        // The tooltip holds the whole value (a basis adds its citation after it).
        EXPECT_TRUE(cell(results, row, 1, Qt::ToolTipRole).startsWith(cell(results, row, 1).trimmed()))
            << cell(results, row, 1, Qt::ToolTipRole).toStdString();
        // Megatron-Core's fp32 main grads are twice the weights: the gradients' row says why.
        if (cell(results, row, 0) == QStringLiteral("  gradients")) {
            gradientsRow = true;
            EXPECT_EQ(cell(results, row, 1), QString::fromStdString(rl::units::formatMemory(2 * parts.weights)));
            EXPECT_TRUE(cell(results, row, 1, Qt::ToolTipRole).contains(QStringLiteral("fp32 main grads")));
        }
    }
    EXPECT_TRUE(gradientsRow);
    ASSERT_GT(findings->model()->rowCount(), 0);
    for (int row = 0; row < findings->model()->rowCount(); ++row)
        for (int col = 0; col < findings->model()->columnCount(); ++col) {
            SCOPED_TRACE(cell(findings, row, col).toStdString());
            EXPECT_TRUE(fullyShown(findings, row, col));
            EXPECT_EQ(cell(findings, row, col, Qt::ToolTipRole), cell(findings, row, col));
        }
}

// Issue 24 item 2: the wheel over the sizing form changed whatever combo or spin box passed under
// the cursor (mi300x became mi355x, a step 354 ms became 160 ms, silently). Unfocused fields hand
// the wheel to the form; a field the user clicked or tabbed into still takes it.
TEST(ConfigEditor, TheWheelOverTheFormChangesNoFieldItHasNotFocused)
{
    ConfigEditor editor;
    editor.resize(1000, 500);
    editor.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&editor));
    editor.loadConfig(rl::model::loadPreset("llama-3-8b"));
    editor.setHardware(QStringLiteral("mi300x"));
    ASSERT_TRUE(rl::testing::waitFor([&] { return editor.report().has_value(); }, 5000)) << editor.problem().toStdString();
    const auto wheelOver = [](QWidget* w) {
        const QPointF at(w->width() / 2.0, w->height() / 2.0);
        QWheelEvent down(at, w->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                         Qt::NoScrollPhase, false);
        QApplication::sendEvent(w, &down);
    };
    const auto combos = editor.findChildren<QComboBox*>();
    const auto spins = editor.findChildren<QSpinBox*>();
    ASSERT_FALSE(combos.isEmpty());
    ASSERT_FALSE(spins.isEmpty());
    for (QComboBox* c : combos) {
        if (!c->isEnabled() || c->count() < 2)
            continue;
        c->clearFocus();
        const QString before = c->currentText();
        wheelOver(c);
        EXPECT_EQ(c->currentText(), before) << c->objectName().toStdString();
    }
    for (QSpinBox* s : spins) {
        if (!s->isEnabled())
            continue;
        s->clearFocus();
        const int before = s->value();
        wheelOver(s);
        EXPECT_EQ(s->value(), before) << s->objectName().toStdString();
    }
    // Focused, a spin box takes the wheel as usual.
    QSpinBox* layers = editor.findChild<QSpinBox*>(QStringLiteral("layers"));
    ASSERT_TRUE(layers);
    QApplication::setActiveWindow(&editor);
    layers->setFocus();
    if (!QTest::qWaitFor([&] { return layers->hasFocus(); }, 2000))
        GTEST_SKIP() << "the offscreen platform gave the window no focus";
    const int before = layers->value();
    wheelOver(layers);
    EXPECT_NE(layers->value(), before);
}

// Issue 24, minor list: the device and the parallel layout were below the model's thirteen shape
// fields, under the fold of the sizing window. They come right after the model, before its shape.
TEST(ConfigEditor, TheDeviceAndTheLayoutComeBeforeTheModelsShape)
{
    ConfigEditor editor;
    editor.resize(600, 900);
    editor.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&editor));
    const auto top = [&](const char* name) {
        auto* w = editor.findChild<QWidget*>(QString::fromLatin1(name));
        EXPECT_TRUE(w) << name;
        return w ? w->mapTo(&editor, QPoint(0, 0)).y() : 0;
    };
    EXPECT_LT(top("hardware"), top("layers"));
    EXPECT_LT(top("parallel"), top("layers"));
}
