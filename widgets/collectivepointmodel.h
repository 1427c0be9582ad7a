#pragma once
// Table model over collective points for the results table: display text with units, raw
// numbers under SortRole so a QSortFilterProxyModel sorts sizes and times numerically.
#include <vector>

#include <QAbstractTableModel>

#include "records/collectivepoint.h"

namespace rl {

class CollectivePointModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Op, InPlace, Ranks, Dtype, Redop, Size, Count, Time, AlgBw, BusBw, Wrong, ColumnCount };
    enum Role { SortRole = Qt::UserRole, PointIndexRole };

    explicit CollectivePointModel(QObject* parent = nullptr);

    void setResults(std::vector<CollectivePoint> points);
    void clear();
    const std::vector<CollectivePoint>& results() const { return m_points; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<CollectivePoint> m_points;
};
} // namespace rl
