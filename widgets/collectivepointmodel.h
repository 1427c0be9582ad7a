#pragma once
// Table model over collective points for the results table: display text with units, raw
// numbers under SortRole so a QSortFilterProxyModel sorts sizes and times numerically.
// A view over the shared data set the chart tabs read (charts::SharedSessions): it keeps which
// point each row shows, never a copy of the points, so a live point is stored once.
#include <cstdint>
#include <optional>
#include <vector>

#include <QAbstractTableModel>

#include "chartcontent.h"
#include "records/collectivepoint.h"
#include "views/chartdata.h"

namespace rl {

class CollectivePointModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    // SessionLabel first: with two sessions overlaid, an H100 and an MI300X row look alike otherwise.
    enum Column { SessionLabel, Op, InPlace, Ranks, Group, Dtype, Redop, Size, Count, Time, AlgBw, BusBw, PeakShare, Wrong, ColumnCount };
    enum Role { SortRole = Qt::UserRole, PointIndexRole };

    // A row: which point of which session of the data set it shows. Indices, not pointers:
    // appending to a session's points may move them.
    struct Row
    {
        std::size_t session;
        std::size_t point;
    };

    explicit CollectivePointModel(QObject* parent = nullptr);

    // Every point of sessions as rows in the order sort(column, order) puts them (session by
    // session for column -1). Pure: the window runs it off the GUI thread with the points' load
    // (issue 26 item 11: sorting 77,760 rows blocked the GUI thread), then hands the rows in.
    static std::vector<Row> sortedRows(const std::vector<charts::SessionCurves>& sessions, int column, Qt::SortOrder order);
    // Shows every point of the data set (a model reset) in the current sort order; rows, when
    // given, are sortedRows() of these sessions for sortColumn() and sortOrder().
    void setSessions(charts::SharedSessions sessions, std::optional<std::vector<Row>> rows = std::nullopt);
    // The model sorts itself (the table needs no sorting proxy), on the typed values (rowLess(), no
    // QVariant); appended points are inserted where the order puts them.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    int sortColumn() const { return m_sortColumn; } // -1: session by session, as they arrived
    Qt::SortOrder sortOrder() const { return m_sortOrder; }
    // The data set's owner appended points to its sessions (charts::appendLivePoint): they become
    // rows, without a reset: at the end (session by session when several grew since the last call)
    // while unsorted, else where the order puts them. The model reads them from the data set; it is
    // never handed a point.
    void pointsAppended();
    void clear();
    const charts::SharedSessions& sessions() const { return m_data; }
    const CollectivePoint& point(int row) const;
    // Whether some point ran in a --split group (the Group column has something to show).
    bool hasGroups() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // Row a's SortRole value below row b's in column, compared on the typed values: what sort() sorts by.
    static bool rowLess(const std::vector<charts::SessionCurves>& sessions, charts::TierPeakCache& peaks, const Row& a,
                        const Row& b, int column);
    // Whether a comes before b in column's order (rowLess, turned round for a descending one).
    static bool rowBefore(const std::vector<charts::SessionCurves>& sessions, charts::TierPeakCache& peaks, const Row& a,
                          const Row& b, int column, Qt::SortOrder order);
    // Where row belongs in the current order (after its equals: a live point goes last among them).
    std::size_t sortedPosition(const Row& row) const;

    charts::SharedSessions m_data = std::make_shared<const std::vector<charts::SessionCurves>>();
    std::vector<Row> m_rows;             // in the sort order (arrival order while unsorted)
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    std::vector<std::size_t> m_indexed;  // per session: how many of its points have rows
    // The table asks per row and per role; the ceilings come from hardware profiles read from disk.
    mutable charts::TierPeakCache m_tierPeaks;
};
} // namespace rl
