#pragma once
// Where the steps of a PyTorch-profiler trace went: per-step stacked bars for one rank or the mean
// over ranks, as tall as the step (GEMM, attention, other compute, compute hiding communication
// hatched on top of it, memcpy under no kernel, exposed communication, idle; trace::stepShares),
// with the fastest and slowest rank's step time as lines (straggler spread); or the same classes
// summed over all steps, one bar per rank. A thin view: numbers from tracechartdata.h.
#include <string>

#include <QColor>
#include <QSize>
#include <QWidget>

#include "tracechartdata.h"

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QComboBox;
class QPushButton;

namespace rl {
class Settings;
}
QT_END_NAMESPACE

namespace rl::charts {

enum class StepChartMode { PerStep, Totals };

// The colour of a segment in every trace chart (bars, timeline).
QColor segmentColor(StepSegment s);

struct StepChartOptions
{
    StepChartMode mode = StepChartMode::PerStep;
    int rank = kAllRanksMean; // a rank, or the mean over ranks (per step) / every rank (totals)
    std::string title;        // empty: derived from the session and the options
};

class StepBreakdownChart : public QWidget
{
    Q_OBJECT
public:
    explicit StepBreakdownChart(QWidget* parent = nullptr);
    ~StepBreakdownChart() override;

    void setData(const TraceChartData& data); // a trace session; other kinds show an empty chart
    const TraceChartData& data() const { return m_data; }
    void setMode(StepChartMode mode);
    void setRank(int rank); // kAllRanksMean for the mean over ranks
    void setExportSize(QSize size);
    // The Export button's dialog starts in the folder charts were last exported to (null: home).
    void setSettings(Settings* settings) { m_settings = settings; }
    const StepChartOptions& options() const { return m_options; }
    QString title() const;

    // PNG/SVG/PDF at the export size, or the bars' numbers as CSV, by suffix.
    bool exportTo(const QString& path, QString* error) const;

    // What the widget draws, for headless export: fills chart (series and axes owned by it) and
    // returns the parameters for the file's description.
    static QString populate(QChart* chart, const TraceChartData& data, const StepChartOptions& options);
    static std::string csv(const TraceChartData& data, const StepChartOptions& options);
    static bool exportChart(const TraceChartData& data, const StepChartOptions& options, QSize size,
                            const QString& path, QString* error);

    QChart* chart() const { return m_chart; } // for tests; other modules use the API above

Q_SIGNALS:
    void optionsChanged();

private:
    void rebuild();
    void exportWithDialog();

    TraceChartData m_data;
    StepChartOptions m_options;
    QSize m_exportSize{1200, 800};
    Settings* m_settings = nullptr;
    QChart* m_chart;
    QChartView* m_view;
    QComboBox* m_modeCombo;
    QComboBox* m_rankCombo;
    QPushButton* m_export;
};
} // namespace rl::charts
