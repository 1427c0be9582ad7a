#pragma once
// The Plan window (Tools > Plan a run…): every legal parallel layout of a model on a cluster, ranked
// by the sizing model, as ridgeline-cli plan searches them (analysis/plan/plansearch.h). Inputs: the
// model, the hardware and calibration, GPUs, GPUs per node, global batch, sequence length, --fix,
// --allow, top N and "yours". The search runs as one job (runPlan uses every core itself) with
// progress and cancel; results: what was left out and why, the error band, a sortable table of the
// ranked layouts, a Pareto chart of step time against memory, one row's breakdown and launch
// arguments, and "Open in Sizing" for the selected row.
#include <QWidget>

#include <optional>
#include <string>

#include "model/modelconfig.h"
#include "model/parallelconfig.h"
#include "plan/plansearch.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;

namespace rl {
class CalibrationPicker;
class JobTracker;
class PlanResultModel;
namespace charts {
class PlanParetoChart;
class ResultTableView;
}

class PlanWindow : public QWidget
{
    Q_OBJECT
public:
    explicit PlanWindow(QWidget* parent = nullptr);

    // The workspace whose saved configurations the model list offers and whose measured sessions
    // the Calibration picker offers.
    void setWorkspace(const QString& path);
    CalibrationPicker* calibrationPicker() const { return m_calibration; }

    void runSearch();
    void cancel();
    bool isRunning() const;
    const plan::PlanResult& result() const { return m_result; }
    PlanResultModel* model() const { return m_model; }
    charts::PlanParetoChart* chart() const { return m_chart; }
    QString statusText() const;
    QString detailsText() const;
    // Selects the table row of this rank (1-based; the table's sort order may differ).
    void selectRank(long long rank);
    // The chart's export: PNG/SVG/PDF of the chart or the rows as CSV (plan::toCsv), by suffix; the
    // error, or empty.
    QString exportTo(const QString& fileName) const;

Q_SIGNALS:
    void searchFinished(double ranked);
    void searchCancelled();
    void searchFailed(const QString& message);
    // The selected row as the Sizing window's config editor takes it (ConfigEditor::loadSized): the
    // model at the searched sequence length, the row's ParallelConfig as evaluated (recipe), its
    // degrees, the hardware id and the attention kernel ("" = by shape).
    void configChosen(const rl::model::ModelConfig& config, const rl::model::ParallelConfig& recipe,
                      const QString& parallel, const QString& hardware, const QString& attention);

private:
    QWidget* buildInputs();
    bool checkSyntax(); // the Fix and Yours fields; marks them and returns false when one is bad
    void showResult(plan::PlanResult result);
    void showSelected();
    void setRunning(bool running);
    std::optional<model::ModelConfig> chosenModel(QString* error, std::string* cliName) const;

    QComboBox* m_modelBox;
    int m_presetCount = 0;
    CalibrationPicker* m_calibration;
    QComboBox* m_hardware; // the picker's profile combo
    QComboBox* m_framework; // the stack every layout runs with
    QSpinBox *m_gpus, *m_gpusPerNode, *m_globalBatch, *m_seq, *m_top;
    QLineEdit* m_fix;
    QLabel* m_fixError;
    QCheckBox *m_tpAcrossNodes, *m_tpOverlap;
    QLineEdit* m_yours;
    QLabel* m_yoursError;
    QPushButton *m_run, *m_cancel, *m_open;
    QProgressBar* m_progress;
    QLabel* m_status;
    QLabel* m_band;
    QLabel* m_yoursLine;
    charts::ResultTableView* m_leftOut;
    QTableView* m_table;
    PlanResultModel* m_model;
    QSortFilterProxyModel* m_proxy;
    charts::PlanParetoChart* m_chart;
    QPlainTextEdit* m_details;
    JobTracker* m_job;
    JobTracker* m_savedJob;
    QString m_workspace;

    plan::PlanResult m_result;
    // What the shown result was searched with: the details' launch lines and "Open in Sizing".
    model::ModelConfig m_searchedModel;
    plan::Cluster m_searchedCluster;
    std::string m_searchedConfigName, m_searchedHardware;
};
} // namespace rl
