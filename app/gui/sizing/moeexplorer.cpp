#include "gui/sizing/moeexplorer.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <variant>

#include "calibrationpicker.h"
#include "gui/sizing/denseaxesfields.h"
#include "jobtracker.h"
#include "model/calibration.h"
#include "model/devicerates.h"
#include "model/hardwareprofileloader.h"
#include "model/modelconfig.h"
#include "model/parallelconfig.h"
#include "model/sizingrequest.h"
#include "moescatterchart.h"
#include "gui/sizing/recipefields.h"
#include "units/units.h"
#include "units/memory.h"

namespace rl {
namespace {
using Outcome = std::variant<model::MoeSweepResult, QString>;

// The presets a sweep can start from: the MoE ones first (their experts are swept), then the dense
// ones (their hidden and FFN widths are).
QStringList sweepPresets()
{
    QStringList moe, dense;
    for (const auto& name : model::presetNames()) {
        try {
            (model::loadPreset(name).isMoe() ? moe : dense) << QString::fromStdString(name);
        } catch (const std::exception&) {
            // a broken preset file is reported where presets are edited, not here
        }
    }
    return moe + dense;
}

// A column of the window: its own margins would add to the splitter's.
QVBoxLayout* marginless(QWidget* column)
{
    auto* layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 0, 0);
    return layout;
}
} // namespace

MoeExplorer::MoeExplorer(QWidget* parent) : QWidget(parent), m_job(new JobTracker(this))
{
    m_model = new QComboBox;
    m_model->setObjectName(QStringLiteral("moeModel"));
    m_model->addItems(sweepPresets());
    m_model->setCurrentText(QStringLiteral("mixtral-8x7b")); // small and well known; the first preset otherwise
    m_model->setToolTip(tr("Base model. MoE: its layers, widths and attention stay; experts, top-k, shared experts "
                           "and expert width are swept. Dense: hidden size and FFN width are swept, the layer count "
                           "(or the FFN width) solved for the held quantity, each shape at its best layout"));
    m_calibration = new CalibrationPicker;
    m_hardware = m_calibration->hardwareCombo();
    m_hardware->setObjectName(QStringLiteral("moeHardware"));
    m_hardware->setToolTip(tr("Hardware profile for peak FLOP/s, HBM bandwidth and links (resources/hardware)"));
    m_hold = new QComboBox;
    m_hold->setObjectName(QStringLiteral("moeHold"));
    m_hold->addItem(tr("Active parameters"), int(model::SweepHold::ActiveParams));
    m_hold->addItem(tr("Total parameters"), int(model::SweepHold::TotalParams));
    m_hold->addItem(tr("FLOPs per token"), int(model::SweepHold::FlopsPerToken));
    m_hold->addItem(tr("Nothing (sweep expert width)"), int(model::SweepHold::None));
    m_hold->setToolTip(tr("Held at the base model's value by solving for the expert width; "
                          "\"Nothing\" sweeps the expert widths listed below as a fourth axis"));
    m_metric = new QComboBox;
    m_metric->setObjectName(QStringLiteral("moeMetric"));
    m_metric->addItems({tr("Tokens/s"), tr("MFU")});
    m_metric->setToolTip(tr("Training throughput measure on the y axis"));
    m_parallel = new QLineEdit(QStringLiteral("dp=8,ep=8"));
    m_parallel->setObjectName(QStringLiteral("moeParallel"));
    m_parallel->setToolTip(tr("Parallel layout, e.g. dp=64,tp=1,pp=1,ep=8"));
    const auto axis = [](const char* name, const QString& value, const QString& tip) {
        auto* e = new QLineEdit(value);
        e->setObjectName(QLatin1String(name));
        e->setToolTip(tip + tr(" — a list (8,16,32) or ranges start:stop:step (512:4096:256)"));
        return e;
    };
    m_experts = axis("moeExperts", QStringLiteral("8,16,32,64,128,256"), tr("Routed experts per MoE layer"));
    m_topK = axis("moeTopK", QStringLiteral("1,2,4,8"), tr("Experts each token is routed to"));
    m_shared = axis("moeShared", QStringLiteral("0,1"), tr("Shared (always active) experts"));
    m_widths = axis("moeWidths", QStringLiteral("512:4096:512"), tr("Expert FFN widths, used when nothing is held"));
    m_widths->setEnabled(false);
    m_run = new QPushButton(tr("Run sweep"));
    m_run->setObjectName(QStringLiteral("moeRun"));
    m_run->setToolTip(tr("Evaluate every experts × top-k × shared (× width) combination in the background"));
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setObjectName(QStringLiteral("moeCancel"));
    m_cancel->setToolTip(tr("Stop the sweep"));
    m_cancel->setEnabled(false);
    m_open = new QPushButton(tr("Open in sizing model"));
    m_open->setObjectName(QStringLiteral("moeOpen"));
    m_open->setToolTip(tr("Load the clicked configuration into the config editor"));
    m_open->setEnabled(false);
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("moeProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(true);
    m_progress->setVisible(false);
    m_status = new QLabel(tr("Choose a model and press Run sweep."));
    m_status->setTextFormat(Qt::PlainText); // errors quote file, model and session names
    m_status->setObjectName(QStringLiteral("moeStatus"));
    m_status->setWordWrap(true); // the calibration's sessions can make it long
    m_verdict = new QLabel;
    m_verdict->setObjectName(QStringLiteral("moeVerdict"));
    m_verdict->setTextFormat(Qt::PlainText); // names the model
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_verdict->setToolTip(tr("Where the base model's own shape stands against the Pareto front of the shapes, each at "
                             "its best layout (plan::placeBase, as ridgeline-cli moe-sweep --best-layout prints it)"));
    m_verdict->setVisible(false);
    m_selected = new QLabel;
    m_selected->setTextFormat(Qt::PlainText); // names the model, from a config file
    m_selected->setObjectName(QStringLiteral("moeSelected"));
    m_selected->setWordWrap(true);
    m_selected->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_chart = new charts::MoeScatterChart;

    auto* form = new QFormLayout;
    m_form = form;
    form->addRow(tr("Base model:"), m_model);
    form->addRow(tr("Hold constant:"), m_hold);
    m_layoutMode = new QComboBox;
    m_layoutMode->setObjectName(QStringLiteral("moeLayoutMode"));
    m_layoutMode->addItem(tr("fixed (as typed)"), int(LayoutMode::Fixed));
    m_layoutMode->addItem(tr("best per shape on a cluster"), int(LayoutMode::BestPerShape));
    m_layoutMode->setToolTip(tr("Fixed: every shape sized at the one parallel layout typed below.\nBest per shape: every "
                                "shape sized at its own best layout on the cluster (the layout search over tp, cp, pp, "
                                "ep, micro-batch, recompute, ZeRO, ... narrowed by Fix), as ridgeline-cli moe-sweep "
                                "--best-layout; the recipe fields are then the search's, the GEMM dtype times decode"));
    form->addRow(tr("Layout:"), m_layoutMode);
    form->addRow(tr("Parallel layout:"), m_parallel);
    buildBestLayoutFields(form);
    // The training recipe every configuration is sized with, as moe-sweep's --dtype, --recompute,
    // --micro-batches, --sp, --ep-overlap, --ep-dispatcher: the same controls as the config editor's.
    m_recipe = new RecipeFields(form, QStringLiteral("moe"), this);
    connect(m_recipe, &RecipeFields::dtypeChanged, m_calibration, &CalibrationPicker::setDtype);
    // The four axes two by two: in one row they made the form wider than its column.
    auto* axes = new QGridLayout;
    axes->setContentsMargins(0, 0, 0, 0);
    const std::pair<QString, QLineEdit*> axisFields[] = {
        {tr("experts"), m_experts}, {tr("top-k"), m_topK}, {tr("shared"), m_shared}, {tr("expert width"), m_widths}};
    for (int i = 0; i < 4; ++i) {
        axes->addWidget(new QLabel(axisFields[i].first), i / 2, 2 * (i % 2));
        axes->addWidget(axisFields[i].second, i / 2, 2 * (i % 2) + 1);
    }
    axes->setColumnStretch(1, 1);
    axes->setColumnStretch(3, 1);
    form->addRow(tr("Sweep:"), axes);
    m_moeAxes = axes;
    m_dense = new DenseAxesFields;
    m_dense->setObjectName(QStringLiteral("moeDenseAxes"));
    form->addRow(tr("Sweep:"), m_dense);
    form->addRow(tr("Y axis:"), m_metric);
    auto* calibrationBox = new QGroupBox(tr("Calibration"));
    auto* calibrationLayout = new QVBoxLayout(calibrationBox);
    calibrationLayout->setContentsMargins(4, 4, 4, 4);
    calibrationLayout->addWidget(m_calibration);

    // The form and the calibration scroll in a column beside the chart, which keeps the window's
    // height: one above the other were taller than a 1280x720 screen, the chart's x axis below it.
    auto* inputs = new QWidget;
    auto* inputsLayout = marginless(inputs);
    inputsLayout->addLayout(form);
    inputsLayout->addWidget(calibrationBox);
    inputsLayout->addStretch();
    auto* scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("moeInputs"));
    scroll->setWidget(inputs);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // As wide as the form needs beside its scroll bar, so only its height scrolls.
    scroll->setMinimumWidth(inputs->minimumSizeHint().width() + scroll->verticalScrollBar()->sizeHint().width());
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_open);
    buttons->addStretch();
    auto* left = new QWidget;
    auto* leftLayout = marginless(left);
    leftLayout->addWidget(scroll, 1);
    leftLayout->addLayout(buttons); // Run stays in sight however far the form is scrolled
    leftLayout->addWidget(m_progress);

    // Tall enough for the y-axis title with its unit: QtCharts elides a title longer than its axis.
    m_chart->setMinimumHeight(360);
    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->setObjectName(QStringLiteral("moeSplitter"));
    splitter->addWidget(left);
    splitter->addWidget(m_chart);
    splitter->setChildrenCollapsible(false);
    splitter->setStretchFactor(1, 1); // a wider window widens the chart
    // The status keeps three lines: at the window's smallest height the layout gave its wrapped text
    // one and cut it (a layout's minimum does not follow a wrapped label's height for its width).
    m_status->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_status->setMinimumHeight(3 * m_status->fontMetrics().lineSpacing());
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_status);
    layout->addWidget(m_verdict);
    layout->addWidget(m_selected);

    connect(m_run, &QPushButton::clicked, this, &MoeExplorer::runSweep);
    // A shown sweep is re-run under the new calibration, so its points never carry a stale basis.
    connect(m_calibration, &CalibrationPicker::calibrationChanged, this, [this] {
        if (!m_result.rows.empty() || m_job->isRunning())
            runSweep();
    });
    connect(m_cancel, &QPushButton::clicked, this, &MoeExplorer::cancel);
    connect(m_hold, &QComboBox::currentIndexChanged, this, [this] {
        m_widths->setEnabled(static_cast<model::SweepHold>(m_hold->currentData().toInt()) == model::SweepHold::None);
    });
    connect(m_metric, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_chart->setThroughput(i == 1 ? charts::MoeThroughput::Mfu : charts::MoeThroughput::TokensPerSecond);
    });
    connect(m_chart, &charts::MoeScatterChart::configClicked, this, [this](const model::MoeSweepRow& row) {
        if (m_shapes) {
            selectShape(row);
            return;
        }
        m_selected->setText(charts::MoeScatterChart::describe(row, m_result.deviceMemoryBytes));
        m_chosen = row;
        m_open->setEnabled(true);
    });
    connect(m_open, &QPushButton::clicked, this, [this] {
        if (!m_chosen)
            return;
        if (m_shapes) {
            openShape();
            return;
        }
        try {
            auto c = sweptModel(*m_chosen, true);
            c.seqLen = m_sweptRecipe.seqLen; // the editor sizes at the model's sequence length
            Q_EMIT configChosen(c, m_sweptRecipe, m_sweptParallel, m_sweptHardware, m_sweptAttention);
        } catch (const std::exception& e) {
            m_status->setText(QString::fromStdString(e.what()));
        }
    });
    // The chart's Export writes the chart, or every configuration of the sweep as CSV.
    connect(m_chart, &charts::ChartFrame::chartExported, this, [this](const QString& f) { m_status->setText(tr("Wrote %1").arg(f)); });
    connect(m_job, &JobTracker::progressChanged, this, [this](int permille, const QString& text) {
        m_progress->setVisible(true);
        if (permille < 0) {
            m_progress->setRange(0, 0); // indeterminate until the first real tick
            return;
        }
        m_progress->setRange(0, 1000);
        m_progress->setValue(permille);
        m_progress->setFormat(text.isEmpty() ? QStringLiteral("%p%") : text + QStringLiteral(" (%p%)"));
    });
    connect(m_model, &QComboBox::currentTextChanged, this, &MoeExplorer::updateModelKind);
    updateLayoutMode();
    updateModelKind();
}

void MoeExplorer::updateModelKind()
{
    std::optional<model::ModelConfig> base;
    try {
        base = model::loadPreset(m_model->currentText().toStdString());
    } catch (const std::exception&) {
        // an unreadable preset is reported when the sweep runs
    }
    m_denseBase = base && !base->isMoe();
    if (m_denseBase)
        m_dense->setBase(*base);
    m_form->setRowVisible(m_moeAxes, !m_denseBase);
    m_form->setRowVisible(m_dense, m_denseBase);
    // A dense base has no fixed-layout sweep: its shapes change the layers and heads a layout divides.
    if (m_denseBase)
        setLayoutMode(LayoutMode::BestPerShape);
    m_layoutMode->setEnabled(!m_denseBase);
    m_hold->setItemText(0, m_denseBase ? tr("Parameters (active = total)") : tr("Active parameters"));
    m_hold->setItemText(3, m_denseBase ? tr("Nothing (sweep layers too)") : tr("Nothing (sweep expert width)"));
}

bool MoeExplorer::isRunning() const { return m_job->isRunning(); }

void MoeExplorer::cancel()
{
    m_job->cancel();
    m_run->setEnabled(true);
    m_cancel->setEnabled(false);
    m_progress->setVisible(false);
    m_status->setText(tr("Sweep cancelled."));
}

std::optional<model::MoeSweepSpec> MoeExplorer::sweepAxes(model::SweepHold hold)
{
    model::MoeSweepSpec axes;
    try {
        axes.experts = model::parseSweepValues(m_experts->text().toStdString(), "experts");
        axes.topK = model::parseSweepValues(m_topK->text().toStdString(), "top-k");
        axes.sharedExperts = model::parseSweepValues(m_shared->text().toStdString(), "shared experts");
        if (hold == model::SweepHold::None)
            axes.expertWidths = model::parseSweepValues(m_widths->text().toStdString(), "expert width");
    } catch (const std::exception& e) {
        m_status->setText(QString::fromStdString(e.what()));
        Q_EMIT sweepFailed(m_status->text());
        return std::nullopt;
    }
    return axes;
}

void MoeExplorer::runSweep()
{
    if (layoutMode() == LayoutMode::BestPerShape) {
        runShapeSearch();
        return;
    }
    const std::string preset = m_model->currentText().toStdString();
    m_sweptPreset = preset;
    m_chosen.reset();
    m_open->setEnabled(false);
    const std::string hardware = m_hardware->currentText().toStdString();
    const std::string attention = m_calibration->attentionKernel().toStdString();
    const std::shared_ptr<const model::Calibration> calibration = m_calibration->calibration();
    m_sweptBasis = m_calibration->summary();
    const std::string parallel = m_parallel->text().trimmed().toStdString();
    model::ParallelConfig recipe; // the degrees come from `parallel`
    m_recipe->applyTo(recipe);
    m_sweptRecipe = recipe;
    m_sweptParallel = QString::fromStdString(parallel);
    m_sweptHardware = m_hardware->currentText();
    m_sweptAttention = m_calibration->attentionKernel();
    const auto hold = static_cast<model::SweepHold>(m_hold->currentData().toInt());
    const auto parsed = sweepAxes(hold);
    if (!parsed)
        return;
    const model::MoeSweepSpec axes = *parsed;
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_status->setText(tr("Sweeping %1 on %2…").arg(m_model->currentText(), m_hardware->currentText()));
    m_job->start<Outcome>(
        [preset, hardware, attention, parallel, recipe, hold, axes, calibration](JobControl<Outcome>& control) -> Outcome {
            try {
                model::MoeSweepSpec spec = axes;
                spec.base = model::loadPreset(preset);
                spec.hold = hold;
                // The recipe's defaults are ridgeline-cli's (ZeRO 1, bf16): the same configuration then
                // needs the same memory per GPU in the explorer as in `ridgeline-cli size` and `moe-sweep`.
                spec.parallel = model::parallelLayout(spec.base, parallel, recipe);
                spec.decode.tp = spec.parallel.tp;
                model::SizingRequest req;
                req.model = spec.base;
                req.hardware = findHardwareProfile(hardware);
                req.layout = spec.parallel;
                req.attentionKernel = attention;
                req.calibration = calibration->choice();
                const model::SizingInputs in(req, *calibration);
                spec.timing = in.timing();
                return model::runMoeSweep(spec, in.rates(), in.collectives(), [&control](std::size_t done, std::size_t total) {
                    control.setProgress(static_cast<std::int64_t>(done), static_cast<std::int64_t>(total));
                    return !control.isCanceled();
                });
            } catch (const std::exception& e) {
                return QString::fromStdString(e.what());
            }
        },
        [this](Outcome out) {
            m_run->setEnabled(true);
            m_cancel->setEnabled(false);
            m_progress->setVisible(false);
            if (auto* err = std::get_if<QString>(&out)) {
                m_status->setText(*err);
                Q_EMIT sweepFailed(*err);
                return;
            }
            showResult(std::get<model::MoeSweepResult>(std::move(out)));
        });
}

void MoeExplorer::showResult(model::MoeSweepResult result)
{
    m_result = std::move(result);
    m_shapes.reset();
    m_verdict->setVisible(false);
    const auto& rows = m_result.rows;
    m_chart->setResult(m_result);
    const auto noFit = std::count_if(rows.begin(), rows.end(), [](const auto& r) { return !r.fits; });
    const QString fit = noFit == 0 ? QString()
                                   : tr(", %1 do not fit %2 per GPU (grey, red outline; not on the front)")
                                         .arg(noFit)
                                         .arg(QString::fromStdString(units::formatMemory(m_result.deviceMemoryBytes)));
    m_status->setText(tr("%1 configurations, %2 on the Pareto front%3; hover a point for its figures, click to "
                         "select it. Timed with %4.")
                          .arg(rows.size())
                          .arg(m_chart->paretoOrder().size())
                          .arg(fit, m_sweptBasis));
    Q_EMIT sweepFinished(static_cast<int>(rows.size()));
}

model::ModelConfig MoeExplorer::sweptModel(const model::MoeSweepRow& row, bool renamed) const
{
    auto c = model::loadPreset(m_sweptPreset);
    if (row.isDenseShape()) {
        c.dModel = row.dModel;
        c.mlpWidth = row.ffnWidth;
        c.layers = row.layers;
        c.heads = row.heads;
        c.kvHeads = row.kvHeads;
        if (renamed)
            c.name += " (hidden " + std::to_string(row.dModel) + ", FFN " + std::to_string(row.ffnWidth) + ", " +
                      std::to_string(row.layers) + " layers)";
        return c;
    }
    c.moe.experts = row.experts;
    c.moe.topK = row.topK;
    c.moe.sharedExperts = row.sharedExperts;
    c.moe.expertWidth = row.expertWidth;
    if (renamed)
        c.name += " (" + std::to_string(row.experts) + " experts, top-" + std::to_string(row.topK) + ")";
    return c;
}

QString MoeExplorer::exportTo(const QString& fileName) const
{
    QString error;
    return m_chart->exportTo(fileName, &error) ? QString() : error;
}

QString MoeExplorer::selectedText() const { return m_selected->text(); }
QString MoeExplorer::statusText() const { return m_status->text(); }

void MoeExplorer::setWorkspace(const QString& path) { m_calibration->setWorkspace(path); }
} // namespace rl
