#include "collectivepointsortmodel.h"

#include "collectivepointmodel.h"

namespace rl {

CollectivePointSortModel::CollectivePointSortModel(CollectivePointModel* source, QObject* parent)
    : QSortFilterProxyModel(parent), m_points(source)
{
    setSourceModel(source);
    setSortRole(CollectivePointModel::SortRole);
}

bool CollectivePointSortModel::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    if (sortRole() != CollectivePointModel::SortRole || left.model() != m_points)
        return QSortFilterProxyModel::lessThan(left, right);
    return m_points->lessThan(left.row(), right.row(), left.column());
}
} // namespace rl
