#include "gui/window/chartarea.h"

#include <algorithm>
#include <utility>

#include <QHeaderView>
#include <QTableView>

#include "chartexport.h"
#include "filedialogs.h"
#include "collectivechart.h"
#include "collectivepointmodel.h"
#include "sampledtableview.h"

namespace rl {
namespace {
struct TabSpec
{
    charts::ChartKind kind;
    const char* name;
    const char* objectName;
    const char* tip;
};
const TabSpec kTabs[] = {
    {charts::ChartKind::Bandwidth, QT_TRANSLATE_NOOP("rl::ChartArea", "Bandwidth"), "bandwidthChart",
     QT_TRANSLATE_NOOP("rl::ChartArea", "Bandwidth against message size, with alpha-beta fits")},
    {charts::ChartKind::Latency, QT_TRANSLATE_NOOP("rl::ChartArea", "Latency"), "latencyChart",
     QT_TRANSLATE_NOOP("rl::ChartArea", "Time per call (µs) against message size")},
    {charts::ChartKind::Scaling, QT_TRANSLATE_NOOP("rl::ChartArea", "Scaling"), "scalingChart",
     QT_TRANSLATE_NOOP("rl::ChartArea", "Bandwidth at one message size across rank counts")},
    {charts::ChartKind::Compare, QT_TRANSLATE_NOOP("rl::ChartArea", "Compare"), "compareChart",
     QT_TRANSLATE_NOOP("rl::ChartArea", "Second selected session over the first, per size")},
};
} // namespace

ChartArea::ChartArea(QWidget* parent)
    : QTabWidget(parent), m_points(new CollectivePointModel(this)), m_table(new charts::SampledTableView),
      m_data(std::make_shared<std::vector<charts::SessionCurves>>())
{
    setObjectName(QStringLiteral("chartArea"));
    for (const auto& tab : kTabs) {
        auto* chart = new charts::CollectiveChart;
        chart->setObjectName(QString::fromLatin1(tab.objectName));
        chart->setKind(tab.kind);
        m_charts.push_back(chart);
        connect(chart, &charts::ChartFrame::chartExported, this, &ChartArea::chartExported);
        const int i = addTab(chart, tr(tab.name));
        setTabToolTip(i, tr(tab.tip));
    }
    m_table->setObjectName(QStringLiteral("resultsTable"));
    m_table->setToolTip(tr("Every point of the selected sessions; click a header to sort"));
    m_table->setModel(m_points);
    m_table->setSortingEnabled(true);
    fitTableColumns(false);
    m_table->setColumnWidth(CollectivePointModel::SessionLabel, 200);
    m_table->setTextElideMode(Qt::ElideMiddle);
    const int t = addTab(m_table, tr("Results table"));
    setTabToolTip(t, tr("Every point of the selected sessions, with units"));
    connect(this, &QTabWidget::currentChanged, this, &ChartArea::onCurrentChanged);
}

void ChartArea::onCurrentChanged(int index)
{
    if (widget(index) == m_table && std::exchange(m_pointsUnread, false)) {
        setTabText(index, tr("Results table (reading points…)"));
        emit pointsWanted();
    }
    if (auto* c = qobject_cast<charts::CollectiveChart*>(widget(index)))
        c->drawIfUndrawn();
    fitTableColumns(widget(index) == m_table);
}

void ChartArea::fitTableColumns(bool toContents)
{
    // Sizing to contents measures rows of every column (SampledTableView: 32 near the view and
    // 128 spread over all) each time the model resets or a column is shown: only while the table is
    // on screen (hidden, the columns keep their widths). Qt's 1,000 rows near the view made the
    // first switch to the table a 128-143 ms block on 77,760 rows; these 160 make it 76-98 ms
    // (test_gui_scale), and a table sorted by size fits its largest sizes.
    auto* header = m_table->horizontalHeader();
    header->setSectionResizeMode(toContents ? QHeaderView::ResizeToContents : QHeaderView::Interactive);
    // A long session title took the figures off screen: its column is narrow and elides in the
    // middle (the end tells sessions apart; the tooltip has the title), the user can widen it.
    header->setSectionResizeMode(CollectivePointModel::SessionLabel, QHeaderView::Interactive);
}

void ChartArea::setData(std::vector<charts::SessionCurves> data)
{
    Loaded loaded;
    loaded.curves.sessions = std::make_shared<std::vector<charts::SessionCurves>>(std::move(data));
    setLoaded(std::move(loaded));
}

ChartArea::LoadRequest ChartArea::loadRequest() const
{
    LoadRequest r;
    // The tabs share one size: the hidden ones are asked at the plot width of the one on screen.
    const auto* shown = currentChart() ? currentChart() : m_charts.front();
    const int pixels = shown->sizeChartRequest().pixels;
    for (const auto* c : m_charts) {
        r.charts.push_back(c->sizeChartRequest());
        r.charts.back().pixels = pixels;
    }
    r.sortColumn = m_points->sortColumn();
    r.sortOrder = m_points->sortOrder();
    return r;
}

ChartArea::Loaded ChartArea::prepare(std::vector<charts::SessionCurves> sessions, const LoadRequest& request,
                                     const std::function<bool()>& cancelled,
                                     const std::function<void(PrepareStep)>& step)
{
    Loaded out;
    if (step)
        step(PrepareStep::Charts);
    out.curves = charts::prepareCurves(std::move(sessions), request.charts, cancelled);
    if ((cancelled && cancelled()) || charts::anyOutline(*out.curves.sessions))
        return out; // an outline has no rows for the table
    if (step)
        step(PrepareStep::Table);
    out.tableRows = CollectivePointModel::sortedRows(*out.curves.sessions, request.sortColumn, request.sortOrder);
    out.hasGroups = std::any_of(out.curves.sessions->begin(), out.curves.sessions->end(), [](const charts::SessionCurves& s) {
        return std::any_of(s.points.begin(), s.points.end(), [](const CollectivePoint& p) { return !p.group.empty(); });
    });
    out.sortColumn = request.sortColumn;
    out.sortOrder = request.sortOrder;
    return out;
}

void ChartArea::setLoaded(Loaded loaded)
{
    m_pointsUnread = false;
    charts::PreparedCurves& prepared = loaded.curves;
    m_data = prepared.sessions ? std::move(prepared.sessions) : std::make_shared<std::vector<charts::SessionCurves>>();
    // Only the chart on screen is drawn now; the other tabs when they are shown.
    for (std::size_t i = 0; i < m_charts.size(); ++i) {
        auto* c = m_charts[i];
        std::optional<charts::SizeChartData> data;
        if (i < prepared.charts.size())
            data = std::move(prepared.charts[i]);
        if (c == currentWidget())
            c->setSessions(m_data, std::move(data));
        else
            c->setSessionsUndrawn(m_data, std::move(data));
    }
    // An outline's points are not the table's rows: it stays empty until every point is read.
    const bool every = holdsEveryPoint();
    const int tableTab = indexOf(m_table);
    setTabText(tableTab, every ? tr("Results table") : tr("Results table (reading points…)"));
    if (!every) {
        m_points->setSessions(std::make_shared<const std::vector<charts::SessionCurves>>());
        return;
    }
    // Rows sorted for another order (the user clicked a header meanwhile), or none (setData), are
    // sorted here.
    const bool rowsFit = loaded.sortColumn == m_points->sortColumn() && loaded.sortOrder == m_points->sortOrder() &&
                         loaded.tableRows.size() == static_cast<std::size_t>(pointCount());
    m_points->setSessions(m_data, rowsFit ? std::optional(std::move(loaded.tableRows)) : std::nullopt);
    // The session column tells overlaid sessions apart; with one session it would repeat one value.
    m_table->setColumnHidden(CollectivePointModel::SessionLabel, m_data->size() < 2);
    // Only --split runs have groups; elsewhere the column would stand empty.
    m_table->setColumnHidden(CollectivePointModel::Group, !(loaded.hasGroups ? *loaded.hasGroups : m_points->hasGroups()));
}

void ChartArea::appendPoint(std::int64_t sessionId, const CollectivePoint& point)
{
    // Stored once, here; the tabs and the table read it from the data set.
    if (!charts::appendLivePoint(*m_data, sessionId, point))
        return;
    for (auto* c : m_charts)
        c->pointsAppended(sessionId);
    m_points->pointsAppended();
    if (!point.group.empty())
        m_table->setColumnHidden(CollectivePointModel::Group, false);
}

int ChartArea::pointCount() const
{
    int n = 0;
    for (const auto& s : *m_data)
        n += static_cast<int>(s.points.size());
    return n;
}

bool ChartArea::holdsEveryPoint() const
{
    return !charts::anyOutline(*m_data);
}

void ChartArea::markPointsUnread()
{
    if (holdsEveryPoint())
        return;
    m_pointsUnread = true;
    setTabText(indexOf(m_table), tr("Results table (not read: open to read)"));
    if (currentWidget() == m_table) // shown already: read when shown again
        setCurrentIndex(0);
}

charts::CollectiveChart* ChartArea::currentChart() const
{
    return qobject_cast<charts::CollectiveChart*>(currentWidget());
}

charts::CollectiveChart* ChartArea::exportedChart() const
{
    return currentChart() ? currentChart() : m_charts.front();
}

namespace {
std::vector<std::int64_t> sessionIds(const std::vector<charts::SessionCurves>& data)
{
    std::vector<std::int64_t> ids;
    for (const auto& d : data)
        ids.push_back(d.session.id);
    return ids;
}
} // namespace

QString ChartArea::dataFileName() const
{
    return filedialogs::exportFileName(QStringLiteral("points"), sessionIds(*m_data), QStringLiteral("csv"));
}
} // namespace rl
