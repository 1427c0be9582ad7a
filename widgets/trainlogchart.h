#pragma once
// A training log over steps or wall time: loss, step time, tokens/s, TFLOP/s or MFU, one line per
// run segment (a restart that resumes from a checkpoint starts a new line), restarts and time gaps
// as vertical markers, stalls and skipped/NaN iterations as scatter marks, goodput in the title.
// A thin view: numbers from tracechartdata.h.
#include <string>

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

struct TrainChartOptions
{
    TrainMetric metric = TrainMetric::Loss;
    TrainXAxis xAxis = TrainXAxis::Step;
    std::string title; // empty: derived from the session and the metric
};

class TrainLogChart : public QWidget
{
    Q_OBJECT
public:
    explicit TrainLogChart(QWidget* parent = nullptr);
    ~TrainLogChart() override;

    void setData(const TraceChartData& data); // a training-log session; other kinds show an empty chart
    const TraceChartData& data() const { return m_data; }
    void setMetric(TrainMetric metric);
    void setXAxis(TrainXAxis axis);
    void setExportSize(QSize size);
    // The Export button's dialog starts in the folder charts were last exported to (null: home).
    void setSettings(Settings* settings) { m_settings = settings; }
    const TrainChartOptions& options() const { return m_options; }
    QString title() const;

    // PNG/SVG/PDF at the export size, or the plotted numbers and events as CSV, by suffix.
    bool exportTo(const QString& path, QString* error) const;

    static QString populate(QChart* chart, const TraceChartData& data, const TrainChartOptions& options);
    static std::string csv(const TraceChartData& data, const TrainChartOptions& options);
    static bool exportChart(const TraceChartData& data, const TrainChartOptions& options, QSize size,
                            const QString& path, QString* error);

    QChart* chart() const { return m_chart; } // for tests; other modules use the API above

Q_SIGNALS:
    void optionsChanged();

private:
    void rebuild();
    void exportWithDialog();

    TraceChartData m_data;
    TrainChartOptions m_options;
    QSize m_exportSize{1200, 800};
    Settings* m_settings = nullptr;
    QChart* m_chart;
    QChartView* m_view;
    QComboBox* m_metricCombo;
    QComboBox* m_axisCombo;
    QPushButton* m_export;
};
} // namespace rl::charts
