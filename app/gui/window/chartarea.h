#pragma once
// The chart tabs: Bandwidth, Latency, Scaling and Compare (one charts::CollectiveChart each, from
// widgets/) and a results table (CollectivePointModel). All show the selected sessions; live
// benchmark points are appended as they arrive.
#include <QTabWidget>

#include <functional>
#include <memory>
#include <vector>

#include "collectivepointmodel.h"
#include "views/chartdata.h"
#include "views/sizechartdata.h"

class QTableView;

namespace rl {
class Settings;
namespace charts {
class CollectiveChart;
}

class ChartArea : public QTabWidget
{
    Q_OBJECT
public:
    explicit ChartArea(QWidget* parent = nullptr);

    void setData(std::vector<charts::SessionCurves> data);

    // A selection's data built off the GUI thread with the points' load (issue 26 item 11), so the
    // GUI thread only hands finished data to the tabs and the table: each chart tab's size chart
    // data (prepareCurves) and the table's rows in its sort order.
    struct LoadRequest
    {
        std::vector<charts::SizeChartRequest> charts; // per chart tab, at the shown tab's plot width
        int sortColumn = -1;
        Qt::SortOrder sortOrder = Qt::AscendingOrder;
    };
    struct Loaded
    {
        charts::PreparedCurves curves;
        std::vector<CollectivePointModel::Row> tableRows; // for the request's sort
        // Whether any point is of a --split group, found on the worker: in the table's order, 1 M
        // points took ~30 ms of the GUI thread. Unset: setLoaded looks.
        std::optional<bool> hasGroups;
        int sortColumn = -1;
        Qt::SortOrder sortOrder = Qt::AscendingOrder;
    };
    LoadRequest loadRequest() const;
    // Runs on a worker: pure, reads nothing of a ChartArea. cancelled is asked between steps;
    // step, when given, is told each step as it starts (the charts, then the table).
    enum class PrepareStep { Charts, Table };
    static Loaded prepare(std::vector<charts::SessionCurves> sessions, const LoadRequest& request,
                          const std::function<bool()>& cancelled = {},
                          const std::function<void(PrepareStep)>& step = {});
    // What a data set whose owner has not changed since the request was prepared for is shown with:
    // parts made for other options (a chart's metric, the table's sort changed meanwhile) are
    // computed again here.
    void setLoaded(Loaded loaded);
    // A point of a running session, appended to the data set every tab and the table read; ignored
    // when the session is not shown or the point is there.
    void appendPoint(std::int64_t sessionId, const CollectivePoint& point);
    const std::vector<charts::SessionCurves>& data() const { return *m_data; }
    int pointCount() const;
    // False while a long session is shown from its outline (store/collectiveoutline.h): the size
    // charts are drawn, the results table, the scaling and compare views and the exports wait for
    // the points, which the loader reads next.
    bool holdsEveryPoint() const;
    // The read of every point was stopped: the charts stay drawn from the outline, the table says
    // its points were not read, and showing it asks for them (pointsWanted).
    void markPointsUnread();

    charts::CollectiveChart* currentChart() const; // nullptr on the results table
    // The chart File > Export chart saves: the current one, or the bandwidth chart from the table.
    charts::CollectiveChart* exportedChart() const;
    // The chart whose data "Export data" writes: the bandwidth chart's, every point of the shown
    // sessions.
    charts::CollectiveChart* dataChart() const { return m_charts.front(); }
    // The name the data export dialog proposes: "points-s3-s4.csv".
    QString dataFileName() const;

Q_SIGNALS:
    void chartExported(const QString& path); // by any chart's Export
    void pointsWanted(); // the results table shown after its points' read was stopped

private:
    // Draws a chart tab the first time it is shown with its data set; sizes the table's columns
    // to their contents only while the table is shown.
    void onCurrentChanged(int index);
    void fitTableColumns(bool toContents);

    std::vector<charts::CollectiveChart*> m_charts; // in tab order
    CollectivePointModel* m_points; // sorts itself: the rows come sorted from the worker
    QTableView* m_table;
    // The one data set the chart tabs and the table read; live points are appended here once.
    std::shared_ptr<std::vector<charts::SessionCurves>> m_data;
    bool m_pointsUnread = false; // markPointsUnread, until the next data set
};
} // namespace rl
