#pragma once
// The trace view's "Collectives vs benchmark" tab: each collective a trace recorded (op, dtype,
// ranks, size, calls, busbw) next to the busbw a stored collective benchmark reached at that op
// and size, and the ratio, as `ridgeline-cli trace-collectives --against` prints it. The
// benchmark's points are read in the background when one is chosen.
#include <cstdint>
#include <vector>

#include <QWidget>

#include "records/collectivepoint.h"
#include "records/session.h"
#include "trace/tracevsbenchmark.h"
#include "views/tracechartdata.h"

class QComboBox;
class QLabel;

namespace rl {

class JobTracker;
namespace charts {
class ResultTableView;
}

class CollectivesVsBenchmarkPanel : public QWidget
{
    Q_OBJECT
public:
    enum Column {
        RankColumn,
        OpColumn,
        DtypeColumn,
        RanksColumn,
        SizeColumn,
        CallsColumn,
        MeanTimeColumn,
        TraceBusbwColumn,
        BestBusbwColumn,
        BenchmarkBusbwColumn,
        RatioColumn,
        BestRatioColumn,
        ColumnCount
    };

    explicit CollectivesVsBenchmarkPanel(QWidget* parent = nullptr);

    void setWorkspace(const QString& path);
    // The trace whose collectives are shown; anything else clears the table.
    void setSession(const charts::TraceChartData& data);
    // The workspace's sessions; the collective benchmarks among them are offered.
    void setSessions(const std::vector<Session>& sessions);
    // Chooses a benchmark session by id (0: none) and reads its points.
    void setBenchmark(std::int64_t sessionId);
    std::int64_t benchmark() const;

    const std::vector<trace::CollectiveVsBenchmark>& rows() const { return m_rows; }
    // The chosen benchmark's points as read: none until a trace is shown.
    std::size_t benchmarkPointsHeld() const { return m_points.size(); }
    charts::ResultTableView* table() const { return m_table; }
    QString warning() const;

signals:
    // The table shows the current trace against the current benchmark (its points have arrived).
    void comparisonChanged();

private:
    void loadBenchmarkPoints();
    void showRows();
    // For a newly selected trace: the first benchmark that ran on the trace's device, none when the
    // trace names a device no benchmark ran on (an A100 trace was offered an MI300X benchmark).
    void chooseBenchmarkForTrace();
    QString benchmarkDevice() const; // of the chosen benchmark, from its title, host and params

    QComboBox* m_benchmark;
    QLabel* m_status;
    QLabel* m_warning;
    charts::ResultTableView* m_table;
    JobTracker* m_pointsJob;
    QString m_workspace;
    charts::TraceChartData m_data;
    std::vector<CollectivePoint> m_points; // of the chosen benchmark
    std::vector<trace::CollectiveVsBenchmark> m_rows;
    QString m_traceDevice;         // from the trace's kernel names ("A100", "MI300X"); empty: unknown
    std::int64_t m_chosenFor = -1; // the trace the benchmark was chosen for
};
} // namespace rl
