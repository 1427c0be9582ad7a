#include "gui/traces/predictedvsmeasuredpanel.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>

#include <nlohmann/json.hpp>

#include "calibrationpicker.h"
#include "jobtracker.h"
#include "resulttableview.h"
#include "gui/sizing/savedconfigs.h"
#include "model/calibration.h"
#include "model/modelconfig.h"
#include "store/modelconfigs.h"
#include "store/workspace.h"
#include "textconv.h"
#include "tonelabel.h"

namespace rl {
namespace {
// How a comparison row is shown: seconds as ms, fractions as %, anything else in its own unit.
struct ShownUnit
{
    double scale = 1;
    QString name;
};

ShownUnit shownUnit(const model::ComparisonRow& r)
{
    if (r.unit == "s")
        return {1e3, QStringLiteral("ms")};
    if (r.unit.empty())
        return {100, QStringLiteral("%")};
    return {1, qs(r.unit)};
}

// Two lines, "Step time\n(ms)", so six columns fit; the full name is the header's tooltip.
QString columnTitle(const model::ComparisonRow& r)
{
    static const std::map<std::string, const char*> shortNames{
        {"exposed communication", QT_TRANSLATE_NOOP("PredictedVsMeasuredPanel", "Exposed\ncomm.")},
        {"idle and bubble", QT_TRANSLATE_NOOP("PredictedVsMeasuredPanel", "Idle +\nbubble")},
        {"TFLOP/s per GPU", QT_TRANSLATE_NOOP("PredictedVsMeasuredPanel", "TFLOP/s\nper GPU")},
        {model::kComputeGemmRow, QT_TRANSLATE_NOOP("PredictedVsMeasuredPanel", "GEMM,\nattn.")},
        {model::kComputeOtherRow, QT_TRANSLATE_NOOP("PredictedVsMeasuredPanel", "Other\nkernels")}};
    const auto it = shortNames.find(r.quantity);
    QString name = it != shortNames.end() ? PredictedVsMeasuredPanel::tr(it->second) : qs(r.quantity);
    if (!name.isEmpty() && name.front().isLower())
        name.front() = name.front().toUpper();
    const QString unit = shownUnit(r).name;
    return name.contains(unit) ? name : name + QStringLiteral("\n(") + unit + QChar(u')');
}

// Enough digits for a 40 µs step and a 4 s one alike.
QString number(double v, bool signedValue = false)
{
    const double a = std::abs(v);
    const int decimals = a >= 100 ? 1 : a >= 1 ? 2 : 3;
    const QString text = QString::number(v, 'f', decimals);
    return signedValue && v >= 0 ? QStringLiteral("+") + text : text;
}

// The analysis value (seconds or fraction) behind the text, for sorting, copy and tests.
charts::ResultCell cell(const QString& text, double raw, const QString& tip)
{
    auto c = charts::numberCell(text, raw);
    c.tip = tip;
    return c;
}
} // namespace

PredictedVsMeasuredPanel::PredictedVsMeasuredPanel(QWidget* parent)
    : QWidget(parent), m_recompute(new QTimer(this)), m_savedJob(new JobTracker(this))
{
    m_recompute->setSingleShot(true);
    m_recompute->setInterval(0); // one evaluation per event-loop pass of edits
    connect(m_recompute, &QTimer::timeout, this, &PredictedVsMeasuredPanel::recompute);

    m_config = new QComboBox;
    m_config->setObjectName(QStringLiteral("vsModelConfig"));
    m_config->setToolTip(tr("The model that was trained: a published preset, or a configuration saved in this "
                            "workspace (Tools ▸ Sizing model ▸ Save in workspace)"));
    for (const auto& name : model::presetNames())
        m_config->addItem(qs(name));
    m_presetCount = m_config->count();
    m_config->setCurrentIndex(std::max(0, m_config->findText(QStringLiteral("llama-3-8b"))));

    m_calibration = new CalibrationPicker;
    m_hardware = m_calibration->hardwareCombo();
    m_hardware->setObjectName(QStringLiteral("vsHardware"));
    m_hardware->setToolTip(tr("The GPU the run used: peak TFLOP/s, HBM and links of a hardware profile"));

    m_parallel = new QLineEdit(QStringLiteral("dp=8"));
    m_parallel->setObjectName(QStringLiteral("vsParallel"));
    m_parallel->setToolTip(tr("The run's parallel degrees, e.g. dp=8 or dp=16,tp=8,pp=2 (dp, tp, pp, ep, cp). "
                              "Set to dp=<ranks> when a trace is shown, until you edit it."));
    auto spin = [](const QString& name, int min, int max, int value, const QString& tip) {
        auto* s = new QSpinBox;
        s->setObjectName(name);
        s->setRange(min, max);
        s->setValue(value);
        s->setToolTip(tip);
        s->setKeyboardTracking(false);
        return s;
    };
    // Defaults as ridgeline-cli vs-measured has them, so both give the same numbers.
    m_microBatch = spin(QStringLiteral("vsMicroBatch"), 1, 4096, 1, tr("Sequences per micro-batch per data-parallel rank"));
    m_seqLen = spin(QStringLiteral("vsSeqLen"), 1, 1 << 22, 4096, tr("Training sequence length, tokens"));
    m_zero = spin(QStringLiteral("vsZero"), 0, 3, 1, tr("ZeRO stage: 0 none, 1 optimizer, 2 + gradients, 3 + weights "
                                                      "(changes the data-parallel collectives)"));

    m_defaults = {m_parallel->text(), m_microBatch->value(), m_seqLen->value(), m_hardware->currentText()};

    auto* form = new QFormLayout;
    form->addRow(tr("Model:"), m_config);
    form->addRow(tr("Parallel layout:"), m_parallel);
    form->addRow(tr("Micro-batch:"), m_microBatch);
    form->addRow(tr("Sequence length:"), m_seqLen);
    form->addRow(tr("ZeRO stage:"), m_zero);
    auto* calibrationBox = new QGroupBox(tr("Calibration"));
    calibrationBox->setToolTip(tr("As ridgeline-cli vs-measured with --collectives and --gemm-session: without "
                                  "sessions, GEMM efficiency by shape (capped at the device's max-achievable rate) "
                                  "and collectives from the profile's links"));
    auto* calibrationLayout = new QVBoxLayout(calibrationBox);
    calibrationLayout->setContentsMargins(4, 4, 4, 4);
    calibrationLayout->addWidget(m_calibration);
    form->addRow(calibrationBox);
    auto* inputs = new QWidget;
    auto* column = new QVBoxLayout(inputs); // the form at its natural height: spread out, its rows drifted apart
    column->setContentsMargins(0, 0, 0, 0);
    column->addLayout(form);
    column->addStretch(1);
    inputs->setMaximumWidth(340);

    m_source = new QLabel;
    m_source->setObjectName(QStringLiteral("vsSource"));
    m_source->setWordWrap(true);
    m_source->setTextFormat(Qt::PlainText); // names the session by its title
    m_source->setToolTip(tr("Which session is measured and how its steps are reduced to one"));
    m_inputsLabel = new QLabel;
    m_inputsLabel->setObjectName(QStringLiteral("vsInputs"));
    m_inputsLabel->setWordWrap(true);
    m_inputsLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_inputsLabel->setToolTip(tr("The prediction models the measured run: what the log or trace states about its "
                                 "layout, batch, sequence length and device is used unless you edit that field; "
                                 "the rest is assumed"));
    m_problem = new QLabel;
    m_problem->setTextFormat(Qt::PlainText); // errors quote file, model and session names
    m_problem->setObjectName(QStringLiteral("vsProblem"));
    setLabelTone(m_problem, LabelTone::Error);
    m_problem->setWordWrap(true);
    m_problem->hide();
    m_table = new charts::ResultTableView;
    m_table->setObjectName(QStringLiteral("vsTable"));
    m_table->setSortingEnabled(false); // four fixed rows: predicted, measured, their gap and ratio
    m_table->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_table->verticalHeader()->setVisible(true);
    // Columns as wide as their header and figures, scrolled sideways when the panel is narrower:
    // stretched, a 1280x720 window clipped "Step time" and cut a trace's figures to "86....".
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setToolTip(tr("The sizing model's step next to the measured one; n/a where the source does not "
                           "record a quantity (a training log has no breakdown)"));
    m_table->setMaximumHeight(m_table->verticalHeader()->defaultSectionSize() * (RowCount + 3));
    m_gaps = new QLabel;
    m_gaps->setObjectName(QStringLiteral("vsGaps"));
    m_gaps->setWordWrap(true);
    m_gaps->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_gaps->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_gaps->setToolTip(tr("Time components ordered by how far the measurement is from the prediction"));

    auto* right = new QVBoxLayout;
    right->addWidget(m_source);
    right->addWidget(m_inputsLabel);
    right->addWidget(m_problem);
    right->addWidget(m_table);
    right->addWidget(m_gaps, 1);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(inputs);
    layout->addLayout(right, 1);

    connect(m_config, &QComboBox::currentIndexChanged, this, &PredictedVsMeasuredPanel::scheduleRecompute);
    connect(m_calibration, &CalibrationPicker::calibrationChanged, this, &PredictedVsMeasuredPanel::scheduleRecompute);
    // A field changed by anything but the session's own facts is the user's: it then wins.
    for (QObject* field : std::initializer_list<QObject*>{m_hardware, m_microBatch, m_seqLen}) {
        const auto mark = [this, field] {
            if (!m_applyingRun)
                field->setProperty("edited", true);
        };
        if (auto* combo = qobject_cast<QComboBox*>(field))
            connect(combo, &QComboBox::currentIndexChanged, this, mark);
        else
            connect(static_cast<QSpinBox*>(field), &QSpinBox::valueChanged, this, mark);
    }
    connect(m_parallel, &QLineEdit::textChanged, this, &PredictedVsMeasuredPanel::scheduleRecompute);
    connect(m_parallel, &QLineEdit::textEdited, this, [this] { m_parallel->setProperty("edited", true); });
    for (QSpinBox* s : {m_microBatch, m_seqLen, m_zero})
        connect(s, &QSpinBox::valueChanged, this, &PredictedVsMeasuredPanel::scheduleRecompute);
    showComparison();
}

void PredictedVsMeasuredPanel::setSession(const charts::TraceChartData& data)
{
    m_data = data;
    m_measured.reset();
    m_source->clear();
    if (!data.isTrace() && !data.isTrainingLog()) {
        scheduleRecompute();
        return;
    }
    try {
        m_measured = model::measuredFromSession(data.session, data.steps, data.trainSteps);
        m_source->setText(tr("Session %1, %2 — measured: %3")
                              .arg(data.session.id)
                              .arg(qs(data.session.title), qs(m_measured->source)));
    } catch (const std::exception& e) {
        m_source->setText(tr("Session %1, %2 — %3").arg(data.session.id).arg(qs(data.session.title), qs(e.what())));
    }
    // What the session states about its run: a Megatron log its layout, batch and length, a file
    // name or a trace's kernel names the device; a trace how many ranks ran.
    m_run = model::measuredRunOf(data.session);
    if (data.isTrace()) {
        std::vector<std::string> names;
        for (const auto& k : data.kernels)
            names.push_back(k.name);
        model::takeDeviceFromKernelNames(m_run, names);
        if (const auto ranks = charts::ranksOf(data.steps); !ranks.empty() && m_run.worldSize == 0)
            m_run.worldSize = static_cast<int>(ranks.size());
    }
    applyRun();
    scheduleRecompute();
}

model::UserSet PredictedVsMeasuredPanel::userSet() const
{
    return {m_parallel->property("edited").toBool(), m_microBatch->property("edited").toBool(),
            m_seqLen->property("edited").toBool(), m_hardware->property("edited").toBool()};
}

void PredictedVsMeasuredPanel::applyRun()
{
    std::vector<std::string> ids;
    for (int i = 0; i < m_hardware->count(); ++i)
        ids.push_back(m_hardware->itemText(i).toStdString());
    // What the session does not state is the panel's default, never what the previous session set:
    // the assumed inputs must not depend on what was viewed before (a log's micro-batch of 4 made a
    // trace viewed next show twice its MFU). Only what the user typed carries over.
    const model::UserSet user = userSet();
    model::ParallelConfig base;
    try {
        model::parseParallelSpec((user.layout ? m_parallel->text().trimmed() : m_defaults.parallel).toStdString(), base);
    } catch (const std::exception&) {
        // an unparsable layout stays as typed; recompute names the problem
    }
    base.microBatch = user.microBatch ? m_microBatch->value() : m_defaults.microBatch;
    base.seqLen = user.seqLen ? m_seqLen->value() : m_defaults.seqLen;
    const QString hardware = user.hardware ? m_hardware->currentText() : m_defaults.hardware;
    const auto in = model::applyMeasuredRun(m_run, base, hardware.toStdString(), ids, user);
    m_applyingRun = true;
    if (!user.layout)
        m_parallel->setText(qs(model::parallelSpec(in.parallel)));
    if (!user.microBatch)
        m_microBatch->setValue(in.parallel.microBatch);
    if (!user.seqLen)
        m_seqLen->setValue(in.parallel.seqLen);
    if (!user.hardware)
        m_hardware->setCurrentIndex(std::max(0, m_hardware->findText(in.hardware.empty() ? hardware : qs(in.hardware))));
    m_applyingRun = false;
}

void PredictedVsMeasuredPanel::setWorkspace(const QString& path)
{
    m_calibration->setWorkspace(path);
    loadSavedConfigs(m_savedJob, path, [this](const std::vector<store::SavedModelConfig>& saved) {
        const QString current = m_config->currentText();
        const QSignalBlocker block(m_config);
        const QStringList names = replaceSavedConfigs(m_config, m_presetCount, saved);
        m_config->setCurrentIndex(std::max(0, m_config->findText(current)));
        scheduleRecompute();
        emit savedConfigsLoaded(names);
    });
}

void PredictedVsMeasuredPanel::setModelConfig(const QString& name) { m_config->setCurrentIndex(m_config->findText(name)); }
void PredictedVsMeasuredPanel::setHardware(const QString& id) { m_hardware->setCurrentIndex(m_hardware->findText(id)); }
void PredictedVsMeasuredPanel::setMicroBatch(int sequences) { m_microBatch->setValue(sequences); }
void PredictedVsMeasuredPanel::setSequenceLength(int tokens) { m_seqLen->setValue(tokens); }

void PredictedVsMeasuredPanel::setParallel(const QString& spec)
{
    m_parallel->setProperty("edited", true);
    m_parallel->setText(spec);
}

void PredictedVsMeasuredPanel::scheduleRecompute() { m_recompute->start(); }

model::ModelConfig PredictedVsMeasuredPanel::chosenConfig() const
{
    const int index = m_config->currentIndex();
    if (index < 0)
        throw std::invalid_argument(tr("choose a model configuration").toStdString());
    const QVariant saved = m_config->itemData(index);
    const std::string name = m_config->itemText(index).toStdString();
    if (saved.isValid()) // saved in the workspace as the model's own JSON
        return model::fromJson(nlohmann::json::parse(saved.toString().toStdString()), "workspace config '" + name + "'");
    return model::loadPreset(name);
}

void PredictedVsMeasuredPanel::recompute()
{
    m_comparison.reset();
    m_problemText.clear();
    try {
        if (!m_data.isTrace() && !m_data.isTrainingLog())
            throw std::invalid_argument(tr("Select a trace or training-log session.").toStdString());
        if (!m_measured)
            throw std::invalid_argument(tr("Nothing to compare: the session has no timed steps.").toStdString());
        if (m_hardware->currentIndex() < 0)
            throw std::invalid_argument(tr("No hardware profile to choose (resources/hardware is missing).").toStdString());
        const auto config = chosenConfig();
        model::ParallelConfig base;
        base.microBatch = m_microBatch->value();
        base.seqLen = m_seqLen->value();
        base.zeroStage = m_zero->value();
        base = model::parallelLayout(config, m_parallel->text().trimmed().toStdString(), base);
        // The fields already hold the run's values where the user left them; this adds the micro-
        // batches per step from the global batch and says which inputs came from where.
        std::vector<std::string> ids;
        for (int i = 0; i < m_hardware->count(); ++i)
            ids.push_back(m_hardware->itemText(i).toStdString());
        m_inputs = model::applyMeasuredRun(m_run, base, m_hardware->currentText().toStdString(), ids, userSet());
        m_inputs.assumed.insert(m_inputs.assumed.begin(), "model " + config.name);
        const auto layout = model::parallelLayout(config, model::parallelSpec(m_inputs.parallel), m_inputs.parallel);
        const auto calibration = m_calibration->calibration();
        const auto sized = model::evaluate(m_calibration->request(config, layout), *calibration);
        const auto& rates = sized.rates;
        const auto& report = sized.report;
        // Every figure's basis among the assumptions: datasheet, stated default or which session.
        for (auto& a : calibration->assumptions(rates, report.step))
            m_inputs.assumed.push_back(std::move(a));
        m_comparison = model::comparePrediction(report, *m_measured);
    } catch (const std::exception& e) {
        m_problemText = qs(e.what());
    }
    showComparison();
    emit comparisonChanged();
}

void PredictedVsMeasuredPanel::showComparison()
{
    const auto join = [](const std::vector<std::string>& items) {
        QStringList out;
        for (const auto& i : items)
            out << qs(i).toHtmlEscaped();
        return out.join(QStringLiteral("; "));
    };
    m_inputsLabel->setText(!m_comparison ? QString()
                                         : tr("<b>From the measurement:</b> %1<br><b>Assumed:</b> %2")
                                               .arg(m_inputs.taken.empty() ? tr("nothing (the session does not state "
                                                                                "its configuration)")
                                                                           : join(m_inputs.taken),
                                                    join(m_inputs.assumed)));
    m_problem->setText(m_problemText);
    m_problem->setVisible(!m_problemText.isEmpty());
    // Transposed: a column per quantity, a row each for predicted, measured, gap and ratio.
    charts::ResultTable table;
    table.rowTitles = {tr("Predicted"), tr("Measured"), tr("Measured − predicted"), tr("Measured / predicted")};
    m_gaps->clear();
    if (!m_comparison) {
        m_table->setTable(std::move(table));
        return;
    }
    const auto& rows = m_comparison->rows;
    table.rows.assign(RowCount, std::vector<charts::ResultCell>(rows.size()));
    const QString na = tr("n/a");
    for (std::size_t col = 0; col < rows.size(); ++col) {
        const auto& r = rows[col];
        const ShownUnit unit = shownUnit(r);
        table.columns.push_back({columnTitle(r), qs(r.quantity)});
        table.rows[PredictedRow][col] =
            cell(number(r.predicted * unit.scale), r.predicted, tr("The sizing model's %1").arg(qs(r.quantity)));
        if (std::isnan(r.measured)) {
            const QString why = tr("The session does not record %1").arg(qs(r.quantity));
            for (const int row : {MeasuredRow, GapRow, RatioRow})
                table.rows[std::size_t(row)][col] = cell(na, r.measured, why);
            continue;
        }
        table.rows[MeasuredRow][col] = cell(number(r.measured * unit.scale), r.measured, qs(m_measured->source));
        table.rows[GapRow][col] = cell(number(r.gap() * unit.scale, true), r.gap(),
                                       tr("Positive: the run took more (or reached more) than predicted"));
        const double ratio = r.predicted != 0 ? r.measured / r.predicted : std::nan("");
        table.rows[RatioRow][col] = cell(std::isfinite(ratio) ? QString::number(ratio, 'f', 2) + QChar(u'×') : na, ratio,
                                         tr("Measured divided by predicted"));
    }
    m_table->setTable(std::move(table));
    QStringList gaps;
    for (const auto& g : m_comparison->largestGaps)
        gaps << QStringLiteral("<li>%1</li>").arg(qs(g).toHtmlEscaped());
    QString problems;
    for (const auto& p : m_comparison->problems)
        problems += tr("<p><b>Not shown:</b> %1</p>").arg(qs(p).toHtmlEscaped());
    m_gaps->setText(problems + (gaps.isEmpty() ? tr("The session has no time breakdown to rank gaps by (training logs "
                                                    "give step time, MFU and TFLOP/s only).")
                                               : tr("<b>Largest gaps</b><ol>%1</ol>").arg(gaps.join(QString()))));
}
} // namespace rl
