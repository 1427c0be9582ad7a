#pragma once
// Table model over collective points for the results table: display text with units, raw
// numbers under SortRole so a QSortFilterProxyModel sorts sizes and times numerically.
// A view over the shared data set the chart tabs read (charts::SharedSessions): it keeps which
// point each row shows, never a copy of the points, so a live point is stored once.
#include <cstdint>
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

    explicit CollectivePointModel(QObject* parent = nullptr);

    // Shows every point of the data set, session by session (a model reset).
    void setSessions(charts::SharedSessions sessions);
    // The data set's owner appended points to its sessions (charts::appendLivePoint): they become
    // rows at the end (session by session when several grew since the last call), without a
    // reset. The model reads them from the data set; it is never handed a point.
    void pointsAppended();
    void clear();
    const charts::SharedSessions& sessions() const { return m_data; }
    const CollectivePoint& point(int row) const;
    // row l's SortRole value below row r's in column, compared on the typed values (no QVariant):
    // what CollectivePointSortModel sorts by.
    bool lessThan(int l, int r, int column) const;
    // Whether some point ran in a --split group (the Group column has something to show).
    bool hasGroups() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // Indices, not pointers: appending to a session's points may move them.
    struct Row
    {
        std::size_t session;
        std::size_t point;
    };
    charts::SharedSessions m_data = std::make_shared<const std::vector<charts::SessionCurves>>();
    std::vector<Row> m_rows;              // arrival order: a live point is the last row
    std::vector<std::size_t> m_indexed;  // per session: how many of its points have rows
    // The table asks per row and per role; the ceilings come from hardware profiles read from disk.
    mutable charts::TierPeakCache m_tierPeaks;
};
} // namespace rl
