#include "gui/sizing/planwindow.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <variant>

#include "calibrationpicker.h"
#include "jobtracker.h"
#include "model/hardwareprofileloader.h"
#include "plan/layout.h"
#include "plan/layoutspace.h"
#include "planparetochart.h"
#include "planresultmodel.h"
#include "resulttableview.h"
#include "gui/sizing/frameworkcombo.h"
#include "gui/sizing/plantext.h"
#include "gui/sizing/savedconfigs.h"
#include "textconv.h"
#include "units/units.h"
#include "tonelabel.h"

namespace rl {
namespace {
using Outcome = std::variant<plan::PlanResult, QString>;
constexpr int kPathRole = Qt::UserRole + 1; // a model opened from a file: its path (what ridgeline-cli takes)

QLabel* errorLabel(const char* name)
{
    auto* l = new QLabel;
    l->setObjectName(QLatin1String(name));
    l->setTextFormat(Qt::PlainText); // quotes what was typed
    l->setWordWrap(true);
    setLabelTone(l, LabelTone::Error);
    l->setVisible(false);
    return l;
}

QString dimensionList()
{
    QStringList names;
    for (int d = 0; d < plan::kDimCount; ++d)
        names << QLatin1String(plan::dimName(plan::Dim(d)));
    return names.join(QLatin1Char(' '));
}

// The Left out tab: a row per rule broken or memory part that overflowed, with how many layouts.
constexpr int LeftOutFollowsColumn = 2;
std::vector<charts::ResultColumn> leftOutColumns()
{
    return {{PlanWindow::tr("left out because"), PlanWindow::tr("The first legality rule a layout breaks, or the "
                                                                "largest memory part of one that does not fit")},
            {PlanWindow::tr("layouts"),
             PlanWindow::tr("How many combinations were left out for this reason (a count)")},
            {PlanWindow::tr("follows"), PlanWindow::tr("The framework check or memory headroom the reason follows")}};
}
} // namespace

PlanWindow::PlanWindow(QWidget* parent)
    : QWidget(parent), m_job(new JobTracker(this)), m_savedJob(new JobTracker(this))
{
    m_model = new PlanResultModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(PlanResultModel::SortRole);

    m_run = new QPushButton(tr("Search"));
    m_run->setObjectName(QStringLiteral("planRun"));
    m_run->setToolTip(tr("Enumerate every layout of the space in the background and rank those that fit (a new "
                         "search replaces a running one)"));
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setObjectName(QStringLiteral("planCancel"));
    m_cancel->setToolTip(tr("Stop the search"));
    m_cancel->setEnabled(false);
    m_open = new QPushButton(tr("Open in Sizing"));
    m_open->setObjectName(QStringLiteral("planOpen"));
    m_open->setToolTip(tr("Load the selected layout into the Sizing window's config editor: the same model, device, "
                          "layout and recipe, so it shows the same step time"));
    m_open->setEnabled(false);
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("planProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setFormat(QStringLiteral("%p %"));
    m_progress->setVisible(false);
    m_status = new QLabel(tr("Choose a model and a cluster and press Search."));
    m_status->setObjectName(QStringLiteral("planStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_band = new QLabel;
    m_band->setObjectName(QStringLiteral("planBand"));
    m_band->setTextFormat(Qt::PlainText);
    m_band->setWordWrap(true);
    m_band->setToolTip(tr("The validation tables' error of the sizing model for this kind of model on this device "
                          "(Tools > Model validation)"));
    m_yoursLine = new QLabel;
    m_yoursLine->setObjectName(QStringLiteral("planYoursLine"));
    m_yoursLine->setTextFormat(Qt::PlainText);
    m_yoursLine->setWordWrap(true);
    m_yoursLine->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_yoursLine->setVisible(false);

    m_leftOut = new charts::ResultTableView;
    m_leftOut->setObjectName(QStringLiteral("planLeftOut"));
    m_leftOut->setTable({leftOutColumns(), {}, {}});
    m_leftOut->horizontalHeader()->setSectionResizeMode(LeftOutFollowsColumn, QHeaderView::Interactive);
    m_leftOut->horizontalHeader()->setStretchLastSection(true);
    m_leftOut->setToolTip(tr("Why each combination that was not ranked was left out: the first legality rule it "
                             "breaks (with the check it follows) or the largest memory part of a layout that does "
                             "not fit"));

    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("planTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(PlanResultModel::StepColumn, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    m_table->setToolTip(tr("The ranked layouts, fastest first; click a header to sort, select a row for its "
                           "breakdown and launch arguments"));

    m_chart = new charts::PlanParetoChart;
    m_chart->setMinimumHeight(300);
    m_details = new QPlainTextEdit;
    m_details->setObjectName(QStringLiteral("planDetails"));
    m_details->setReadOnly(true);
    m_details->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_details->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_details->setPlaceholderText(tr("Select a row: its step time breakdown, memory and launch arguments "
                                     "(Megatron-LM, torchtitan, ridgeline-cli size) appear here."));
    m_details->setToolTip(tr("Selectable and copyable"));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_open);
    buttons->addWidget(m_progress, 1);

    auto* tabs = new QTabWidget;
    tabs->addTab(m_details, tr("Selected layout"));
    tabs->addTab(m_leftOut, tr("Left out"));
    auto* lower = new QSplitter(Qt::Horizontal);
    lower->addWidget(tabs);
    lower->addWidget(m_chart);
    lower->setStretchFactor(0, 1);
    lower->setStretchFactor(1, 1);
    auto* results = new QSplitter(Qt::Vertical);
    results->addWidget(m_table);
    results->addWidget(lower);
    results->setStretchFactor(0, 2);
    results->setStretchFactor(1, 3);

    // The inputs scroll above the results, whose table keeps five rows in sight: at 720 px high the
    // inputs, all shown, left it two. A taller window shows the inputs whole.
    // The horizontal scroll bar's height is kept too: wide figures (memory in GiB, long layouts) bring it.
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() +
                              5 * m_table->verticalHeader()->defaultSectionSize() + 2 * m_table->frameWidth() +
                              m_table->horizontalScrollBar()->sizeHint().height());
    auto* inputs = new QScrollArea;
    inputs->setObjectName(QStringLiteral("planInputs"));
    inputs->setWidget(buildInputs());
    inputs->setWidgetResizable(true);
    inputs->setFrameShape(QFrame::NoFrame);
    // The error band keeps its two lines: at the window's smallest height the layout gave its wrapped
    // text one and cut it (a layout's minimum does not follow a wrapped label's height for its width).
    m_band->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_band->setMinimumHeight(2 * m_band->fontMetrics().lineSpacing());
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(inputs);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(m_band);
    layout->addWidget(m_yoursLine);
    layout->addWidget(results, 1);

    connect(m_run, &QPushButton::clicked, this, &PlanWindow::runSearch);
    connect(m_cancel, &QPushButton::clicked, this, &PlanWindow::cancel);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &PlanWindow::showSelected);
    connect(m_chart, &charts::PlanParetoChart::rowClicked, this, &PlanWindow::selectRank);
    connect(m_chart, &charts::ChartFrame::chartExported, this,
            [this](const QString& f) { m_status->setText(tr("Wrote %1").arg(f)); });
    connect(m_job, &JobTracker::progressChanged, this, [this](int permille, const QString& text) {
        m_progress->setVisible(true);
        m_progress->setRange(0, permille < 0 ? 0 : 1000); // indeterminate until the first real tick
        m_progress->setValue(std::max(0, permille));
        if (!text.isEmpty())
            m_progress->setFormat(text + QStringLiteral(" (%p %)"));
    });
    connect(m_job, &JobTracker::jobCanceled, this, [this] {
        setRunning(false);
        m_status->setText(tr("Search cancelled; the results shown are from the last finished search."));
        Q_EMIT searchCancelled();
    });
    connect(m_open, &QPushButton::clicked, this, [this] {
        const auto rows = m_table->selectionModel()->selectedRows();
        const auto* row = rows.isEmpty() ? nullptr : m_model->rowAt(m_proxy->mapToSource(rows.first()).row());
        if (!row)
            return;
        model::ModelConfig c = m_searchedModel;
        c.seqLen = m_searchedCluster.seqLen; // the editor sizes at the model's sequence length
        const auto& p = row->parallel;
        QString degrees = QStringLiteral("dp=%1,tp=%2,pp=%3,cp=%4,ep=%5").arg(p.dp).arg(p.tp).arg(p.pp).arg(p.cp).arg(p.ep);
        if (p.etp > 0)
            degrees += QStringLiteral(",etp=%1").arg(p.etp);
        if (p.vpp > 1)
            degrees += QStringLiteral(",vpp=%1").arg(p.vpp);
        Q_EMIT configChosen(c, p, degrees, qs(m_searchedHardware), qs(row->layout.attention));
    });
}

QWidget* PlanWindow::buildInputs()
{
    m_modelBox = new QComboBox;
    m_modelBox->setObjectName(QStringLiteral("planModel"));
    for (const auto& name : model::presetNames())
        m_modelBox->addItem(qs(name));
    m_presetCount = m_modelBox->count();
    m_modelBox->setCurrentIndex(std::max(0, m_modelBox->findText(QStringLiteral("llama-3-8b"))));
    m_modelBox->setToolTip(tr("The model: a published preset (resources/models), a configuration saved in the "
                              "workspace, or a config.json opened with Open…"));
    auto* openFile = new QPushButton(tr("Open…"));
    openFile->setToolTip(tr("Load a Hugging Face config.json or a Ridgeline model file"));
    connect(openFile, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Model config"), {}, tr("JSON (*.json)"));
        if (f.isEmpty())
            return;
        try {
            const auto c = model::loadModelConfigFile(f.toStdString());
            m_modelBox->addItem(qs(c.name) + tr(" (file)"), qs(model::toJson(c).dump()));
            m_modelBox->setItemData(m_modelBox->count() - 1, f, kPathRole);
            m_modelBox->setItemData(m_modelBox->count() - 1, f, Qt::ToolTipRole);
            m_modelBox->setCurrentIndex(m_modelBox->count() - 1);
        } catch (const std::exception& e) {
            m_status->setText(qs(e.what()));
        }
    });
    m_calibration = new CalibrationPicker;
    m_calibration->offerMeasuredRun(true); // the search ranks calibrated steps
    m_hardware = m_calibration->hardwareCombo();
    m_hardware->setObjectName(QStringLiteral("planHardware"));
    m_hardware->setToolTip(tr("Hardware profile: peak FLOP/s, HBM capacity and bandwidth, links (resources/hardware)"));
    if (m_hardware->findText(QStringLiteral("h100-sxm")) >= 0)
        m_calibration->setHardware(QStringLiteral("h100-sxm"));

    const auto spin = [](const char* name, int min, int max, int value, const QString& suffix, const QString& tip) {
        auto* s = new QSpinBox;
        s->setObjectName(QLatin1String(name));
        s->setRange(min, max);
        s->setValue(value);
        s->setSuffix(suffix);
        s->setGroupSeparatorShown(true);
        s->setToolTip(tip);
        return s;
    };
    m_gpus = spin("planGpus", 1, 1'000'000, 64, tr(" GPUs"), tr("GPUs in the cluster (--gpus)"));
    m_gpusPerNode = spin("planGpusPerNode", 1, 1024, 8, tr(" per node"),
                         tr("GPUs per node = the scale-up domain tensor parallelism stays in (--gpus-per-node; set to "
                            "the profile's when the hardware changes)"));
    m_globalBatch = spin("planGlobalBatch", 1, 100'000'000, 512, tr(" sequences"),
                         tr("Sequences per optimizer step over the whole cluster (--global-batch)"));
    m_seq = spin("planSeq", 1, 10'000'000, 4096, tr(" tokens"), tr("Sequence length in tokens (--seq)"));
    m_framework = newFrameworkCombo(QStringLiteral("planFramework"));
    m_top = spin("planTop", 1, 10'000, 20, tr(" layouts"), tr("How many of the fastest layouts to list (--top)"));
    const auto profileNode = [this] {
        try {
            m_gpusPerNode->setValue(findHardwareProfile(m_calibration->hardwareId().toStdString()).gpusPerNode);
        } catch (const std::exception&) {
            // the picker reports a profile it cannot read
        }
    };
    profileNode();
    connect(m_hardware, &QComboBox::currentIndexChanged, this, profileNode);

    m_fix = new QLineEdit;
    m_fix->setObjectName(QStringLiteral("planFix"));
    m_fix->setPlaceholderText(tr("e.g. tp=8,recompute=selective|full,zero=1"));
    m_fix->setToolTip(tr("Keep only these values of some dimensions (--fix): name=value, '|' between alternatives, "
                         "',' between dimensions, e.g. tp=8,ep=8|16,recompute=selective,zero=1,dtype=bf16,stages=even.\n"
                         "Dimensions: %1")
                          .arg(dimensionList()));
    m_fixError = errorLabel("planFixError");
    m_tpAcrossNodes = new QCheckBox(tr("TP across nodes"));
    m_tpAcrossNodes->setObjectName(QStringLiteral("planTpAcrossNodes"));
    m_tpAcrossNodes->setToolTip(tr("Also search tensor-parallel groups larger than a node (--allow tp-across-nodes; "
                                   "never Megatron's default)"));
    m_tpOverlap = new QCheckBox(tr("TP overlap (not validated)"));
    m_tpOverlap->setObjectName(QStringLiteral("planTpOverlap"));
    m_tpOverlap->setToolTip(tr("Also search TP communication overlap, (tp-1)/tp of it hidden (--allow tp-overlap); "
                               "the validation tables have no run that uses it"));
    m_yours = new QLineEdit;
    m_yours->setObjectName(QStringLiteral("planYours"));
    m_yours->setPlaceholderText(tr("optional, e.g. tp=8,pp=4,vpp=2,micro-batch=1,recompute=selective,sp=on"));
    m_yours->setToolTip(tr("Place this layout in the ranking (--yours): --fix syntax, one value each; unnamed "
                           "dimensions take tp=1, pp=1, zero=1, recompute=none, dtype bf16, ...\nDimensions: %1")
                            .arg(dimensionList()));
    m_yoursError = errorLabel("planYoursError");
    connect(m_fix, &QLineEdit::textChanged, this, &PlanWindow::checkSyntax);
    connect(m_yours, &QLineEdit::textChanged, this, &PlanWindow::checkSyntax);

    auto* modelRow = new QHBoxLayout;
    modelRow->addWidget(m_modelBox, 1);
    modelRow->addWidget(openFile);
    auto* cluster = new QHBoxLayout;
    for (auto* w : {m_gpus, m_gpusPerNode})
        cluster->addWidget(w, 1);
    auto* batch = new QHBoxLayout;
    batch->addWidget(m_globalBatch, 1);
    batch->addWidget(new QLabel(tr("of")));
    batch->addWidget(m_seq, 1);
    auto* allow = new QHBoxLayout;
    allow->addWidget(m_tpAcrossNodes);
    allow->addWidget(m_tpOverlap);
    allow->addStretch(1);
    auto* fixColumn = new QVBoxLayout;
    fixColumn->addWidget(m_fix);
    fixColumn->addWidget(m_fixError);
    auto* yoursColumn = new QVBoxLayout;
    yoursColumn->addWidget(m_yours);
    yoursColumn->addWidget(m_yoursError);
    auto* form = new QFormLayout;
    form->addRow(tr("Model:"), modelRow);
    form->addRow(tr("Cluster:"), cluster);
    form->addRow(tr("Global batch:"), batch);
    form->addRow(tr("Framework:"), m_framework);
    form->addRow(tr("Fix:"), fixColumn);
    form->addRow(tr("Allow:"), allow);
    form->addRow(tr("Show:"), m_top);
    form->addRow(tr("Yours:"), yoursColumn);

    auto* calibrationBox = new QGroupBox(tr("Hardware and calibration"));
    auto* calibrationLayout = new QVBoxLayout(calibrationBox);
    calibrationLayout->setContentsMargins(4, 4, 4, 4);
    calibrationLayout->addWidget(m_calibration);
    auto* inputs = new QWidget;
    auto* top = new QHBoxLayout(inputs);
    top->setContentsMargins(0, 0, 0, 0);
    top->addLayout(form, 3);
    top->addWidget(calibrationBox, 2);
    return inputs;
}

bool PlanWindow::checkSyntax()
{
    bool ok = true;
    const auto mark = [&ok](QLineEdit* edit, QLabel* label, const std::function<void()>& parse) {
        QString error;
        try {
            parse();
        } catch (const std::exception& e) {
            error = qs(e.what());
        }
        label->setText(error);
        label->setVisible(!error.isEmpty());
        edit->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("QLineEdit { border: 1px solid #d62728; }"));
        ok = ok && error.isEmpty();
    };
    // The syntax needs no model: applyFix replaces the named lists, parseLayout fills a default layout.
    mark(m_fix, m_fixError, [this] {
        plan::LayoutSpace space;
        plan::applyFix(space, m_fix->text().trimmed().toStdString());
    });
    mark(m_yours, m_yoursError, [this] {
        const std::string spec = m_yours->text().trimmed().toStdString();
        if (!spec.empty())
            plan::parseLayout(spec, plan::Layout{});
    });
    return ok;
}

std::optional<model::ModelConfig> PlanWindow::chosenModel(QString* error, std::string* cliName) const
{
    const int i = m_modelBox->currentIndex();
    try {
        const QVariant json = m_modelBox->itemData(i);
        const QVariant path = m_modelBox->itemData(i, kPathRole);
        *cliName = path.isValid() ? path.toString().toStdString() : m_modelBox->itemText(i).toStdString();
        if (json.isValid()) // saved in the workspace or opened from a file, as model JSON
            return model::fromJson(nlohmann::json::parse(json.toString().toStdString()), m_modelBox->itemText(i).toStdString());
        return model::loadPreset(m_modelBox->itemText(i).toStdString());
    } catch (const std::exception& e) {
        *error = qs(e.what());
        return std::nullopt;
    }
}

void PlanWindow::setRunning(bool running)
{
    m_cancel->setEnabled(running);
    m_progress->setVisible(running);
    if (running) {
        m_progress->setRange(0, 0);
        m_progress->setFormat(QStringLiteral("%p %"));
    }
}

bool PlanWindow::isRunning() const { return m_job->isRunning(); }

void PlanWindow::cancel()
{
    if (!m_job->isRunning())
        return;
    m_status->setText(tr("Cancelling…"));
    m_job->cancel(); // the search stops at its next progress tick (about 100 ms); jobCanceled then lands
}

void PlanWindow::runSearch()
{
    QString error;
    std::string cliName;
    const auto config = chosenModel(&error, &cliName);
    if (!checkSyntax() || !config) {
        if (!config)
            m_status->setText(error);
        else
            m_status->setText(tr("Correct the marked field first."));
        Q_EMIT searchFailed(config ? (m_fixError->isVisible() ? m_fixError->text() : m_yoursError->text()) : error);
        return;
    }
    plan::PlanRequest req;
    req.base.model = *config;
    const std::string hardwareId = m_calibration->hardwareId().toStdString();
    req.cluster.gpus = m_gpus->value();
    req.cluster.gpusPerNode = m_gpusPerNode->value();
    req.cluster.globalBatch = m_globalBatch->value();
    req.cluster.seqLen = m_seq->value();
    req.allow.tpAcrossNodes = m_tpAcrossNodes->isChecked();
    req.allow.tpOverlap = m_tpOverlap->isChecked();
    req.top = m_top->value();
    req.base.layout.framework = frameworkOf(m_framework);
    const std::string fix = m_fix->text().trimmed().toStdString();
    const std::string yours = m_yours->text().trimmed().toStdString();
    const std::shared_ptr<const model::Calibration> calibration = m_calibration->calibration();
    const std::shared_ptr<const model::StoredRun> measuredRun = m_calibration->measuredRun();
    m_searchedModel = *config;
    m_searchedCluster = req.cluster;
    m_searchedConfigName = cliName;
    m_searchedHardware = hardwareId;

    setRunning(true);
    m_status->setText(tr("Searching the layouts of %1 on %2 x %3…")
                          .arg(qs(config->name))
                          .arg(req.cluster.gpus)
                          .arg(m_calibration->hardwareId()));
    m_job->start<Outcome>(
        [req, hardwareId, fix, yours, calibration, measuredRun](JobControl<Outcome>& control) mutable -> Outcome {
            try {
                // As ridgeline-cli plan builds it (app/cli/plancommand.cpp), so both show the same figures.
                req.base.hardware = findHardwareProfile(hardwareId);
                req.base.calibration = calibration->choice();
                const auto& hw = req.base.hardware;
                req.space = plan::defaultSpace(req.base.model, hw, req.cluster, req.allow);
                plan::applyFix(req.space, fix);
                if (!yours.empty()) {
                    plan::Layout defaults;
                    defaults.dtype = req.space.dtype.front();
                    defaults.attention = req.space.attention.front();
                    req.yours = plan::parseLayout(yours, defaults);
                }
                if (measuredRun) { // the Calibration picker's measured run: every layout ranked calibrated
                    model::SizingRequest ran = req.base;
                    ran.layout.seqLen = req.cluster.seqLen;
                    req.runRates = model::calibrateFromRun(*measuredRun, ran, *calibration).rates;
                }
                return plan::runPlan(req, *calibration, [&control](double done, double total) {
                    control.setProgress(std::int64_t(done), std::int64_t(total),
                                        tr("%1 of %2 combinations").arg(plantext::count(done), plantext::count(total)));
                    return !control.isCanceled();
                });
            } catch (const std::exception& e) {
                return qs(e.what());
            }
        },
        [this](Outcome out) {
            setRunning(false);
            if (auto* err = std::get_if<QString>(&out)) {
                m_status->setText(*err);
                Q_EMIT searchFailed(*err);
                return;
            }
            showResult(std::get<plan::PlanResult>(std::move(out)));
        });
}

void PlanWindow::showResult(plan::PlanResult result)
{
    m_result = std::move(result);
    m_model->setResults(m_result.top);
    m_chart->setResult(m_result);
    m_status->setText(plantext::countsLine(m_result) +
                      (m_result.top.empty() ? tr(" No layout fits: see Left out for why.") : QString()));
    m_band->setText(plantext::bandSentence(m_result));

    charts::ResultTable leftOut{leftOutColumns(), {}, {}};
    const auto add = [&leftOut](const QString& why, double n, const QString& follows) {
        leftOut.rows.push_back(
            {charts::textCell(why), charts::numberCell(plantext::count(n), n), charts::textCell(follows)});
    };
    for (int r = 0; r < plan::kRuleCount; ++r)
        if (m_result.counts.illegal[std::size_t(r)] > 0)
            add(QLatin1String(plan::ruleInfo(plan::Rule(r)).text), m_result.counts.illegal[std::size_t(r)],
                QLatin1String(plan::ruleInfo(plan::Rule(r)).source));
    for (int m = 0; m < int(plan::MemoryPart::Count); ++m)
        if (m_result.counts.outOfMemory[std::size_t(m)] > 0)
            add(tr("out of memory, largest part: %1").arg(QLatin1String(plan::toString(plan::MemoryPart(m)))),
                m_result.counts.outOfMemory[std::size_t(m)],
                tr("%1 kept free for the framework").arg(qs(model::frameworkReserveBasis())));
    m_leftOut->setTable(std::move(leftOut));

    if (m_result.yours) {
        m_yoursLine->setText(tr("Yours (%1): %2").arg(qs(plan::toSpec(m_result.yours->layout)), qs(m_result.yours->explanation)));
        m_yoursLine->setVisible(true);
    } else {
        m_yoursLine->setVisible(false);
    }
    m_table->resizeColumnsToContents();
    if (!m_result.top.empty())
        selectRank(m_result.top.front().rank);
    else
        showSelected();
    Q_EMIT searchFinished(m_result.counts.ranked);
}

void PlanWindow::selectRank(long long rank)
{
    for (int i = 0; i < m_proxy->rowCount(); ++i) {
        const QModelIndex index = m_proxy->index(i, 0);
        if (index.data(PlanResultModel::RankRole).toLongLong() == rank) {
            m_table->selectionModel()->setCurrentIndex(
                index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            m_table->scrollTo(index);
            return;
        }
    }
}

void PlanWindow::showSelected()
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    const auto* row = current.isValid() ? m_model->rowAt(m_proxy->mapToSource(current).row()) : nullptr;
    m_open->setEnabled(row != nullptr);
    if (!row || m_result.top.empty()) {
        m_details->clear();
        return;
    }
    m_details->setPlainText(plantext::details(*row, m_result.top.front(), m_searchedModel, m_searchedCluster,
                                              m_searchedConfigName, m_searchedHardware));
}

QString PlanWindow::exportTo(const QString& fileName) const
{
    QString error;
    return m_chart->exportTo(fileName, &error) ? QString() : error;
}

QString PlanWindow::statusText() const { return m_status->text(); }
QString PlanWindow::detailsText() const { return m_details->toPlainText(); }

void PlanWindow::setWorkspace(const QString& path)
{
    m_workspace = path;
    m_calibration->setWorkspace(path);
    loadSavedConfigs(m_savedJob, path, [this](const std::vector<store::SavedModelConfig>& saved) {
        const QString current = m_modelBox->currentText();
        replaceSavedConfigs(m_modelBox, m_presetCount, saved);
        if (m_modelBox->findText(current) >= 0)
            m_modelBox->setCurrentText(current);
    });
}
} // namespace rl
