#pragma once
// A training log over steps or wall time: loss, step time, tokens/s, TFLOP/s or MFU, one line per
// run segment (a restart that resumes from a checkpoint starts a new line), restarts and time gaps
// as vertical markers, stalls and skipped/NaN iterations as scatter marks, goodput in the title.
// A thin view: numbers from tracechartdata.h.
#include <string>

#include <QSize>

#include "chartframe.h"
#include "views/tracechartdata.h"

QT_BEGIN_NAMESPACE
class QComboBox;
QT_END_NAMESPACE

namespace rl::charts {

struct TrainChartOptions
{
    TrainMetric metric = TrainMetric::Loss;
    TrainXAxis xAxis = TrainXAxis::Step;
    std::string title; // empty: derived from the session and the metric
};

class TrainLogChart : public ChartFrame
{
    Q_OBJECT
public:
    explicit TrainLogChart(QWidget* parent = nullptr);
    ~TrainLogChart() override;

    void setData(const TraceChartData& data); // a training-log session; other kinds show an empty chart
    const TraceChartData& data() const { return m_data; }
    void setMetric(TrainMetric metric);
    void setXAxis(TrainXAxis axis);
    const TrainChartOptions& options() const { return m_options; }

    static QString populate(QChart* chart, const TraceChartData& data, const TrainChartOptions& options);
    static bool exportChart(const TraceChartData& data, const TrainChartOptions& options, QSize size,
                            const QString& path, QString* error);

Q_SIGNALS:
    void optionsChanged();

protected:
    QString populateExport(QChart* chart) const override { return populate(chart, m_data, m_options); }
    std::string exportCsv() const override { return trainLogCsv(m_data, m_options.metric); }
    // Named as `ridgeline-cli export --chart` names this view.
    QString exportName() const override
    {
        return QStringLiteral("trainlog-") + QString::fromLatin1(toString(m_options.metric));
    }
    std::vector<std::int64_t> exportSessionIds() const override { return {m_data.session.id}; }

private:
    void rebuild() override;

    TraceChartData m_data;
    TrainChartOptions m_options;
    QComboBox* m_metricCombo;
    QComboBox* m_axisCombo;
};
} // namespace rl::charts
