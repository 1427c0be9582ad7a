#pragma once
// What the main window shows for trace and training-log sessions: the per-step breakdown, the top
// kernels (sortable, filterable) and the training-log metrics, each on its own tab. The first trace
// and the first training log of the selection are shown.
#include <vector>

#include <QTabWidget>

#include "views/tracechartdata.h"

class QLineEdit;
class QTableView;

namespace rl {
class CollectivesVsBenchmarkPanel;
class PredictedVsMeasuredPanel;
namespace charts {
class KernelStatModel;
class KernelStatProxy;
class StepBreakdownChart;
class TimelineChart;
class TrainLogChart;
}

class TraceView : public QTabWidget
{
    Q_OBJECT
public:
    explicit TraceView(QWidget* parent = nullptr);

    void setData(const std::vector<charts::TraceChartData>& sessions);
    // The open workspace (saved model configs, benchmark points; call again to re-read the saved
    // configs) and its session list (the collective benchmarks to compare a trace with).
    void setWorkspace(const QString& path);
    void setSessions(const std::vector<Session>& sessions);
    charts::StepBreakdownChart* stepChart() const { return m_steps; }
    charts::TrainLogChart* trainLogChart() const { return m_trainLog; }
    QTableView* kernelTable() const { return m_kernelTable; }
    PredictedVsMeasuredPanel* predictedVsMeasured() const { return m_vsMeasured; }
    CollectivesVsBenchmarkPanel* collectivesVsBenchmark() const { return m_vsBenchmark; }
    charts::TimelineChart* timelineChart() const { return m_timeline; }

private:
    charts::StepBreakdownChart* m_steps;
    charts::TrainLogChart* m_trainLog;
    charts::KernelStatModel* m_kernels;
    charts::KernelStatProxy* m_kernelProxy;
    QTableView* m_kernelTable;
    QLineEdit* m_kernelFilter;
    QWidget* m_kernelPage;
    PredictedVsMeasuredPanel* m_vsMeasured;
    CollectivesVsBenchmarkPanel* m_vsBenchmark;
    charts::TimelineChart* m_timeline;
};
} // namespace rl
