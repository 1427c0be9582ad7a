#pragma once
// The MoE trade-off scatter: training throughput (tokens/s or MFU) against decode latency per token
// for every configuration of a sweep, colour = total parameters (five quantile bands), marker
// size = memory per GPU (three bands), the Pareto front as a line; what it shows comes from
// views::moeScatterData. Hover shows the configuration,
// a click emits it (the explorer loads it). The points are painted by one PointCloud item (a
// QScatterSeries per point band would build a graphics item per point: seconds at 50,000 points);
// tests/benchmarks/bench_moe_redraw measures the redraw.
#include <cstddef>
#include <vector>

#include <QSize>

#include "chartframe.h"
#include "model/moesweep.h"
#include "views/moescatterdata.h"

QT_BEGIN_NAMESPACE
class QLineSeries;
class QScatterSeries;
QT_END_NAMESPACE

namespace rl::charts {

using MoeThroughput = views::MoeThroughput; // what the y axis shows

// What a shape search adds to its rows (the explorer's best-layout mode): the base shape drawn with a
// ring under its own legend entry, and per row a note the hover adds (its best layout).
struct MoeMarks
{
    long base = -1;             // index into the rows; -1: none
    QString baseName;           // legend: "base (zaya1-base)"
    std::vector<QString> notes; // per row, may be shorter than the rows; "" adds nothing
};

class MoeScatterChart : public ChartFrame
{
    Q_OBJECT
public:
    explicit MoeScatterChart(QWidget* parent = nullptr);
    ~MoeScatterChart() override;

    // Pareto and fit flags as runMoeSweep set them; deviceMemoryBytes (the result's) names the
    // capacity in the hover of a configuration that does not fit (0: unknown).
    void setRows(std::vector<model::MoeSweepRow> rows, double deviceMemoryBytes = 0);
    // A whole sweep: its rows as above, and its CSV (model::toCsv) for "Export as CSV"; with the
    // marks of a shape search, or none.
    void setResult(model::MoeSweepResult result, MoeMarks marks = {});
    const MoeMarks& marks() const { return m_marks; }
    const std::vector<model::MoeSweepRow>& rows() const { return m_result.rows; }
    void setThroughput(MoeThroughput metric);
    MoeThroughput throughput() const { return m_metric; }

    // The Pareto rows in drawing order (increasing latency), as indices into rows().
    const std::vector<std::size_t>& paretoOrder() const { return m_pareto; }
    // One line per configuration, for tooltips and the explorer's status line; ends with
    // "does not fit: X GB needed of Y GB" when the row does not fit deviceMemoryBytes.
    static QString describe(const model::MoeSweepRow& row, double deviceMemoryBytes = 0);

    // The configuration drawn at a chart position (chart item coordinates), or nullptr.
    const model::MoeSweepRow* rowAtPosition(QPointF chartPos) const;

    // Fills chart with the points (a PointCloud in row order), colour bands and front; returns the
    // description for export metadata.
    // Rows that do not fit the device are drawn grey with a red outline, under their own legend entry.
    static QString populate(QChart* chart, const std::vector<model::MoeSweepRow>& rows, MoeThroughput metric,
                            std::vector<std::size_t>* pareto, double deviceMemoryBytes = 0,
                            const MoeMarks& marks = {});
    // The base shape's ring series on a populated chart, or nullptr.
    static QScatterSeries* baseSeries(const QChart* chart);
    // PNG/SVG/PDF at a fixed size, or every configuration as CSV, by suffix (exportChartFile).
    static bool exportChart(const std::vector<model::MoeSweepRow>& rows, MoeThroughput metric, QSize size,
                            const QString& path, QString* error, double deviceMemoryBytes = 0);

Q_SIGNALS:
    void configClicked(const rl::model::MoeSweepRow& row);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override; // hover and click on the view
    QString populateExport(QChart* chart) const override
    {
        return populate(chart, m_result.rows, m_metric, nullptr, m_result.deviceMemoryBytes, m_marks);
    }
    std::string exportCsv() const override { return model::toCsv(m_result); }
    QString exportName() const override { return QStringLiteral("moe-sweep"); }
    std::vector<std::int64_t> exportSessionIds() const override { return {}; }

private:
    void rebuild() override;

    model::MoeSweepResult m_result;
    MoeMarks m_marks;
    MoeThroughput m_metric = MoeThroughput::TokensPerSecond;
    std::vector<std::size_t> m_pareto;
};
} // namespace rl::charts
