#pragma once
// Table model over collective points for the results table: display text with units, raw
// numbers under SortRole so a QSortFilterProxyModel sorts sizes and times numerically.
#include <cstdint>
#include <limits>
#include <vector>

#include <QAbstractTableModel>

#include "records/collectivepoint.h"

namespace rl {

// A point's busbw against its tier's ceiling ("is this number good?"); fraction NaN: unknown.
struct PointTierShare
{
    double fraction = std::numeric_limits<double>::quiet_NaN();
    QString reasoning; // how the ceiling follows from the profile, for the tooltip
};

class CollectivePointModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    // SessionLabel first: with two sessions overlaid, an H100 and an MI300X row look alike otherwise.
    enum Column { SessionLabel, Op, InPlace, Ranks, Group, Dtype, Redop, Size, Count, Time, AlgBw, BusBw, PeakShare, Wrong, ColumnCount };
    enum Role { SortRole = Qt::UserRole, PointIndexRole };

    // The session a row came from: "#id host" in the table, the title in the tooltip.
    struct SessionRef
    {
        std::int64_t id = 0;
        QString host;
        QString title;
    };

    using TierShare = PointTierShare;

    explicit CollectivePointModel(QObject* parent = nullptr);

    // sessionOfPoint and shares are parallel to points, or empty when the rows need no session
    // column text or share.
    void setResults(std::vector<CollectivePoint> points, std::vector<SessionRef> sessionOfPoint = {},
                    std::vector<TierShare> shares = {});
    // One more row at the end (a live point), without resetting the table.
    void appendResult(const CollectivePoint& point, const SessionRef& session, const TierShare& share = {});
    void clear();
    const std::vector<CollectivePoint>& results() const { return m_points; }
    // Whether some point ran in a --split group (the Group column has something to show).
    bool hasGroups() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<CollectivePoint> m_points;
    std::vector<SessionRef> m_sessions; // parallel to m_points, or empty
    std::vector<TierShare> m_shares;    // parallel to m_points, or empty
};
} // namespace rl
