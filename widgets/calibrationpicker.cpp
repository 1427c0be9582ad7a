#include "calibrationpicker.h"

#include <QComboBox>
#include <QHeaderView>
#include <QFormLayout>
#include <QLabel>
#include <QListWidget>

#include <variant>

#include "attentionkernelcombo.h"
#include "jobtracker.h"
#include "model/hardwareprofileloader.h"
#include "resulttableview.h"
#include "store/workspace.h"
#include "textconv.h"
#include "tonelabel.h"

namespace rl {
namespace {
std::vector<charts::ResultColumn> basisColumns()
{
    return {{CalibrationPicker::tr("Figure source"),
             CalibrationPicker::tr("The figure of the prediction: a peak or achievable rate, GEMM efficiency, "
                                   "collectives, attention")},
            {CalibrationPicker::tr("Basis"), CalibrationPicker::tr("Where it comes from: the profile's datasheet, a "
                                                                   "stated default, or a measured session (bold)")}};
}

struct ListedSession
{
    qint64 id = 0;
    QString label; // "3 · nccl-tests 8xH100 (all_reduce_perf ...)"
};
struct Listing
{
    std::vector<ListedSession> collectives, gemms, runs;
    QString error;
};
using ReadRun = std::variant<std::shared_ptr<const model::StoredRun>, QString>;
using Assembled = std::variant<std::shared_ptr<const model::Calibration>, QString>;

QString sessionLabel(const Session& s) { return QStringLiteral("%1 · %2").arg(s.id).arg(qs(s.title)); }
} // namespace

CalibrationPicker::CalibrationPicker(QWidget* parent)
    : QWidget(parent), m_runJob(new JobTracker(this)), m_listJob(new JobTracker(this)),
      m_assembleJob(new JobTracker(this)), m_calibration(std::make_shared<const model::Calibration>())
{
    setObjectName(QStringLiteral("calibration"));
    m_hardware = new QComboBox;
    m_hardware->setToolTip(tr("Hardware profile: peak and max-achievable TFLOP/s, HBM, scale-up links and "
                              "scale-out network, each with its source (resources/hardware)"));
    try {
        for (const auto& hw : availableHardwareProfiles())
            m_hardware->addItem(qs(hw.id));
    } catch (const std::exception& e) {
        m_hardware->setToolTip(plainInAutoText(qs(e.what()))); // a broken user profile: the hosts' problem labels say it again
    }
    m_hardware->setCurrentText(QStringLiteral("mi300x"));
    m_hardware->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_hardware->setMinimumContentsLength(10);

    m_collectives = new QListWidget;
    m_collectives->setObjectName(QStringLiteral("calibrationCollectives"));
    m_collectives->setToolTip(tr("Measured collective sessions of this workspace that time the step's collectives "
                                 "(an alpha-beta fit per op and GPU count; check one per network tier). Collectives "
                                 "none of them measured are timed from the profile's links. As ridgeline-cli size "
                                 "--collectives IDS."));
    // A few rows: the picker sits in narrow forms; the list scrolls.
    m_collectives->setMaximumHeight(m_collectives->fontMetrics().height() * 5 + 8);
    m_collectives->setMinimumWidth(120);

    m_gemm = new QComboBox;
    m_gemm->setObjectName(QStringLiteral("calibrationGemm"));
    m_gemm->setToolTip(tr("A stored GEMM sweep whose measured efficiencies time the step's GEMMs (interpolated by "
                          "shape), as ridgeline-cli size --gemm-session ID"));
    m_gemm->addItem(tr("None (by shape)"), qint64(0));
    m_gemm->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_gemm->setMinimumContentsLength(10);

    m_attention = new QComboBox;
    m_attention->setObjectName(QStringLiteral("calibrationAttention"));
    m_attention->setToolTip(tr("The fused attention kernel the run uses, timed by its published measured rates on this "
                               "device (by sequence length, at the head dim it was measured at), as ridgeline-cli size "
                               "--attention NAME; otherwise attention is timed as GEMMs by shape"));
    m_attention->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_attention->setMinimumContentsLength(10);

    m_run = new QComboBox;
    m_run->setObjectName(QStringLiteral("calibrationRun"));
    m_run->setToolTip(tr("A stored trace or training log of this model on this device: its own layout is predicted, "
                         "compute, exposed communication and bubble are scaled to what it measured, and the same "
                         "factors apply to the layout sized here (as ridgeline-cli size --calibrate-from ID)"));
    m_run->addItem(tr("None"), qint64(0));
    m_run->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_run->setMinimumContentsLength(10);

    m_bases = new charts::ResultTableView;
    m_bases->setObjectName(QStringLiteral("calibrationBasis"));
    m_bases->setTable({basisColumns(), {}, {}});
    m_bases->setSortingEnabled(false); // the calibration's own order: the device's figures, then the measured
    m_bases->setToolTip(tr("Where each figure of the prediction comes from: the profile's datasheet (cited), a "
                           "stated default, or a measured session of this workspace; hover a row for its source"));
    m_bases->verticalHeader()->setDefaultSectionSize(m_bases->fontMetrics().height() + 4);
    m_bases->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Interactive);
    m_bases->horizontalHeader()->setStretchLastSection(true);
    m_bases->setSelectionMode(QAbstractItemView::NoSelection);
    m_bases->setTextElideMode(Qt::ElideMiddle);
    // Eight rows, then it scrolls: the picker sits in narrow forms.
    m_bases->setMaximumHeight(m_bases->verticalHeader()->defaultSectionSize() * 9 + 6);
    m_problem = new QLabel;
    m_problem->setObjectName(QStringLiteral("calibrationProblem"));
    setLabelTone(m_problem, LabelTone::Error);
    m_problem->setWordWrap(true);
    m_problem->setTextFormat(Qt::PlainText); // names sessions and profile files
    m_problem->hide();

    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Hardware:"), m_hardware);
    form->addRow(tr("Collectives:"), m_collectives);
    form->addRow(tr("GEMMs:"), m_gemm);
    form->addRow(tr("Attention:"), m_attention);
    form->addRow(tr("Measured run:"), m_run);
    form->setRowVisible(m_run, false); // offerMeasuredRun: only hosts that apply it show it
    form->addRow(m_bases);
    form->addRow(m_problem);

    connect(m_hardware, &QComboBox::currentIndexChanged, this, [this] {
        listAttentionKernels();
        showBases();
        Q_EMIT calibrationChanged();
    });
    connect(m_attention, &QComboBox::currentIndexChanged, this, [this] {
        if (m_listing)
            return;
        showBases();
        Q_EMIT calibrationChanged();
    });
    // The placeholder goes in before the list is watched: setting its flags is an itemChanged, and
    // the assembly it started landed late (under load, after a host's first sweep), making the
    // host redo its work under an unchanged calibration.
    m_collectives->addItem(tr("(no workspace)"));
    m_collectives->item(0)->setFlags(Qt::NoItemFlags);
    connect(m_collectives, &QListWidget::itemChanged, this, [this] {
        if (!m_listing)
            assemble();
    });
    connect(m_gemm, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_listing)
            assemble();
    });
    connect(m_run, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_listing)
            readRun();
    });
    listAttentionKernels();
    showBases();
}

void CalibrationPicker::listAttentionKernels()
{
    m_listing = true;
    rl::listAttentionKernels(m_attention, hardwareId());
    m_listing = false;
}

QString CalibrationPicker::attentionKernel() const { return m_attention->currentData().toString(); }

void CalibrationPicker::setAttentionKernel(const QString& name)
{
    m_attention->setCurrentIndex(std::max(0, m_attention->findData(name)));
}

void CalibrationPicker::setWorkspace(const QString& path)
{
    m_workspace = path;
    const std::string ws = path.toStdString();
    m_listJob->start<Listing>(
        [ws](auto&) {
            Listing out;
            try {
                store::Workspace w(ws);
                for (const auto& s : w.sessions()) // newest first, as the session browser lists them
                    if (s.kind == kind::Collectives)
                        out.collectives.push_back({s.id, sessionLabel(s)});
                    else if (s.kind == kind::Gemm)
                        out.gemms.push_back({s.id, sessionLabel(s)});
                    else if (s.kind == kind::Trace || s.kind == kind::TrainingLog)
                        out.runs.push_back({s.id, sessionLabel(s)});
            } catch (const std::exception& e) {
                out.error = qs(e.what());
            }
            return out;
        },
        [this](const Listing& listing) {
            const QList<qint64> checked = collectiveSessions();
            const qint64 gemm = gemmSession();
            const qint64 run = runSession();
            m_listing = true;
            m_collectives->clear();
            for (const auto& s : listing.collectives) {
                auto* item = new QListWidgetItem(s.label, m_collectives);
                item->setData(Qt::UserRole, s.id);
                item->setToolTip(plainInAutoText(s.label));
                item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
                item->setCheckState(checked.contains(s.id) ? Qt::Checked : Qt::Unchecked);
            }
            if (listing.collectives.empty()) {
                m_collectives->addItem(listing.error.isEmpty() ? tr("(no collective sessions)") : listing.error);
                m_collectives->item(0)->setFlags(Qt::NoItemFlags);
            }
            m_gemm->clear();
            m_gemm->addItem(tr("None (by shape)"), qint64(0));
            for (const auto& s : listing.gemms)
                m_gemm->addItem(s.label, s.id);
            m_gemm->setCurrentIndex(std::max(0, m_gemm->findData(gemm)));
            m_run->clear();
            m_run->addItem(tr("None"), qint64(0));
            for (const auto& s : listing.runs)
                m_run->addItem(s.label, s.id);
            m_run->setCurrentIndex(std::max(0, m_run->findData(run)));
            m_listing = false;
            if (runSession() != run)
                readRun();
            Q_EMIT sessionsLoaded(static_cast<int>(listing.collectives.size()), static_cast<int>(listing.gemms.size()));
            // Sessions deleted since they were chosen drop out of the calibration.
            if (collectiveSessions() != checked || gemmSession() != gemm)
                assemble();
        });
}

QString CalibrationPicker::hardwareId() const { return m_hardware->currentText(); }
void CalibrationPicker::setHardware(const QString& id) { m_hardware->setCurrentIndex(m_hardware->findText(id)); }

QList<qint64> CalibrationPicker::collectiveSessions() const
{
    QList<qint64> ids;
    for (int i = 0; i < m_collectives->count(); ++i) {
        const auto* item = m_collectives->item(i);
        if (item->checkState() == Qt::Checked)
            ids << item->data(Qt::UserRole).toLongLong();
    }
    return ids;
}

void CalibrationPicker::setCollectiveSessions(const QList<qint64>& ids)
{
    m_listing = true;
    for (int i = 0; i < m_collectives->count(); ++i) {
        auto* item = m_collectives->item(i);
        if (item->flags() & Qt::ItemIsUserCheckable)
            item->setCheckState(ids.contains(item->data(Qt::UserRole).toLongLong()) ? Qt::Checked : Qt::Unchecked);
    }
    m_listing = false;
    assemble();
}

qint64 CalibrationPicker::gemmSession() const { return m_gemm->currentData().toLongLong(); }

void CalibrationPicker::setGemmSession(qint64 id) { m_gemm->setCurrentIndex(std::max(0, m_gemm->findData(id))); }

bool CalibrationPicker::isAssembling() const { return m_assembleJob->isRunning() || m_runJob->isRunning(); }

void CalibrationPicker::offerMeasuredRun(bool on)
{
    static_cast<QFormLayout*>(layout())->setRowVisible(m_run, on);
    if (!on)
        setRunSession(0);
}

qint64 CalibrationPicker::runSession() const { return m_run->currentData().toLongLong(); }

void CalibrationPicker::setRunSession(qint64 id) { m_run->setCurrentIndex(std::max(0, m_run->findData(id))); }

void CalibrationPicker::readRun()
{
    m_measuredRun.reset();
    m_runProblem.clear();
    const qint64 id = runSession();
    if (id <= 0) {
        m_runJob->cancel();
        showBases();
        Q_EMIT calibrationChanged();
        return;
    }
    const std::string ws = m_workspace.toStdString();
    m_runJob->start<ReadRun>(
        [ws, id](auto&) -> ReadRun {
            try {
                store::Workspace w(ws);
                return std::make_shared<const model::StoredRun>(model::readStoredRun(w, id));
            } catch (const std::exception& e) {
                return qs(e.what());
            }
        },
        [this](const ReadRun& out) {
            if (const auto* error = std::get_if<QString>(&out))
                m_runProblem = *error;
            else
                m_measuredRun = std::get<std::shared_ptr<const model::StoredRun>>(out);
            showBases();
            Q_EMIT calibrationChanged();
        });
}

std::optional<model::StoredRunCalibration> CalibrationPicker::runCalibration(const model::SizingRequest& req,
                                                                          QString* problem) const
{
    if (problem)
        *problem = m_runProblem;
    if (!m_measuredRun)
        return std::nullopt;
    try {
        return model::calibrateFromRun(*m_measuredRun, req, *m_calibration);
    } catch (const std::exception& e) {
        if (problem)
            *problem = qs(e.what());
        return std::nullopt;
    }
}

model::DeviceRates CalibrationPicker::rates(const std::string& dtype) const
{
    return model::deviceRates(findHardwareProfile(hardwareId().toStdString()), dtype.empty() ? m_dtype : dtype,
                              attentionKernel().toStdString());
}

model::SizingRequest CalibrationPicker::request(const model::ModelConfig& model, const model::ParallelConfig& layout) const
{
    model::SizingRequest req;
    req.model = model;
    req.hardware = findHardwareProfile(hardwareId().toStdString());
    req.layout = layout;
    req.attentionKernel = attentionKernel().toStdString();
    if (const auto cal = calibration())
        req.calibration = cal->choice();
    return req;
}

void CalibrationPicker::setDtype(const QString& dtype)
{
    if (dtype.toStdString() == m_dtype)
        return;
    m_dtype = dtype.toStdString();
    showBases(); // "peak TFLOP/s (fp8)": the rates the host now uses
}

void CalibrationPicker::assemble()
{
    model::CalibrationChoice choice;
    // The list runs newest first; fitting oldest first lets the newer session win a shared (op, GPUs),
    // as --calibrate does over the whole workspace.
    const QList<qint64> ids = collectiveSessions();
    for (auto it = ids.crbegin(); it != ids.crend(); ++it)
        choice.collectiveSessions.push_back(*it);
    choice.gemmSession = gemmSession();
    const std::string ws = m_workspace.toStdString();
    m_bases->setEnabled(false); // until the new assembly lands
    m_assembleJob->start<Assembled>(
        [ws, choice](auto&) -> Assembled {
            try {
                if (!choice.readsStore())
                    return std::make_shared<const model::Calibration>();
                store::Workspace w(ws);
                return std::make_shared<const model::Calibration>(&w, choice);
            } catch (const std::exception& e) {
                return qs(e.what());
            }
        },
        [this](const Assembled& out) {
            if (const auto* error = std::get_if<QString>(&out)) {
                // Nothing measured rather than a stale calibration under the new choice.
                m_calibration = std::make_shared<const model::Calibration>();
                m_assemblyProblem = *error;
            } else {
                m_calibration = std::get<std::shared_ptr<const model::Calibration>>(out);
                m_assemblyProblem.clear();
            }
            showBases();
            Q_EMIT calibrationChanged();
        });
}

void CalibrationPicker::showBases()
{
    m_shownBases.clear();
    m_bases->setEnabled(true);
    m_bases->setTable({basisColumns(), {}, {}});
    m_problemText = m_assemblyProblem;
    if (!m_runProblem.isEmpty())
        m_problemText = m_problemText.isEmpty() ? m_runProblem : m_problemText + QLatin1Char('\n') + m_runProblem;
    try {
        m_shownBases = m_calibration->bases(rates());
    } catch (const std::exception& e) { // the profile cannot time this dtype
        m_problemText = m_problemText.isEmpty() ? qs(e.what()) : m_problemText + QLatin1Char('\n') + qs(e.what());
    }
    m_problem->setText(m_problemText);
    m_problem->setVisible(!m_problemText.isEmpty());
    if (m_shownBases.empty())
        return;
    charts::ResultTable table{basisColumns(), {}, {}};
    for (const auto& b : m_shownBases) {
        const QString tip = plainInAutoText(qs(b.figure) + QStringLiteral(": ") + qs(b.basis) +
                                            (b.detail.empty() ? QString() : QStringLiteral("\n") + qs(b.detail)));
        auto figure = charts::textCell(qs(b.figure));
        figure.tip = tip;
        auto basis = charts::textCell(qs(b.basis));
        basis.tip = tip;
        basis.bold = b.basis.rfind("session", 0) == 0; // measured: stands out from the datasheet rows
        table.rows.push_back({std::move(figure), std::move(basis)});
    }
    m_bases->setTable(std::move(table));
}

QString CalibrationPicker::basisText(const QString& figure) const
{
    QStringList out;
    for (const auto& b : m_shownBases)
        if (qs(b.figure) == figure)
            out << qs(b.basis);
    return out.join(QStringLiteral("; "));
}
} // namespace rl

namespace rl {
QString CalibrationPicker::summary() const
{
    QStringList ids;
    if (const auto* c = m_calibration->collectives())
        for (const auto& s : c->sessions())
            ids << QString::number(s.id);
    const QString collectives = ids.isEmpty() ? tr("datasheet")
                                              : (ids.size() == 1 ? tr("session %1 (measured), the datasheet for the rest")
                                                                 : tr("sessions %1 (measured), the datasheet for the rest"))
                                                    .arg(ids.join(QStringLiteral(", ")));
    const QString attention = attentionKernel().isEmpty() ? tr("by GEMM shape")
                                                          : tr("%1 (published measurement)").arg(attentionKernel());
    return tr("GEMM efficiency: %1; collectives: %2; attention: %3")
        .arg(basisText(QStringLiteral("GEMM efficiency")), collectives, attention);
}
} // namespace rl
