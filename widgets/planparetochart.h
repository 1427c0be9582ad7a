#pragma once
// The layout search's trade-off: step time against memory per GPU for the ranked layouts of a plan
// (plan::PlanResult::top as points, the ties with #1 in their own colour), the Pareto front of the
// whole search as a line, and the device's usable memory as a vertical line. Hover names the layout,
// a click emits its row (the Plan window selects it in its table). Export: PNG/SVG/PDF of the chart
// or, as CSV, every ranked and Pareto row as ridgeline-cli plan -o writes them (plan::toCsv).
#include <vector>

#include <QSize>
#include <QXYSeries>

#include "chartframe.h"
#include "drawnseries.h"
#include "plan/plansearch.h"

namespace rl::charts {

// What populate() drew that the widget answers hovers and clicks on (drawnseries.h): each series
// of layouts with the rows of the result its points are, point i = rows[i] of top or pareto.
struct PlanParetoDrawn
{
    struct Layouts
    {
        QXYSeries* series;
        bool top; // rows index the result's top list, else its Pareto front
        std::vector<std::size_t> rows;
    };
    std::vector<Layouts> sets;
};

class PlanParetoChart : public ChartFrame
{
    Q_OBJECT
public:
    explicit PlanParetoChart(QWidget* parent = nullptr);
    ~PlanParetoChart() override;

    void setResult(plan::PlanResult result);
    void clear();
    const plan::PlanResult& result() const { return m_result; }
    // The ranked layouts drawn as points (the top rows) and the Pareto front's points.
    int pointCount() const;
    int frontCount() const;
    // Memory per GPU the device can use (capacity less the framework's headroom), bytes; 0: unknown.
    static double usableBytes(const plan::PlanResult& result);
    // One line per figure, for the hover callout.
    static QString describe(const plan::PlanRow& row);

    // Fills chart as the widget shows result; returns the description for export metadata.
    static QString populate(QChart* chart, const plan::PlanResult& result);
    static bool exportChart(const plan::PlanResult& result, QSize size, const QString& path, QString* error);

Q_SIGNALS:
    // The rank of a clicked point (a top row or a Pareto row).
    void rowClicked(long long rank);

protected:
    QString populateExport(QChart* chart) const override { return populate(chart, m_result); }
    std::string exportCsv() const override { return plan::toCsv(m_result); }
    QString exportName() const override { return QStringLiteral("plan"); }
    std::vector<std::int64_t> exportSessionIds() const override { return {}; }
    QString exportProblem(bool data) const override;

private:
    void rebuild() override;
    const plan::PlanRow* rowOf(const PlanParetoDrawn::Layouts& layouts, int point) const;

    plan::PlanResult m_result;
};
} // namespace rl::charts
