#pragma once
// Table model over collective points for the results table: display text with units, raw
// numbers under SortRole so a QSortFilterProxyModel sorts sizes and times numerically.
#include <cstdint>
#include <vector>

#include <QAbstractTableModel>

#include "records/collectivepoint.h"

namespace rl {

class CollectivePointModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    // SessionLabel first: with two sessions overlaid, an H100 and an MI300X row look alike otherwise.
    enum Column { SessionLabel, Op, InPlace, Ranks, Dtype, Redop, Size, Count, Time, AlgBw, BusBw, Wrong, ColumnCount };
    enum Role { SortRole = Qt::UserRole, PointIndexRole };

    // The session a row came from: "#id host" in the table, the title in the tooltip.
    struct SessionRef
    {
        std::int64_t id = 0;
        QString host;
        QString title;
    };

    explicit CollectivePointModel(QObject* parent = nullptr);

    // sessionOfPoint is parallel to points, or empty when the rows need no session column text.
    void setResults(std::vector<CollectivePoint> points, std::vector<SessionRef> sessionOfPoint = {});
    void clear();
    const std::vector<CollectivePoint>& results() const { return m_points; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<CollectivePoint> m_points;
    std::vector<SessionRef> m_sessions; // parallel to m_points, or empty
};
} // namespace rl
