#pragma once
// The sizing model's "Calibration" picker, shared by the config editor, the predicted-vs-measured
// panel and the MoE explorer: a hardware profile, optionally measured collective sessions of the
// open workspace (several, e.g. one per network tier) and a measured GEMM sweep. It assembles them
// with model::Calibration, the code ridgeline-cli's --calibrate / --collectives / --gemm-session
// use, in a worker (the fits read the store), and lists where each figure source comes from:
// "datasheet", "default" or "session N (title)". A measured run (a trace or training log of the
// model on this device) can calibrate the step's classes as ridgeline-cli size --calibrate-from.
#include <memory>
#include <optional>

#include <QList>
#include <QWidget>

#include "model/calibration.h"
#include "model/sizingrequest.h"
#include "model/storedruncalibration.h"

class QComboBox;
class QLabel;
class QListWidget;

namespace rl {
class JobTracker;
namespace charts {
class ResultTableView;
}

class CalibrationPicker : public QWidget
{
    Q_OBJECT
public:
    explicit CalibrationPicker(QWidget* parent = nullptr);

    // Lists the workspace's collective and GEMM sessions (read off the GUI thread); choices of
    // sessions still listed are kept.
    void setWorkspace(const QString& path);
    // The profile combo, for hosts that set it from a measured run or name it for their tests.
    QComboBox* hardwareCombo() const { return m_hardware; }
    QString hardwareId() const;
    void setHardware(const QString& id);
    // The chosen sessions (checked collective sessions in list order; 0 for no GEMM session).
    QList<qint64> collectiveSessions() const;
    void setCollectiveSessions(const QList<qint64>& ids);
    qint64 gemmSession() const;
    void setGemmSession(qint64 id);
    // The fused attention kernel whose measured rates time the attention ("" = as GEMMs by shape);
    // the combo lists the current profile's kernels.
    QString attentionKernel() const;
    void setAttentionKernel(const QString& name);
    // Offers the "Measured run" box (hidden by default): for hosts that apply runCalibration.
    void offerMeasuredRun(bool on);
    // The measured run (trace or training log session) the step is calibrated from; 0: none.
    qint64 runSession() const;
    void setRunSession(qint64 id);
    // What that run measured, read off the GUI thread; null while none is chosen or it is being read.
    std::shared_ptr<const model::StoredRun> measuredRun() const { return m_measuredRun; }
    // The run's factors for `req` (its own layout predicted with calibration()), or nullopt with
    // `problem` saying why not (another model or device) or nothing when no run is chosen.
    std::optional<model::StoredRunCalibration> runCalibration(const model::SizingRequest& req, QString* problem) const;

    // The calibration last assembled: never null (datasheet and defaults until sessions are chosen).
    std::shared_ptr<const model::Calibration> calibration() const { return m_calibration; }
    bool isAssembling() const;
    QString problem() const { return m_problemText; }
    // The basis shown for a figure source ("GEMM efficiency", "collectives", ...), several joined
    // by "; ", for hosts' labels and tests.
    QString basisText(const QString& figure) const;
    // One line for status bars: "GEMM efficiency: default; collectives: sessions 3, 5 (measured), the
    // datasheet for the rest; attention: by GEMM shape".
    QString summary() const;
    // The profile's rates for a dtype (empty: setDtype's), with the chosen attention kernel; throws
    // like model::deviceRates.
    model::DeviceRates rates(const std::string& dtype = {}) const;
    // The request a host sizes `layout` of `model` with: the chosen profile, the attention kernel and
    // the calibration choice (the host adds the inference question). Throws ProfileError when no
    // profile is chosen. Pair it with calibration() in model::SizingInputs / model::evaluate.
    model::SizingRequest request(const model::ModelConfig& model, const model::ParallelConfig& layout) const;
    // The GEMM dtype the host sizes in (default bf16): the figure sources shown are for it.
    void setDtype(const QString& dtype);

Q_SIGNALS:
    void sessionsLoaded(int collectiveSessions, int gemmSessions);
    // The hardware changed or a new calibration landed: hosts re-evaluate with calibration().
    void calibrationChanged();

private:
    void assemble();
    void showBases();
    void listAttentionKernels(); // the current profile's, keeping the choice where it still has it

    QComboBox* m_hardware;
    QListWidget* m_collectives;
    QComboBox* m_gemm;
    QComboBox* m_attention;
    QComboBox* m_run;
    JobTracker* m_runJob;
    std::shared_ptr<const model::StoredRun> m_measuredRun;
    QString m_runProblem; // why the chosen run could not be read
    void readRun();
    charts::ResultTableView* m_bases; // figure source | basis, the citation or coverage as tooltip
    QLabel* m_problem;
    JobTracker* m_listJob;
    JobTracker* m_assembleJob;
    QString m_workspace;
    std::shared_ptr<const model::Calibration> m_calibration;
    std::vector<model::FigureBasis> m_shownBases;
    QString m_problemText;     // shown under the picker: the assembly's problem, then the dtype's
    QString m_assemblyProblem; // why the last assembly failed, empty when it did not
    std::string m_dtype = "bf16";
    bool m_listing = false; // filling the lists: no assembly per item
};
} // namespace rl
