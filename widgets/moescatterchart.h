#pragma once
// The MoE trade-off scatter: training throughput (tokens/s or MFU) against decode latency per token
// for every configuration of a sweep, colour = total parameters (five quantile bands), marker
// size = memory per GPU (three bands), the Pareto front as a line. Hover shows the configuration,
// a click emits it (the explorer loads it). Drawing is bucketed into 15 scatter series so a
// 50,000-point sweep redraws in one pass per series.
#include <cstddef>
#include <vector>

#include <QSize>
#include <QWidget>

#include "model/moesweep.h"

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QLineSeries;
class QScatterSeries;
QT_END_NAMESPACE

namespace rl::charts {

class Callout;

enum class MoeThroughput { TokensPerSecond, Mfu };

class MoeScatterChart : public QWidget
{
    Q_OBJECT
public:
    explicit MoeScatterChart(QWidget* parent = nullptr);
    ~MoeScatterChart() override;

    void setRows(std::vector<model::MoeSweepRow> rows); // pareto flags as runMoeSweep set them
    const std::vector<model::MoeSweepRow>& rows() const { return m_rows; }
    void setThroughput(MoeThroughput metric);
    MoeThroughput throughput() const { return m_metric; }

    // The Pareto rows in drawing order (increasing latency), as indices into rows().
    const std::vector<std::size_t>& paretoOrder() const { return m_pareto; }
    QString hoverText() const;
    // One line per configuration, for tooltips and the explorer's status line.
    static QString describe(const model::MoeSweepRow& row);

    QChart* chart() const { return m_chart; }

    using Buckets = std::vector<std::pair<QScatterSeries*, std::vector<std::size_t>>>;
    // Fills chart with the scatter, bands and front; returns the description for export metadata.
    static QString populate(QChart* chart, const std::vector<model::MoeSweepRow>& rows, MoeThroughput metric,
                            Buckets* buckets, std::vector<std::size_t>* pareto);
    // PNG/SVG/PDF at a fixed size, by suffix (chartimage.h).
    static bool exportChart(const std::vector<model::MoeSweepRow>& rows, MoeThroughput metric, QSize size,
                            const QString& path, QString* error);

Q_SIGNALS:
    void configClicked(const rl::model::MoeSweepRow& row);

private:
    void rebuild();
    const model::MoeSweepRow* rowAt(const QScatterSeries* series, const QPointF& value) const;

    QChart* m_chart;
    QChartView* m_view;
    Callout* m_callout;
    std::vector<model::MoeSweepRow> m_rows;
    MoeThroughput m_metric = MoeThroughput::TokensPerSecond;
    std::vector<std::size_t> m_pareto;
    // Per scatter series, the row indices of its points in order.
    Buckets m_buckets;
};
} // namespace rl::charts
