#include "gui/sizing/configeditor.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <string_view>

#include <nlohmann/json.hpp>

#include "calibrationpicker.h"
#include "jobtracker.h"
#include "resulttableview.h"
#include "gui/sizing/recipefields.h"
#include "gui/sizing/savedconfigs.h"
#include "wheelguard.h"
#include "model/attentionkernel.h"
#include "model/hardwareprofileloader.h"
#include "model/commbuffers.h"
#include "model/memorymodel.h"
#include "model/validation.h"
#include "store/modelconfigs.h"
#include "store/workspace.h"
#include "units/units.h"
#include "textconv.h"
#include "tonelabel.h"
#include "units/memory.h"

namespace rl {
namespace {
QString percent(double v) { return qs(units::formatPercent(v)); }

// "default — by shape (…)": a figure's basis with what it cites or states.
QString basisOf(const std::vector<model::FigureBasis>& bases, const char* figure)
{
    for (const auto& b : bases)
        if (b.figure == figure)
            return qs(b.basis) + (b.detail.empty() ? QString() : QStringLiteral(" — ") + qs(b.detail));
    return {};
}

charts::ResultTableView* table(const QString& name, std::vector<charts::ResultColumn> columns, const QString& tip)
{
    auto* t = new charts::ResultTableView;
    t->setObjectName(name);
    t->setTable({std::move(columns), {}, {}});
    t->horizontalHeader()->setStretchLastSection(true);
    t->setToolTip(tip);
    return t;
}

// A figure of the results with the analysis value behind it; left-aligned like the prose values
// around it (a basis, a breakdown), which wrap in the same column.
charts::ResultCell valueCell(const QString& text, QVariant value, const QString& tip)
{
    charts::ResultCell c;
    c.text = text;
    c.value = std::move(value);
    c.tip = tip.isEmpty() ? text.trimmed() : tip;
    return c;
}
} // namespace

ConfigEditor::ConfigEditor(QWidget* parent)
    : QWidget(parent), m_recompute(new QTimer(this)), m_job(new JobTracker(this))
{
    m_recompute->setSingleShot(true);
    m_recompute->setInterval(0); // coalesce the edits of one event-loop pass
    connect(m_recompute, &QTimer::timeout, this, &ConfigEditor::recompute);

    m_preset = new QComboBox;
    m_preset->setObjectName(QStringLiteral("preset"));
    m_preset->setToolTip(tr("Start from a published model (resources/models)"));
    for (const auto& name : model::presetNames())
        m_preset->addItem(qs(name));
    m_presetCount = m_preset->count();
    auto* open = new QPushButton(tr("Open…"));
    auto* saveButton = new QPushButton(tr("Save in workspace…"));
    saveButton->setObjectName(QStringLiteral("saveConfig"));
    saveButton->setToolTip(tr("Keep this configuration in the workspace under a name (ridgeline-cli size NAME "
                              "finds it too)"));
    connect(saveButton, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString name = QInputDialog::getText(this, tr("Save configuration"), tr("Name:"), QLineEdit::Normal,
                                                   qs(config().name), &ok);
        if (ok && !name.trimmed().isEmpty())
            saveToWorkspace(name.trimmed());
    });
    open->setToolTip(tr("Load a Hugging Face config.json or a Ridgeline model file"));
    m_name = new QLabel;
    m_name->setObjectName(QStringLiteral("modelName"));

    m_form = new QFormLayout;
    // Two editors share the sizing window: the form keeps to the width of its fields, combos included
    // (sized to their longest item they pushed the results out of view).
    m_preset->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_preset->setMinimumContentsLength(10);
    auto* presetRow = new QHBoxLayout;
    presetRow->addWidget(m_preset, 1);
    presetRow->addWidget(open);
    m_form->addRow(tr("Preset:"), presetRow);
    m_form->addRow(tr("Model:"), m_name);
    m_form->addRow(QString(), saveButton);
    // The device and the layout come right after the model: below thirteen shape fields they were
    // under the fold, and a new user sized on the default device without seeing it.
    m_calibration = new CalibrationPicker;
    m_calibration->offerMeasuredRun(true); // the step below is calibrated from it
    m_calibration->hardwareCombo()->setObjectName(QStringLiteral("hardware"));
    // The calibration in the form (which scrolls): which device, which measured sessions, the basis
    // of each figure, without taking width or height from the results and findings.
    auto* calibrationBox = new QGroupBox(tr("Calibration"));
    auto* calibrationLayout = new QVBoxLayout(calibrationBox);
    calibrationLayout->setContentsMargins(4, 4, 4, 4);
    calibrationLayout->addWidget(m_calibration);
    m_form->addRow(calibrationBox);
    m_parallel = new QLineEdit(QStringLiteral("dp=8"));
    m_parallel->setObjectName(QStringLiteral("parallel"));
    m_parallel->setToolTip(tr("Parallel degrees, e.g. dp=64,tp=8,pp=2,ep=8,cp=1"));
    m_form->addRow(tr("Parallel layout:"), m_parallel);
    m_layers = addSpin(QStringLiteral("layers"), tr("Layers:"), 1000, tr("Transformer layers"));
    m_dModel = addSpin(QStringLiteral("dModel"), tr("Hidden size:"), 1 << 20, tr("d_model (hidden size)"));
    m_heads = addSpin(QStringLiteral("heads"), tr("Attention heads:"), 4096, tr("Query heads"));
    m_kvHeads = addSpin(QStringLiteral("kvHeads"), tr("KV heads:"), 4096, tr("Key/value heads (GQA; = heads for MHA)"));
    m_headDim = addSpin(QStringLiteral("headDim"), tr("Head dim:"), 4096, tr("Dimension of one head"));
    m_mlpWidth = addSpin(QStringLiteral("mlpWidth"), tr("MLP width:"), 1 << 22, tr("Dense MLP intermediate size"));
    m_vocab = addSpin(QStringLiteral("vocab"), tr("Vocabulary:"), 1 << 24, tr("Vocabulary size (tokens)"));
    m_seqLen = addSpin(QStringLiteral("seqLen"), tr("Sequence length:"), 1 << 22, tr("Training sequence length (tokens)"));
    m_experts = addSpin(QStringLiteral("experts"), tr("Routed experts:"), 4096, tr("0 = dense model"));
    m_topK = addSpin(QStringLiteral("topK"), tr("Top-k:"), 256, tr("Experts each token is routed to"));
    m_expertWidth = addSpin(QStringLiteral("expertWidth"), tr("Expert width:"), 1 << 22, tr("Intermediate size of one expert"));
    m_shared = addSpin(QStringLiteral("sharedExperts"), tr("Shared experts:"), 64, tr("Experts every token uses"));
    auto* fast = new QPushButton(tr("Find fast width…"));
    fast->setObjectName(QStringLiteral("fastWidth"));
    fast->setToolTip(tr("MLP (or expert) widths near the current one, ranked by predicted GEMM efficiency on this "
                        "device; pick one to apply it"));
    m_form->addRow(QString(), fast);
    connect(fast, &QPushButton::clicked, this, [this, fast] {
        QMenu menu(this);
        const bool expert = m_experts->value() > 0;
        int shown = 0;
        for (const auto& c : fastWidths()) {
            if (shown++ == 8)
                break;
            QAction* a = menu.addAction(tr("%1 (%2)").arg(c.width).arg(qs(units::formatPercent(c.efficiency, 1))));
            connect(a, &QAction::triggered, this, [this, expert, w = c.width] {
                (expert ? m_expertWidth : m_mlpWidth)->setValue(w);
            });
        }
        if (menu.isEmpty())
            menu.addAction(tr("No candidates (set hidden size and width first)"))->setEnabled(false);
        menu.exec(fast->mapToGlobal(QPoint(0, fast->height())));
    });

    m_recipe = new RecipeFields(m_form, QString(), this);
    connect(m_recipe, &RecipeFields::changed, this, &ConfigEditor::scheduleRecompute);
    connect(m_recipe, &RecipeFields::dtypeChanged, m_calibration, &CalibrationPicker::setDtype);
    m_decodeBatch = addSpin(QStringLiteral("decodeBatch"), tr("Decode batch:"), 1 << 16, tr("Sequences decoded together"));
    m_decodeBatch->setMinimum(1);
    m_decodeBatch->setValue(1);

    m_problem = new QLabel;
    m_problem->setTextFormat(Qt::PlainText); // errors quote file, model and session names
    m_problem->setObjectName(QStringLiteral("problem"));
    setLabelTone(m_problem, LabelTone::Error);
    m_problem->setWordWrap(true);
    m_results = table(QStringLiteral("results"),
                      {{tr("Quantity"),
                        tr("What the sizing model estimates; an indented row breaks down the one above")},
                       {tr("Value"), tr("Each in its own unit: parameters and tokens/s as counts (k, M, B), FLOPs, "
                                        "memory in GiB (binary, as nvidia-smi and rocm-smi report the device's), "
                                        "times in s, ms or µs, MFU in %; hover a value for its basis")}},
                      tr("The sizing model's estimate for this configuration"));
    // The rows are a breakdown (indented rows belong to the one above): kept in the model's order.
    m_results->setSortingEnabled(false);
    m_findings = table(QStringLiteral("findings"),
                       {{tr("Rule"), tr("The sizing rule checked")},
                        {tr("Result"), tr("ok, info or warning")},
                        {tr("Finding"), tr("What the rule found, with the figures it compared")},
                        {tr("Nearest compliant"), tr("The closest value that passes the rule, where one fails")}},
                       tr("Sizing rules: widths and counts against the device's tiles and compute units"));

    // Two editors share the sizing window, so cells are narrow: values and findings wrap and rows
    // grow to fit (an elided "269 GiB (exceed…" hid the out-of-memory warning), and every cell
    // carries its full text as a tooltip.
    // Quantity names wrap too: sized to their contents, the longest ("weights / grads / optimizer /
    // activations") pushed the values out of sight.
    m_results->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_results->setWordWrap(true);
    m_results->setTextElideMode(Qt::ElideNone);
    m_results->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The result ("ok", "warn") stays narrow; rule, finding and proposal share the rest and wrap.
    m_findings->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_findings->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_findings->setWordWrap(true);
    m_findings->setTextElideMode(Qt::ElideNone);
    m_findings->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    // Form and results side by side; the findings below, across the editor's whole width, so their
    // four columns have room when two editors share the sizing window. The form scrolls rather
    // than setting the height of the top row.
    auto* formWidget = new QWidget;
    formWidget->setLayout(m_form);
    guardWheel(formWidget); // scrolling the form never changes a field under the cursor
    auto* left = new QScrollArea;
    left->setWidget(formWidget);
    left->setWidgetResizable(true);
    left->setFrameShape(QFrame::NoFrame);
    left->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // As narrow as the form allows: the results need the width more.
    left->setFixedWidth(formWidget->minimumSizeHint().width() + left->verticalScrollBar()->sizeHint().width());
    auto* right = new QVBoxLayout;
    right->addWidget(m_problem);
    right->addWidget(m_results, 1);
    auto* top = new QHBoxLayout;
    top->addWidget(left);
    top->addLayout(right, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top, 3);
    layout->addWidget(m_findings, 2);

    connect(m_preset, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (m_loading || index < 0)
            return;
        try {
            const QVariant saved = m_preset->itemData(index);
            if (saved.isValid()) // a configuration saved in the workspace, as model JSON
                loadConfig(model::fromJson(nlohmann::json::parse(saved.toString().toStdString()),
                                           m_preset->itemText(index).toStdString()));
            else
                loadConfig(model::loadPreset(m_preset->itemText(index).toStdString()));
        } catch (const std::exception& e) {
            m_problem->setText(qs(e.what()));
        }
    });
    connect(open, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Model config"), {}, tr("JSON (*.json)"));
        if (f.isEmpty())
            return;
        try {
            loadConfig(model::loadModelConfigFile(f.toStdString()));
        } catch (const std::exception& e) {
            m_problem->setText(qs(e.what()));
        }
    });
    connect(m_calibration, &CalibrationPicker::calibrationChanged, this, &ConfigEditor::scheduleRecompute);
    connect(m_parallel, &QLineEdit::textChanged, this, &ConfigEditor::scheduleRecompute);

    if (m_preset->count() > 0) {
        m_loading = true; // load once below, whether or not the index changes
        m_preset->setCurrentIndex(std::max(0, m_preset->findText(QStringLiteral("llama-3-8b"))));
        m_loading = false;
        try {
            loadConfig(model::loadPreset(m_preset->currentText().toStdString()));
        } catch (const std::exception& e) {
            m_problem->setText(qs(e.what()));
        }
    }
}

QSpinBox* ConfigEditor::addSpin(const QString& name, const QString& label, int max, const QString& tip)
{
    auto* s = new QSpinBox;
    s->setObjectName(name);
    s->setRange(0, max);
    s->setToolTip(tip);
    s->setKeyboardTracking(false); // recompute on Enter or focus change, not on every digit
    connect(s, &QSpinBox::valueChanged, this, &ConfigEditor::scheduleRecompute);
    m_form->addRow(label, s);
    return s;
}

void ConfigEditor::loadConfig(const model::ModelConfig& c)
{
    m_loading = true;
    m_base = c;
    m_name->setText(qs(c.name) + QStringLiteral(" (") + qs(c.family) + QStringLiteral(")"));
    m_layers->setValue(c.layers);
    m_dModel->setValue(c.dModel);
    m_heads->setValue(c.heads);
    m_kvHeads->setValue(c.kvHeads);
    m_headDim->setValue(c.headDim);
    m_mlpWidth->setValue(c.mlpWidth);
    m_vocab->setValue(c.vocab);
    m_seqLen->setValue(c.seqLen);
    m_experts->setValue(c.moe.experts);
    m_topK->setValue(c.moe.topK);
    m_expertWidth->setValue(c.moe.expertWidth);
    m_shared->setValue(c.moe.sharedExperts);
    if (m_preset->findText(qs(c.name)) >= 0)
        m_preset->setCurrentText(qs(c.name));
    m_loading = false;
    scheduleRecompute();
}

model::ModelConfig ConfigEditor::config() const
{
    model::ModelConfig c = m_base;
    c.layers = m_layers->value();
    c.dModel = m_dModel->value();
    c.heads = m_heads->value();
    c.kvHeads = m_kvHeads->value();
    c.headDim = m_headDim->value();
    c.mlpWidth = m_mlpWidth->value();
    c.vocab = m_vocab->value();
    c.seqLen = m_seqLen->value();
    c.moe.experts = m_experts->value();
    c.moe.topK = m_topK->value();
    c.moe.expertWidth = m_expertWidth->value();
    c.moe.sharedExperts = m_shared->value();
    return c;
}

void ConfigEditor::setHardware(const QString& id) { m_calibration->setHardware(id); }

void ConfigEditor::setWorkspace(const QString& path)
{
    m_workspace = path;
    m_calibration->setWorkspace(path);
    loadSavedConfigs(m_job, path, [this](const std::vector<store::SavedModelConfig>& saved) {
        m_loading = true;
        const QStringList names = replaceSavedConfigs(m_preset, m_presetCount, saved);
        m_loading = false;
        Q_EMIT savedConfigsLoaded(names);
    });
}

void ConfigEditor::saveToWorkspace(const QString& name)
{
    if (m_workspace.isEmpty()) {
        Q_EMIT configSaved(name, tr("No workspace is open."));
        return;
    }
    const std::string ws = m_workspace.toStdString();
    const std::string json = model::toJson(config()).dump();
    const std::string key = name.toStdString();
    m_job->start<QString>(
        [ws, json, key](auto&) -> QString {
            try {
                store::Workspace w(ws);
                store::saveModelConfig(w.database(), key, json);
                return {};
            } catch (const std::exception& e) {
                return qs(e.what());
            }
        },
        [this, name](const QString& error) {
            m_problem->setText(error);
            m_problem->setVisible(!error.isEmpty());
            Q_EMIT configSaved(name, error);
            if (error.isEmpty())
                setWorkspace(m_workspace); // the list now offers it
        });
}
void ConfigEditor::setParallel(const QString& spec) { m_parallel->setText(spec); }

void ConfigEditor::setRecipe(const model::ParallelConfig& recipe) { m_recipe->set(recipe); }

void ConfigEditor::loadSized(const model::ModelConfig& config, const model::ParallelConfig& recipe,
                             const QString& parallel, const QString& hardware, const QString& attention)
{
    m_sizedRecipe = recipe;
    setHardware(hardware); // first: the attention kernels listed are the profile's
    m_calibration->setAttentionKernel(attention);
    setParallel(parallel);
    setRecipe(recipe);
    loadConfig(config);
}

void ConfigEditor::scheduleRecompute()
{
    if (!m_loading)
        m_recompute->start();
}

void ConfigEditor::recompute()
{
    m_report.reset();
    m_runCalibration.reset();
    m_runProblem.clear();
    m_problemText.clear();
    try {
        const auto c = config();
        if (c.layers <= 0 || c.dModel <= 0 || c.heads <= 0 || c.vocab <= 0)
            throw std::invalid_argument("layers, hidden size, heads and vocabulary must be positive");
        if (c.isMoe() && (c.moe.topK <= 0 || c.moe.topK > c.moe.experts || c.moe.expertWidth <= 0))
            throw std::invalid_argument("a MoE model needs 1 <= top-k <= experts and a positive expert width");
        model::ParallelConfig p;
        model::parseParallelSpec(m_parallel->text().trimmed().toStdString(), p);
        m_recipe->applyTo(p);
        p.seqLen = c.seqLen;
        // What the form has no control for, as the window that sized it had it (defaults otherwise); a
        // stage split only while the pipeline degree is the one it was made for.
        if (p.pp == m_sizedRecipe.pp) {
            p.firstStageLayers = m_sizedRecipe.firstStageLayers;
            p.lastStageLayers = m_sizedRecipe.lastStageLayers;
        }
        p.overlap = m_sizedRecipe.overlap;
        p.dpOverlap = m_sizedRecipe.dpOverlap;
        p.tpOverlap = m_sizedRecipe.tpOverlap;
        p.flashAttention = m_sizedRecipe.flashAttention;
        p.dropout = m_sizedRecipe.dropout;
        p.gradAccumulationFusion = m_sizedRecipe.gradAccumulationFusion;
        m_usedCalibration = m_calibration->calibration();
        auto req = m_calibration->request(c, p);
        req.inference.batch = m_decodeBatch->value();
        req.inference.contextTokens = c.seqLen;
        req.inference.promptTokens = c.seqLen;
        const model::SizingInputs in(req, *m_usedCalibration);
        const auto& rates = in.rates();
        m_hbmBytes = rates.hbmCapacityBytes;
        m_report = model::evaluate(req, in);
        // A measured run of this model calibrates the step's classes (size --calibrate-from).
        m_uncalibratedStep = m_report->step.stepSeconds;
        m_runCalibration = m_calibration->runCalibration(req, &m_runProblem);
        if (m_runCalibration)
            m_report->step = model::applyRunRates(m_report->step, m_runCalibration->rates, rates);
        m_bases = m_usedCalibration->bases(rates);
        m_attentionBasis = qs(model::attentionBasis(rates, c, p));
        m_attentionSummary = qs(model::attentionSummary(rates, c, p));
        for (const auto& b : m_bases)
            if (b.figure == "max achievable TFLOP/s") // the citation is the row's tooltip
                m_maxAchievable = qs(units::formatFlops(rates.maxAchievableFlops)) + QStringLiteral(" (") + qs(b.basis) +
                                  QLatin1Char(')'); // the citation: the picker's basis row
    } catch (const std::exception& e) {
        m_problemText = qs(e.what());
    }
    showReport();
    Q_EMIT reportChanged();
}

void ConfigEditor::showReport()
{
    m_problem->setText(m_problemText);
    m_problem->setVisible(!m_problemText.isEmpty());
    if (!m_report) {
        m_results->setTable({m_results->resultModel()->table().columns, {}, {}});
        m_findings->setTable({m_findings->resultModel()->table().columns, {}, {}});
        return;
    }
    const auto& r = *m_report;
    const auto& s = r.step;
    const double mem = s.memory.total();
    const std::string noFit = model::memoryFitProblem(mem, m_hbmBytes); // empty when it fits
    // A layout that does not fit cannot run: what it would reach must not read as a result.
    const QString ifItFit = noFit.empty() ? QString() : tr(" — cannot run: does not fit in memory");
    // The model's stated error band on this device, as ridgeline-cli size prints it.
    const model::ErrorBand band = model::modelErrorBand(r.params.experts > 0, m_calibration->hardwareId().toStdString(),
                                                          m_recipe->framework());
    struct Row
    {
        QString quantity, value;
        QString tip = {};     // when the value's tooltip says more than the value (a citation)
        QVariant number = {}; // the analysis value behind a single figure (count, FLOP, bytes, s, fraction)
    };
    std::vector<Row> rows{
        {tr("Total parameters"), qs(units::formatCount(r.params.total())), {}, r.params.total()},
        {tr("Active parameters per token"), qs(units::formatCount(r.params.active())), {}, r.params.active()},
        {tr("Forward FLOPs per token"), qs(units::formatFlop(r.forward.forward())), {}, r.forward.forward()},
        // In GiB, as the device reports its capacity and as the parts below.
        {tr("Memory per GPU"),
         qs(units::formatMemory(mem)) +
             (noFit.empty() ? QString() : QStringLiteral(" — ") + qs(noFit)),
         {},
         mem},
        {tr("Step time"), qs(units::formatTime(s.stepSeconds * 1e6)) + ifItFit, {}, s.stepSeconds},
        {tr("  expected error (validation table)"), qs(model::describe(band))},
        {tr("  mean error over those runs"), qs(model::describeBias(band))},
        {tr("  compute / exposed comm / bubble"),
         qs(units::formatTime(s.computeSeconds * 1e6)) + QStringLiteral(" / ") +
             qs(units::formatTime(s.exposedCommSeconds * 1e6)) + QStringLiteral(" / ") +
             qs(units::formatTime(s.bubbleSeconds * 1e6))},
        {tr("Training throughput"), qs(units::formatCount(s.tokensPerSecond)) + tr(" tokens/s") + ifItFit, {},
         s.tokensPerSecond},
        {tr("MFU"), percent(s.mfu) + ifItFit, {}, s.mfu},
        {tr("MFU vs max achievable"), percent(s.mfuMaxAchievable) + ifItFit, {}, s.mfuMaxAchievable},
        {tr("Collectives timed by"), qs(m_usedCalibration->collectiveBases(s))},
        {tr("GEMM efficiency from"), basisOf(m_bases, "GEMM efficiency")},
        // The citation goes to the tooltip; the cell keeps what timed it.
        {tr("Attention timed by"), m_attentionSummary, m_attentionBasis},
        {tr("Max achievable (GEMM cap)"), m_maxAchievable},
        {tr("Prefill (%1 tokens)").arg(r.inference.promptTokens), qs(units::formatTime(r.prefillSeconds * 1e6)), {},
         r.prefillSeconds},
        {tr("Decode per token (batch %1)").arg(r.inference.batch),
         qs(units::formatTime(r.decode.secondsPerToken * 1e6)) +
             (r.decode.memoryBound() ? tr(" (memory-bound)") : tr(" (compute-bound)")),
         {},
         r.decode.secondsPerToken},
    };
    // A row per memory part under the total (in GiB, as the total); the communicators' basis in a tooltip.
    {
        std::vector<Row> parts;
        for (int part = 0; part < model::kMemoryParts; ++part)
            if (const double bytes = model::memoryPart(s.memory, part); bytes > 0) {
                const QString value = qs(units::formatMemory(bytes));
                const std::string_view name = model::memoryPartName(part);
                const bool communication = name == "communication";
                QString tip;
                if (communication)
                    tip = value + tr(": NCCL/RCCL buffers of the communicators this layout uses, and DeepEP's with the flex dispatcher (%1)")
                                      .arg(qs(model::communicationBuffersBasis()));
                else if (name == "gradients") // why they may be twice the weights
                    tip = value + tr(": in the type the framework accumulates them in. Megatron-Core in bf16 or FP8 "
                                     "keeps fp32 main grads, 4 B a parameter (its default, "
                                     "--accumulate-allreduce-grads-in-fp32); recipes that reduce in bf16 (NeMo's and "
                                     "Megatron-Bridge's performance recipes) keep 2: ridgeline-cli size --grad-dtype bf16");
                // "communication" is one word wider than the quantity column at 1280 px: two words wrap.
                parts.push_back({communication ? tr("  comm. buffers") : QStringLiteral("  ") + QLatin1String(name.data()),
                                 value, tip, bytes});
            }
        const auto total = std::find_if(rows.begin(), rows.end(), [](const Row& row) { return row.quantity == tr("Memory per GPU"); });
        rows.insert(total + 1, parts.begin(), parts.end());
    }
    // Under the step time: the measured run it was calibrated from, or why the chosen run was not used.
    const auto stepRow = std::find_if(rows.begin(), rows.end(), [](const Row& row) { return row.quantity == tr("Step time"); });
    if (stepRow != rows.end() && m_runCalibration) {
        const auto& k = m_runCalibration->rates;
        QStringList tip{tr("The run (%1): measured %2, predicted %3; calibrated fit residual %4")
                            .arg(qs(model::parallelSpec(m_runCalibration->runLayout)),
                                 qs(units::formatTime(k.measuredRunSeconds * 1e6)),
                                 qs(units::formatTime(k.predictedRunSeconds * 1e6)),
                                 qs(units::formatPercent(k.residual, 1, true)))};
        for (const auto& moved : k.moved)
            tip << qs(moved);
        for (const auto& assumed : m_runCalibration->assumed)
            tip << tr("assumed: %1").arg(qs(assumed));
        QStringList factors;
        for (const auto& moved : k.moved)
            factors << qs(moved.substr(0, moved.find(" (")));
        const QString tipText = tip.join(QLatin1Char('\n'));
        rows.insert(std::next(stepRow), {{tr("  calibrated from"), qs(k.basis), tipText},
                                         {tr("  rates moved"), factors.join(QStringLiteral("; ")), tipText},
                                         {tr("  uncalibrated step"), qs(units::formatTime(m_uncalibratedStep * 1e6)),
                                          {}, m_uncalibratedStep}});
    } else if (stepRow != rows.end() && !m_runProblem.isEmpty()) {
        rows.insert(std::next(stepRow), Row{tr("  calibration from a run"), tr("not applied: %1").arg(m_runProblem)});
    }
    charts::ResultTable results{m_results->resultModel()->table().columns, {}, {}};
    for (const Row& row : rows)
        results.rows.push_back({valueCell(row.quantity, {}, {}), valueCell(row.value, row.number, row.tip)});
    m_results->setTable(std::move(results));
    charts::ResultTable findings{m_findings->resultModel()->table().columns, {}, {}};
    for (const auto& f : r.findings) {
        auto result = charts::textCell(QString::fromLatin1(model::toString(f.severity)));
        result.foreground = f.severity == model::RuleSeverity::Pass   ? QColor(0x1b, 0x7f, 0x3b)
                            : f.severity == model::RuleSeverity::Info ? QColor(0x1f, 0x5f, 0xa8)
                                                                      : QColor(0xb0, 0x00, 0x20);
        findings.rows.push_back({charts::textCell(qs(f.rule)), std::move(result), charts::textCell(qs(f.message)),
                                 charts::textCell(qs(f.proposal))});
    }
    m_findings->setTable(std::move(findings));
}

model::RuleOptions ConfigEditor::ruleOptions() const
{
    model::RuleOptions o;
    model::ParallelConfig p;
    try {
        model::parseParallelSpec(m_parallel->text().trimmed().toStdString(), p);
    } catch (const std::exception&) {
    }
    o.tp = p.tp;
    o.ep = p.ep;
    o.microBatch = m_recipe->microBatch();
    o.seqLen = m_seqLen->value();
    try {
        const auto rates = m_calibration->rates(m_recipe->dtype().toStdString());
        if (rates.computeUnits > 0)
            o.computeUnits = rates.computeUnits;
    } catch (const std::exception&) {
    }
    return o;
}

std::vector<model::WidthCandidate> ConfigEditor::fastWidths() const
{
    const auto c = config();
    return model::findFastWidthsFor(c, c.isMoe(), 0, ruleOptions());
}

QString ConfigEditor::problem() const { return m_problemText; }

QString ConfigEditor::resultText(const QString& quantity) const
{
    for (const auto& row : m_results->resultModel()->table().rows)
        if (row.size() > 1 && row[0].text == quantity)
            return row[1].text;
    return {};
}

int ConfigEditor::findingCount(model::RuleSeverity severity) const
{
    if (!m_report)
        return 0;
    return static_cast<int>(std::count_if(m_report->findings.begin(), m_report->findings.end(),
                                          [severity](const model::RuleFinding& f) { return f.severity == severity; }));
}
} // namespace rl
