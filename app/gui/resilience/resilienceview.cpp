#include "gui/resilience/resilienceview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include "goodputchart.h"
#include "jobtracker.h"
#include "resilience/failures.h"
#include "gui/resilience/resilienceresults.h"
#include "resulttableview.h"
#include "gui/sizing/savedconfigs.h"
#include "textconv.h"
#include "units/duration.h"
#include "units/units.h"
#include "tonelabel.h"

namespace rl {
namespace {
QLabel* errorLabel(const char* name)
{
    auto* l = new QLabel;
    l->setObjectName(QLatin1String(name));
    setLabelTone(l, LabelTone::Error);
    l->setWordWrap(true);
    l->setVisible(false);
    return l;
}

void setError(QLabel* label, const std::string& text)
{
    label->setText(qs(text));
    label->setVisible(!text.empty());
}

template <typename W>
W* named(W* w, const char* name, const QString& tip)
{
    w->setObjectName(QLatin1String(name));
    w->setToolTip(tip);
    return w;
}

QString sessionText(const Session& s) { return QStringLiteral("#%1 %2").arg(s.id).arg(qs(s.title)); }
} // namespace

ResilienceView::ResilienceView(QWidget* parent)
    : QWidget(parent), m_recompute(new QTimer(this)), m_job(new JobTracker(this)), m_sourcesJob(new JobTracker(this)),
      m_savedJob(new JobTracker(this))
{
    m_recompute->setSingleShot(true);
    m_recompute->setInterval(150); // one computation per burst of typing
    connect(m_recompute, &QTimer::timeout, this, &ResilienceView::recompute);

    auto* form = new QWidget;
    buildForm(form);
    auto* scroll = new QScrollArea;
    scroll->setWidget(form);
    scroll->setWidgetResizable(true);
    scroll->setMinimumWidth(450);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    m_results = new charts::ResultTableView;
    m_results->setObjectName(QStringLiteral("resilienceResults"));
    m_results->setTable(resilienceFigures({}));
    m_results->setSortingEnabled(false); // in sections, each under its title
    m_results->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Interactive);
    m_results->horizontalHeader()->setStretchLastSection(true);
    m_intervalChart = new charts::GoodputChart(views::GoodputChartKind::VsInterval);
    m_nodesChart = new charts::GoodputChart(views::GoodputChartKind::VsNodes);
    auto* chartRow = new QSplitter(Qt::Horizontal);
    chartRow->addWidget(m_intervalChart);
    chartRow->addWidget(m_nodesChart);
    auto* plan = new QSplitter(Qt::Vertical);
    plan->addWidget(m_results);
    plan->addWidget(chartRow);
    plan->setStretchFactor(0, 2);
    plan->setStretchFactor(1, 3);
    plan->setSizes({340, 520}); // the charts get the larger share

    auto* reshapePage = new QWidget;
    m_reshapeSummary = new QLabel(tr("Type a layout to reshape into (Reshape ▸ To layout)."));
    m_reshapeSummary->setObjectName(QStringLiteral("reshapeSummary"));
    m_reshapeSummary->setWordWrap(true);
    m_reshapeSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_reshape = new QTreeWidget;
    m_reshape->setObjectName(QStringLiteral("reshapeTree"));
    m_reshape->setHeaderLabels({tr("New rank / old file"), tr("Bytes read"), tr("Files / state"), tr("Slice")});
    m_reshape->setUniformRowHeights(true);
    auto* reshapeLayout = new QVBoxLayout(reshapePage);
    reshapeLayout->addWidget(m_reshapeSummary);
    reshapeLayout->addWidget(m_reshape, 1);

    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("resilienceTabs"));
    m_tabs->addTab(plan, tr("Plan"));
    m_tabs->addTab(reshapePage, tr("Reshape"));
    m_status = new QLabel;
    m_status->setTextFormat(Qt::PlainText); // errors quote file, model and session names
    m_status->setObjectName(QStringLiteral("resilienceStatus"));
    m_status->setWordWrap(true);
    auto* right = new QWidget;
    auto* rv = new QVBoxLayout(right);
    rv->setContentsMargins(0, 0, 0, 0);
    rv->addWidget(m_tabs, 1);
    rv->addWidget(m_status);

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(scroll);
    split->addWidget(right);
    split->setStretchFactor(1, 1);
    split->setSizes({460, 1040});
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split);

    connect(m_job, &JobTracker::jobStarted, this, [this] { m_status->setText(tr("Computing…")); });
    updateEnabled();
    scheduleRecompute();
}

void ResilienceView::buildForm(QWidget* formWidget)
{
    auto* outer = new QVBoxLayout(formWidget);
    const auto group = [outer](const QString& title) {
        auto* box = new QGroupBox(title);
        auto* f = new QFormLayout(box);
        f->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        outer->addWidget(box);
        return f;
    };

    // Model and layout: the picker the sizing window uses (presets, then the workspace's saved configs).
    auto* modelForm = group(tr("Model and layout"));
    m_model = named(new QComboBox, "resilienceModel",
                    tr("A published preset (resources/models), a configuration saved in this workspace, or a "
                       "config.json opened with …"));
    for (const auto& name : model::presetNames())
        m_model->addItem(qs(name));
    m_presetCount = m_model->count();
    m_model->setCurrentIndex(std::max(0, m_model->findText(QStringLiteral("llama-3-8b"))));
    auto* open = named(new QPushButton(tr("…")), "resilienceOpenConfig", tr("Open a config.json (Hugging Face or Ridgeline)"));
    auto* modelRow = new QHBoxLayout;
    modelRow->addWidget(m_model, 1);
    modelRow->addWidget(open);
    modelForm->addRow(tr("Model:"), modelRow);
    m_modelError = errorLabel("modelError");
    modelForm->addRow(m_modelError);
    m_parallel = named(new QLineEdit(QStringLiteral("tp=2,pp=2,dp=4")), "resilienceParallel",
                       tr("Parallel degrees, e.g. tp=8,pp=4,dp=16,ep=1 (dp, tp, pp, ep, cp); the product is the GPU count"));
    modelForm->addRow(tr("Layout:"), m_parallel);
    m_zero = named(new QSpinBox, "resilienceZero", tr("ZeRO stage: 1 shards the optimizer states over DP, 2 also "
                                                       "gradients, 3 also weights"));
    m_zero->setRange(0, 3);
    m_zero->setValue(1);
    modelForm->addRow(tr("ZeRO stage:"), m_zero);
    m_layoutError = errorLabel("layoutError");
    modelForm->addRow(m_layoutError);
    m_gpusPerNode = named(new QSpinBox, "resilienceGpusPerNode", tr("GPUs per node: failures are counted per node"));
    m_gpusPerNode->setRange(1, 64);
    m_gpusPerNode->setValue(8);
    m_gpusPerNode->setSuffix(tr(" GPUs"));
    modelForm->addRow(tr("Per node:"), m_gpusPerNode);
    m_optimizer = named(new QCheckBox(tr("Optimizer states (fp32, Adam)")), "resilienceOptimizer",
                        tr("fp32 master weights, Adam m and v: 12 B per parameter, as Megatron-LM and DeepSpeed save them"));
    m_optimizer->setChecked(true);
    m_gradients = named(new QCheckBox(tr("Gradients")), "resilienceGradients",
                        tr("Usually not saved: the next step rebuilds them"));
    m_spread = named(new QCheckBox(tr("Spread replicated states over DP")), "resilienceSpread",
                     tr("torch DCP / Megatron fully parallel save: every DP replica writes a share, instead of DP rank 0"));
    modelForm->addRow(tr("Saved:"), m_optimizer);
    modelForm->addRow(QString(), m_gradients);
    modelForm->addRow(QString(), m_spread);

    auto* storage = group(tr("Storage"));
    m_storage = named(new QComboBox, "resilienceStorage",
                      tr("Typed bandwidths, or a stored storage session (ridgeline-cli run io, fio or IOR import): its "
                         "best aggregate write and read at the largest file size"));
    m_storage->addItem(tr("Typed GB/s"), qint64(0));
    storage->addRow(tr("Source:"), m_storage);
    m_rates = named(new QLineEdit(QStringLiteral("10:20")), "resilienceRates",
                    tr("Aggregate write[:read] GB/s (1e9 B/s) of the whole job, e.g. 10:20"));
    storage->addRow(tr("Write:read GB/s:"), m_rates);
    m_perRank = named(new QLineEdit, "resiliencePerRank", tr("Optional per-rank write[:read] limit, GB/s"));
    m_perRank->setPlaceholderText(tr("no per-rank limit"));
    storage->addRow(tr("Per rank GB/s:"), m_perRank);
    m_storageError = errorLabel("storageError");
    storage->addRow(m_storageError);

    auto* failures = group(tr("Failures"));
    m_mtbf = named(new QComboBox, "resilienceMtbf",
                   tr("Node MTBF: typed, a published large-run failure rate, or an imported training log (its "
                      "restarts over its wall time)"));
    m_mtbf->addItem(tr("Typed per-node MTBF"), QStringLiteral("typed"));
    for (const auto& f : resilience::publishedFailureRates()) {
        m_mtbf->addItem(tr("Published: %1 (%2 h per node)").arg(qs(f.name)).arg(f.nodeMtbfHours(), 0, 'f', 0),
                        QString(QStringLiteral("table:") + qs(f.name)));
        m_mtbf->setItemData(m_mtbf->count() - 1,
                            qs(f.description + "; " + f.source + (f.note.empty() ? "" : "; " + f.note)),
                            Qt::ToolTipRole);
    }
    m_mtbf->setCurrentIndex(1);
    failures->addRow(tr("MTBF source:"), m_mtbf);
    m_mtbfHours = named(new QLineEdit(QStringLiteral("2000")), "resilienceMtbfHours",
                        tr("Per-node mean time between failures: hours, or 90d for days"));
    failures->addRow(tr("Node MTBF (h):"), m_mtbfHours);
    m_logNodes = named(new QSpinBox, "resilienceLogNodes", tr("Nodes of the logged job (its restarts are per job)"));
    m_logNodes->setRange(0, 100000);
    m_logNodes->setSpecialValueText(tr("the planned job's"));
    failures->addRow(tr("Logged job nodes:"), m_logNodes);
    m_mtbfError = errorLabel("mtbfError");
    failures->addRow(m_mtbfError);
    m_relaunch = named(new QDoubleSpinBox, "resilienceRelaunch",
                       tr("From a failure to training again before loading: scheduler, process start, NCCL init"));
    m_relaunch->setRange(0, 86400);
    m_relaunch->setDecimals(0);
    m_relaunch->setValue(300);
    m_relaunch->setSuffix(tr(" s"));
    failures->addRow(tr("Relaunch:"), m_relaunch);
    m_relaunchFromLog = named(new QCheckBox(tr("From the log's restart gaps")), "resilienceRelaunchFromLog",
                              tr("With a training log: the mean wall-clock gap before the first step after a restart"));
    m_relaunchFromLog->setChecked(true);
    failures->addRow(QString(), m_relaunchFromLog);

    auto* ckpt = group(tr("Checkpoint"));
    m_async = named(new QCheckBox(tr("Asynchronous (snapshot to host, then drain)")), "resilienceAsync",
                    tr("Training stops only for the device-to-host copy"));
    ckpt->addRow(m_async);
    m_snapshot = named(new QDoubleSpinBox, "resilienceSnapshot", tr("Device-to-host copy per GPU (PCIe Gen5 x16: ~25 usable)"));
    m_snapshot->setRange(0.1, 1000);
    m_snapshot->setValue(25);
    m_snapshot->setSuffix(tr(" GB/s"));
    ckpt->addRow(tr("Snapshot:"), m_snapshot);

    auto* reshape = group(tr("Reshape"));
    m_reshapeTo = named(new QLineEdit(QStringLiteral("tp=1,pp=2,dp=8")), "resilienceReshapeTo",
                        tr("Layout to load the checkpoint into, e.g. tp=4,pp=4,dp=32; empty: no reshape"));
    reshape->addRow(tr("To layout:"), m_reshapeTo);
    m_reshapeZero = named(new QSpinBox, "resilienceReshapeZero", tr("ZeRO stage of the new layout"));
    m_reshapeZero->setRange(0, 3);
    m_reshapeZero->setValue(1);
    reshape->addRow(tr("To ZeRO stage:"), m_reshapeZero);
    m_network = named(new QDoubleSpinBox, "resilienceNetwork",
                      tr("Per-rank network GB/s: also time reading once and scattering (0: not evaluated)"));
    m_network->setRange(0, 10000);
    m_network->setSuffix(tr(" GB/s"));
    m_network->setSpecialValueText(tr("not evaluated"));
    reshape->addRow(tr("Network:"), m_network);
    m_reshapeError = errorLabel("reshapeError");
    reshape->addRow(m_reshapeError);
    outer->addStretch(1);

    for (auto* e : {m_parallel, m_rates, m_perRank, m_mtbfHours, m_reshapeTo})
        connect(e, &QLineEdit::textChanged, this, &ResilienceView::scheduleRecompute);
    for (auto* s : {m_zero, m_gpusPerNode, m_logNodes, m_reshapeZero})
        connect(s, &QSpinBox::valueChanged, this, &ResilienceView::scheduleRecompute);
    for (auto* s : {m_relaunch, m_snapshot, m_network})
        connect(s, &QDoubleSpinBox::valueChanged, this, &ResilienceView::scheduleRecompute);
    for (auto* c : {m_optimizer, m_gradients, m_spread, m_relaunchFromLog, m_async})
        connect(c, &QCheckBox::toggled, this, &ResilienceView::scheduleRecompute);
    for (auto* c : {m_model, m_storage, m_mtbf}) {
        connect(c, &QComboBox::currentIndexChanged, this, &ResilienceView::updateEnabled);
        connect(c, &QComboBox::currentIndexChanged, this, &ResilienceView::scheduleRecompute);
    }
    connect(m_async, &QCheckBox::toggled, this, &ResilienceView::updateEnabled);
    connect(m_relaunchFromLog, &QCheckBox::toggled, this, &ResilienceView::updateEnabled);
    connect(open, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Model config"), {}, tr("JSON (*.json)"));
        if (f.isEmpty())
            return;
        m_model->addItem(QFileInfo(f).fileName(), QString(QStringLiteral("file:") + f));
        m_model->setCurrentIndex(m_model->count() - 1);
    });
}

void ResilienceView::updateEnabled()
{
    const bool typedStorage = m_storage->currentData().toLongLong() == 0;
    m_rates->setEnabled(typedStorage);
    m_perRank->setEnabled(typedStorage);
    const QString mtbf = m_mtbf->currentData().toString();
    const bool log = mtbf.startsWith(QLatin1String("log:"));
    m_mtbfHours->setEnabled(mtbf == QLatin1String("typed"));
    m_logNodes->setEnabled(log);
    m_relaunchFromLog->setEnabled(log);
    m_relaunch->setEnabled(!log || !m_relaunchFromLog->isChecked());
    m_snapshot->setEnabled(m_async->isChecked());
}

void ResilienceView::setWorkspace(const QString& path)
{
    m_workspace = path;
    m_sourcesJob->start<ResilienceSources>(
        [ws = path.toStdString()](auto&) { return readResilienceSources(ws); },
        [this](const ResilienceSources& s) { showSources(s); });
    loadSavedConfigs(m_savedJob, path, [this](const std::vector<store::SavedModelConfig>& saved) {
        const QString current = m_model->currentText();
        const QSignalBlocker block(m_model);
        // Opened files stay after the saved configurations; only the saved ones are replaced.
        QList<QPair<QString, QVariant>> opened;
        for (int i = m_presetCount; i < m_model->count(); ++i)
            if (m_model->itemData(i).toString().startsWith(QLatin1String("file:")))
                opened.append({m_model->itemText(i), m_model->itemData(i)});
        replaceSavedConfigs(m_model, m_presetCount, saved);
        for (const auto& [text, data] : opened)
            m_model->addItem(text, data);
        m_model->setCurrentIndex(std::max(0, m_model->findText(current)));
    });
}

void ResilienceView::showSources(const ResilienceSources& s)
{
    const qint64 storage = m_storage->currentData().toLongLong();
    const QString mtbf = m_mtbf->currentData().toString();
    {
        const QSignalBlocker b1(m_storage), b2(m_mtbf);
        while (m_storage->count() > 1)
            m_storage->removeItem(1);
        for (const auto& session : s.storage)
            m_storage->addItem(tr("Session %1").arg(sessionText(session)), qint64(session.id));
        for (int i = m_mtbf->count() - 1; i >= 0; --i)
            if (m_mtbf->itemData(i).toString().startsWith(QLatin1String("log:")))
                m_mtbf->removeItem(i);
        for (const auto& session : s.trainingLogs)
            m_mtbf->addItem(tr("Training log %1").arg(sessionText(session)),
                            QStringLiteral("log:%1").arg(session.id));
        m_storage->setCurrentIndex(std::max(0, m_storage->findData(storage)));
        m_mtbf->setCurrentIndex(std::max(0, m_mtbf->findData(mtbf)));
    }
    if (!s.error.empty())
        m_status->setText(tr("Cannot read the workspace's sessions: %1").arg(qs(s.error)));
    updateEnabled();
    scheduleRecompute();
    emit sourcesLoaded();
}

void ResilienceView::setSettings(Settings* settings)
{
    m_intervalChart->setSettings(settings);
    m_nodesChart->setSettings(settings);
}

ResilienceRequest ResilienceView::request() const
{
    ResilienceRequest r;
    r.workspace = m_workspace.toStdString();
    const int index = m_model->currentIndex();
    const QString data = m_model->itemData(index).toString();
    try {
        if (data.startsWith(QLatin1String("file:")))
            r.config = model::loadModelConfigFile(data.mid(5).toStdString());
        else if (index >= m_presetCount && !data.isEmpty()) // saved in the workspace, as model JSON
            r.config = model::fromJson(nlohmann::json::parse(data.toStdString()), m_model->currentText().toStdString());
        else if (index >= 0)
            r.config = model::loadPreset(m_model->currentText().toStdString());
    } catch (const std::exception& e) {
        r.configError = e.what();
    }
    r.parallel = m_parallel->text().trimmed().toStdString();
    r.zero = m_zero->value();
    r.contents.optimizer = m_optimizer->isChecked();
    r.contents.gradients = m_gradients->isChecked();
    r.contents.spreadReplicated = m_spread->isChecked();
    r.storageSession = m_storage->currentData().toLongLong();
    r.typedRates = m_rates->text().trimmed().toStdString();
    r.perRankRates = m_perRank->text().trimmed().toStdString();
    const QString mtbf = m_mtbf->currentData().toString();
    if (mtbf.startsWith(QLatin1String("table:"))) {
        r.mtbf = ResilienceRequest::Mtbf::Table;
        r.tableName = mtbf.mid(6).toStdString();
    } else if (mtbf.startsWith(QLatin1String("log:"))) {
        r.mtbf = ResilienceRequest::Mtbf::Log;
        r.logSession = mtbf.mid(4).toLongLong();
    } else {
        r.mtbf = ResilienceRequest::Mtbf::Typed;
    }
    r.typedMtbfHours = m_mtbfHours->text().trimmed().toStdString();
    r.logNodes = m_logNodes->value();
    r.gpusPerNode = m_gpusPerNode->value();
    r.relaunchS = m_relaunch->value();
    r.relaunchFromLog = m_relaunchFromLog->isChecked();
    r.async = m_async->isChecked();
    r.snapshotGBs = m_snapshot->value();
    r.reshapeTo = m_reshapeTo->text().trimmed().toStdString();
    r.reshapeZero = m_reshapeZero->value();
    r.networkGBs = m_network->value();
    return r;
}

bool ResilienceView::isComputing() const { return m_job->isRunning() || m_recompute->isActive(); }

void ResilienceView::scheduleRecompute() { m_recompute->start(); }

void ResilienceView::recompute()
{
    // The goodput-vs-nodes sweep re-plans the model at 15 sizes, and sessions are read from SQLite:
    // both on a worker; a newer edit supersedes a running computation.
    m_job->start<ResilienceOutcome>([r = request()](auto&) { return computeResilience(r); },
                                    [this](ResilienceOutcome o) { showOutcome(std::move(o)); });
}

void ResilienceView::showOutcome(ResilienceOutcome o)
{
    setError(m_modelError, o.configError);
    setError(m_layoutError, o.layoutError);
    setError(m_storageError, o.storageError);
    setError(m_mtbfError, o.mtbfError);
    setError(m_reshapeError, o.reshapeError);
    m_results->setTable(resilienceFigures(o));
    if (o.plan) {
        const std::string basis = "storage: " + o.inputs.storage.source + "; MTBF: " + o.inputs.mtbfSource;
        m_intervalChart->setPlan(*o.plan, o.subject, basis);
        m_nodesChart->setPlan(*o.plan, o.subject, basis);
        m_status->setText(tr("%1: goodput %2 at a checkpoint every %3.")
                              .arg(qs(o.subject), qs(units::formatPercent(o.plan->goodput, 2)),
                                   qs(units::formatDuration(o.plan->intervalS))));
    } else {
        const QString why = tr("No plan: %1")
                                .arg(!o.planError.empty() ? qs(o.planError)
                                                          : tr("an input is not valid (see the messages by the fields)"));
        m_intervalChart->clear(why);
        m_nodesChart->clear(why);
        m_status->setText(why);
    }
    const QString summary = showReshape(m_reshape, o);
    m_reshapeSummary->setText(!summary.isEmpty() ? summary
                              : !o.reshapeError.empty() ? tr("No reshape: %1").arg(qs(o.reshapeError))
                                                        : tr("Type a layout to reshape into (Reshape ▸ To layout)."));
    m_outcome = std::move(o);
    emit planShown();
}

QString ResilienceView::resultText(const QString& quantity) const
{
    for (const auto& row : m_results->resultModel()->table().rows)
        if (row.size() > 1 && row[0].text == quantity)
            return row[1].text;
    return {};
}

QString ResilienceView::basisText(const QString& quantity) const
{
    for (const auto& row : m_results->resultModel()->table().rows)
        if (row.size() > 2 && row[0].text == quantity)
            return row[2].text;
    return {};
}
} // namespace rl
