#pragma once
// The resilience planner's goodput charts, drawn from views/goodputchartdata.h: goodput vs
// checkpoint interval (log axis in s, min or h) with Daly's optimum and Young's interval marked,
// or goodput vs number of nodes (log2 axis) with the planned job marked. Used by the GUI's
// Resilience view and by `ridgeline-cli checkpoint -o FILE.png|svg|pdf`.
#include <QSize>
#include <QXYSeries>

#include "chartframe.h"
#include "drawnseries.h"
#include "views/goodputchartdata.h"

namespace rl::charts {

// What populate() drew that the widget answers hovers on (drawnseries.h): each series with the
// index of the chart data's line it draws.
struct GoodputDrawn
{
    std::vector<std::pair<QXYSeries*, std::size_t>> lines;
};

class GoodputChart : public ChartFrame
{
    Q_OBJECT
public:
    explicit GoodputChart(views::GoodputChartKind kind, QWidget* parent = nullptr);
    ~GoodputChart() override;

    views::GoodputChartKind kind() const { return m_kind; }
    // The plan to draw; subject names it in the title, basis (storage and MTBF sources) goes to
    // the exported file's description.
    void setPlan(const resilience::ResiliencePlan& plan, const std::string& subject, const std::string& basis = {});
    void clear(const QString& why);
    const views::GoodputChartData& data() const { return m_data; }

    static QString populate(QChart* chart, const views::GoodputChartData& data);
    static bool exportChart(const resilience::ResiliencePlan& plan, views::GoodputChartKind kind,
                            const std::string& subject, const std::string& basis, QSize size, const QString& path,
                            QString* error);

protected:
    QString populateExport(QChart* chart) const override { return populate(chart, m_data); }
    std::string exportCsv() const override;
    QString exportName() const override;
    std::vector<std::int64_t> exportSessionIds() const override { return {}; }
    QString exportProblem(bool data) const override;

private:
    void rebuild() override;

    views::GoodputChartKind m_kind;
    views::GoodputChartData m_data;
    std::optional<resilience::ResiliencePlan> m_plan;
};
} // namespace rl::charts
