// The MoE explorer on a dense base: the dense axes in place of the MoE ones, the search each shape at
// its best layout in the worker (the same rows as plan::runShapeSearch), and a chart with a point
// per shape, axes with units and the base ringed.
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFile>
#include <QScatterSeries>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QValueAxis>

#include <gtest/gtest.h>

#include "gui/sizing/denseaxesfields.h"
#include "gui/sizing/moeexplorer.h"
#include "model/calibration.h"
#include "model/hardwareprofileloader.h"
#include "moescatterchart.h"
#include "plan/layout.h"
#include "plan/shapesearch.h"
#include "pointcloud.h"
#include "tempdir.h"
#include "test_gui_env.h"

namespace {
constexpr char kFix[] = "cp=1,pp=1,micro-batch=1,zero=1";

// The request ridgeline-cli moe-sweep llama-3-8b --hardware h100-sxm --best-layout --gpus 64
// --global-batch 256 --hidden 2048,4096 --ffn-mult 2.5,3.5 --fix ... builds, with the explorer's defaults.
rl::plan::ShapeSearchRequest cliRequest(const rl::HardwareProfile& hw)
{
    rl::plan::ShapeSearchRequest req;
    req.sweep.base = rl::model::loadPreset("llama-3-8b");
    req.sweep.hold = rl::model::SweepHold::ActiveParams;
    req.sweep.decode.batch = 1;
    req.sweep.decode.contextTokens = 4096;
    req.sweep.decode.tp = 1;
    req.sweep.parallel.dtype = "bf16";
    rl::model::DenseSweepSpec dense;
    dense.base = req.sweep.base;
    dense.hidden = {2048, 4096};
    dense.ffnMultiples = {2.5, 3.5};
    dense.hold = rl::model::SweepHold::TotalParams;
    req.dense = dense;
    req.plan.base.hardware = hw;
    req.plan.cluster = {64, hw.gpusPerNode, 256, 4096};
    req.fix = kFix;
    return req;
}
} // namespace

TEST(MoeExplorer, DenseBaseSweepsHiddenAndFfnWidthsAtTheirBestLayouts)
{
    rl::MoeExplorer explorer;
    explorer.resize(1400, 900);
    explorer.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&explorer));
    auto* model = explorer.findChild<QComboBox*>(QStringLiteral("moeModel"));
    auto* mode = explorer.findChild<QComboBox*>(QStringLiteral("moeLayoutMode"));
    auto* experts = explorer.findChild<QLineEdit*>(QStringLiteral("moeExperts"));
    auto* denseAxes = explorer.findChild<QWidget*>(QStringLiteral("moeDenseAxes"));
    auto* hidden = explorer.findChild<QLineEdit*>(QStringLiteral("moeHidden"));
    auto* ffn = explorer.findChild<QLineEdit*>(QStringLiteral("moeFfnMult"));
    auto* layers = explorer.findChild<QLineEdit*>(QStringLiteral("moeLayers"));
    ASSERT_TRUE(model && mode && experts && denseAxes && hidden && ffn && layers);
    EXPECT_TRUE(experts->isVisible());
    EXPECT_FALSE(denseAxes->isVisible());
    ASSERT_GE(model->findText(QStringLiteral("llama-3-8b")), 0) << "dense presets are offered";

    model->setCurrentText(QStringLiteral("llama-3-8b"));
    EXPECT_FALSE(experts->isVisible()) << "a dense base has no experts to sweep";
    EXPECT_TRUE(denseAxes->isVisible());
    EXPECT_EQ(explorer.layoutMode(), rl::MoeExplorer::LayoutMode::BestPerShape);
    EXPECT_FALSE(mode->isEnabled()) << "a dense base is searched at each shape's best layout";
    EXPECT_EQ(hidden->text(), QStringLiteral("2048,3072,4096,5120,6144")); // 0.5x .. 1.5x on the 512 grid
    const QSize room = QSize(1280, 720) - QSize(16, 48); // a small screen less the frame, as for the MoE axes
    EXPECT_LE(explorer.minimumSizeHint().width(), room.width());
    EXPECT_LE(explorer.minimumSizeHint().height(), room.height());

    explorer.findChild<QComboBox*>(QStringLiteral("moeHardware"))->setCurrentText(QStringLiteral("h100-sxm"));
    explorer.findChild<QSpinBox*>(QStringLiteral("moeGpus"))->setValue(64);
    explorer.findChild<QSpinBox*>(QStringLiteral("moeGlobalBatch"))->setValue(256);
    explorer.findChild<QLineEdit*>(QStringLiteral("moeFix"))->setText(QLatin1String(kFix));
    hidden->setText(QStringLiteral("2048,4096"));
    ffn->setText(QStringLiteral("2.5,3.5"));

    // A bad axis is said in the status line and nothing runs.
    QSignalSpy failed(&explorer, &rl::MoeExplorer::sweepFailed);
    ffn->setText(QStringLiteral("2.5,x"));
    explorer.runSweep();
    ASSERT_EQ(failed.size(), 1);
    EXPECT_TRUE(explorer.statusText().contains(QStringLiteral("'x' is not a number"))) << explorer.statusText().toStdString();
    EXPECT_FALSE(explorer.isRunning());
    ffn->setText(QStringLiteral("2.5,3.5"));
    failed.clear();

    QSignalSpy done(&explorer, &rl::MoeExplorer::sweepFinished);
    explorer.runSweep();
    EXPECT_TRUE(explorer.isRunning()) << "the search runs in the worker";
    ASSERT_TRUE(rl::testing::waitFor([&] { return !done.isEmpty() || !failed.isEmpty(); }, 120000));
    ASSERT_TRUE(failed.isEmpty()) << failed.first().first().toString().toStdString();

    // The rows are the shape search's, base first; 4096 x 3.5 is the base itself.
    const auto direct = rl::plan::runShapeSearch(cliRequest(rl::findHardwareProfile("h100-sxm")), rl::model::Calibration{});
    ASSERT_TRUE(explorer.shapeResult().has_value());
    const auto& shown = *explorer.shapeResult();
    ASSERT_EQ(direct.rows.size(), 4u);
    ASSERT_EQ(shown.rows.size(), direct.rows.size());
    for (std::size_t i = 0; i < direct.rows.size(); ++i) {
        const auto &a = shown.rows[i].row, &b = direct.rows[i].row;
        EXPECT_EQ(a.dModel, b.dModel) << i;
        EXPECT_EQ(a.ffnWidth, b.ffnWidth) << i;
        EXPECT_EQ(a.layers, b.layers) << i;
        EXPECT_EQ(a.heads, b.heads) << i;
        EXPECT_EQ(a.experts, 0) << i;
        EXPECT_DOUBLE_EQ(a.tokensPerSecond, b.tokensPerSecond) << i;
        EXPECT_DOUBLE_EQ(a.decodeSecondsPerToken, b.decodeSecondsPerToken) << i;
        EXPECT_EQ(a.pareto, b.pareto) << i;
    }
    EXPECT_TRUE(shown.rows.front().base);
    EXPECT_EQ(shown.rows.front().row.dModel, 4096);

    // The chart: a point per shape, the front, the base ringed, axes with their units.
    auto* chart = explorer.chart()->chart();
    auto* cloud = rl::charts::PointCloud::of(chart);
    ASSERT_TRUE(cloud);
    EXPECT_EQ(cloud->points().size(), 4u);
    EXPECT_FALSE(explorer.chart()->paretoOrder().empty());
    auto* base = rl::charts::MoeScatterChart::baseSeries(chart);
    ASSERT_TRUE(base);
    EXPECT_EQ(base->name(), QStringLiteral("base (llama-3-8b)"));
    EXPECT_TRUE(chart->title().contains(QStringLiteral("Dense shape trade-off"))) << chart->title().toStdString();
    const auto x = chart->axes(Qt::Horizontal), y = chart->axes(Qt::Vertical);
    ASSERT_EQ(x.size(), 1);
    ASSERT_EQ(y.size(), 1);
    EXPECT_EQ(x.first()->titleText(), QStringLiteral("Decode latency per token (ms)"));
    EXPECT_TRUE(y.first()->titleText().contains(QStringLiteral("tokens/s)"))) << y.first()->titleText().toStdString();
    auto* verdict = explorer.findChild<QLabel*>(QStringLiteral("moeVerdict"));
    ASSERT_TRUE(verdict && verdict->isVisible());
    EXPECT_EQ(verdict->text(),
              QStringLiteral("Base shape (llama-3-8b): ") + QString::fromStdString(rl::plan::placeBase(direct)) + u'.');
    rl::testing::shoot(&explorer, "moe-dense-best-layout.png");
    // Export as CSV: a line per shape with its dimensions.
    rl::test::TempDir dir;
    const QString csv = dir.filePath(QStringLiteral("dense.csv"));
    ASSERT_EQ(explorer.exportTo(csv), QString());
    QFile f(csv);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
    ASSERT_EQ(lines.size(), 5);
    EXPECT_TRUE(lines.first().startsWith(R"("hidden","ffn_width","layers","heads","kv_heads",)")) << lines.first().toStdString();
    EXPECT_TRUE(lines.at(1).startsWith(R"("4096","14336","32","32","8",)")) << lines.at(1).toStdString();

    // Hover names the shape's dimensions; a click and Open hand the shape over with its best layout.
    const std::size_t pick = 1;
    ASSERT_TRUE(direct.rows[pick].best);
    auto* view = explorer.chart()->view();
    const QPoint at = view->mapFromScene(chart->mapToScene(cloud->positionOf(pick)));
    QTest::mouseMove(view->viewport(), at);
    EXPECT_TRUE(explorer.chart()->hoverText().contains(QStringLiteral("hidden 2048, FFN ")))
        << explorer.chart()->hoverText().toStdString();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
    QSignalSpy chosen(&explorer, &rl::MoeExplorer::configChosen);
    auto* open = explorer.findChild<QPushButton*>(QStringLiteral("moeOpen"));
    ASSERT_TRUE(open && open->isEnabled());
    open->click();
    ASSERT_EQ(chosen.size(), 1);
    const auto config = chosen.first().at(0).value<rl::model::ModelConfig>();
    EXPECT_EQ(config.dModel, direct.rows[pick].row.dModel);
    EXPECT_EQ(config.mlpWidth, direct.rows[pick].row.ffnWidth);
    EXPECT_EQ(config.layers, direct.rows[pick].row.layers);
    EXPECT_EQ(config.heads, direct.rows[pick].row.heads);
    EXPECT_EQ(config.kvHeads, direct.rows[pick].row.kvHeads);
    EXPECT_FALSE(config.isMoe());

    // Back to a MoE base: its axes return, and so does the fixed layout.
    model->setCurrentText(QStringLiteral("mixtral-8x7b"));
    EXPECT_TRUE(experts->isVisible());
    EXPECT_FALSE(denseAxes->isVisible());
    EXPECT_TRUE(mode->isEnabled());
}

// FFN widths typed replace the multiples (whose field is disabled meanwhile), as --ffn replaces
// --ffn-mult; layer counts given under a held quantity leave both out (the FFN width is solved); a
// bad width names its field.
TEST(MoeExplorer, DenseAxesTakeTypedFfnWidthsInPlaceOfMultiples)
{
    rl::DenseAxesFields fields;
    auto* mult = fields.findChild<QLineEdit*>(QStringLiteral("moeFfnMult"));
    auto* widths = fields.findChild<QLineEdit*>(QStringLiteral("moeFfnWidths"));
    auto* layers = fields.findChild<QLineEdit*>(QStringLiteral("moeLayers"));
    auto* hidden = fields.findChild<QLineEdit*>(QStringLiteral("moeHidden"));
    ASSERT_TRUE(mult && widths && layers && hidden);
    hidden->setText(QStringLiteral("2048,4096"));
    QString error;
    auto spec = fields.axes(rl::model::SweepHold::TotalParams, &error);
    ASSERT_TRUE(spec) << error.toStdString();
    EXPECT_EQ(spec->ffnMultiples, (std::vector<double>{2, 2.67, 3.5, 4}));
    EXPECT_TRUE(spec->ffnWidths.empty());
    EXPECT_TRUE(mult->isEnabled());

    widths->setText(QStringLiteral("8192:14336:6144"));
    EXPECT_FALSE(mult->isEnabled()) << "typed widths replace the multiples";
    spec = fields.axes(rl::model::SweepHold::TotalParams, &error);
    ASSERT_TRUE(spec) << error.toStdString();
    EXPECT_EQ(spec->ffnWidths, (std::vector<int>{8192, 14336}));
    EXPECT_TRUE(spec->ffnMultiples.empty());
    spec->base = rl::model::loadPreset("llama-3-8b");
    const auto shapes = rl::model::denseSweepShapes(*spec);
    ASSERT_EQ(shapes.size(), 4u);
    EXPECT_EQ(shapes[1].mlpWidth, 14336);

    layers->setText(QStringLiteral("16,32"));
    spec = fields.axes(rl::model::SweepHold::TotalParams, &error);
    ASSERT_TRUE(spec) << error.toStdString();
    EXPECT_TRUE(spec->ffnWidths.empty() && spec->ffnMultiples.empty()) << "the FFN width is solved";
    spec = fields.axes(rl::model::SweepHold::None, &error);
    ASSERT_TRUE(spec) << error.toStdString();
    EXPECT_EQ(spec->ffnWidths.size(), 2u) << "holding nothing, the widths are an axis";

    widths->setText(QStringLiteral("8192,x"));
    EXPECT_FALSE(fields.axes(rl::model::SweepHold::None, &error));
    EXPECT_TRUE(error.contains(QStringLiteral("FFN widths"))) << error.toStdString();
    widths->clear();
    EXPECT_TRUE(mult->isEnabled());
}
