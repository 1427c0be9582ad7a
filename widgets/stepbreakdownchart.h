#pragma once
// Where the steps of a PyTorch-profiler trace went: per-step stacked bars for one rank or the mean
// over ranks, as tall as the step (GEMM, attention, other compute, compute hiding communication
// hatched on top of it, memcpy under no kernel, exposed communication, idle; trace::stepShares),
// with the fastest and slowest rank's step time as lines (straggler spread); or the same classes
// summed over all steps, one bar per rank. A thin view: numbers from tracechartdata.h.
#include <string>

#include <QLineSeries>
#include <QSize>

#include "chartframe.h"
#include "drawnseries.h"
#include "views/tracechartdata.h"

QT_BEGIN_NAMESPACE
class QComboBox;
QT_END_NAMESPACE

namespace rl::charts {

// What populate() drew besides the data (drawnseries.h).
struct StepBreakdownDrawn
{
    QLineSeries* rule = nullptr; // the legend entry that states the bars' rule (no data)
};

struct StepChartOptions
{
    StepChartMode mode = StepChartMode::PerStep;
    int rank = kAllRanksMean; // a rank, or the mean over ranks (per step) / every rank (totals)
    std::string title;        // empty: derived from the session and the options
};

class StepBreakdownChart : public ChartFrame
{
    Q_OBJECT
public:
    explicit StepBreakdownChart(QWidget* parent = nullptr);
    ~StepBreakdownChart() override;

    void setData(const TraceChartData& data); // a trace session; other kinds show an empty chart
    const TraceChartData& data() const { return m_data; }
    void setMode(StepChartMode mode);
    void setRank(int rank); // kAllRanksMean for the mean over ranks
    const StepChartOptions& options() const { return m_options; }

    // What the widget draws, for headless export: fills chart (series and axes owned by it) and
    // returns the parameters for the file's description.
    static QString populate(QChart* chart, const TraceChartData& data, const StepChartOptions& options);
    static bool exportChart(const TraceChartData& data, const StepChartOptions& options, QSize size,
                            const QString& path, QString* error);

Q_SIGNALS:
    void optionsChanged();

protected:
    QString populateExport(QChart* chart) const override { return populate(chart, m_data, m_options); }
    std::string exportCsv() const override { return stepBreakdownCsv(m_data, m_options.mode, m_options.rank); }
    // Named as `ridgeline-cli export --chart` names this view.
    QString exportName() const override
    {
        return m_options.mode == StepChartMode::Totals ? QStringLiteral("trace-totals") : QStringLiteral("trace-steps");
    }
    std::vector<std::int64_t> exportSessionIds() const override { return {m_data.session.id}; }

private:
    void rebuild() override;

    TraceChartData m_data;
    StepChartOptions m_options;
    QComboBox* m_modeCombo;
    QComboBox* m_rankCombo;
};
} // namespace rl::charts
