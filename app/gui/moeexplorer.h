#pragma once
// The MoE trade-off explorer: pick a base MoE model, a hardware profile, what to hold constant and
// the parallel layout; the sweep (analysis/model/moesweep.h) runs in a worker with progress and
// cancel, and the scatter shows throughput against decode latency with the Pareto front. A click
// on a point shows that configuration; the whole sweep exports to CSV.
#include <QWidget>

#include <optional>
#include <string>

#include "model/modelconfig.h"
#include "model/moesweep.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace rl {
class JobTracker;
namespace charts {
class MoeScatterChart;
}

class MoeExplorer : public QWidget
{
    Q_OBJECT
public:
    explicit MoeExplorer(QWidget* parent = nullptr);

    void runSweep();
    void cancel();
    bool isRunning() const;
    charts::MoeScatterChart* chart() const { return m_chart; }
    const model::MoeSweepResult& result() const { return m_result; }
    // The chart's export (charts::ChartFrame): PNG/SVG/PDF at the export size, or the sweep as
    // model::toCsv writes it, by suffix; the error, or empty.
    QString exportTo(const QString& fileName) const;
    QString selectedText() const;

Q_SIGNALS:
    void sweepFinished(int configurations);
    // The clicked configuration as a full model (base preset with the swept fields replaced).
    void configChosen(const rl::model::ModelConfig& config);
    void sweepFailed(const QString& message);

private:
    void showResult(model::MoeSweepResult result);

    QComboBox* m_model;
    QComboBox* m_hardware;
    QComboBox* m_hold;
    QComboBox* m_metric;
    QLineEdit* m_parallel;
    QLineEdit* m_experts;
    QLineEdit* m_topK;
    QLineEdit* m_shared;
    QLineEdit* m_widths; // only with "hold nothing": the expert widths are then a swept axis
    QPushButton* m_run;
    QPushButton* m_cancel;
    QPushButton* m_open;
    std::optional<model::MoeSweepRow> m_chosen;
    std::string m_sweptPreset;
    QProgressBar* m_progress;
    QLabel* m_status;
    QLabel* m_selected;
    charts::MoeScatterChart* m_chart;
    JobTracker* m_job;
    model::MoeSweepResult m_result;
};
} // namespace rl
