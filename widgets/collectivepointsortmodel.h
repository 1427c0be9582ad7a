#pragma once
// The results table's sort: CollectivePointModel's rows compared on their typed values
// (CollectivePointModel::lessThan) instead of a QVariant per SortRole lookup. 77,760 rows of a
// 3,240-curve selection sort in ~1.3 M comparisons (issue 26 item 11); the order is SortRole's.
#include <QSortFilterProxyModel>

namespace rl {
class CollectivePointModel;

class CollectivePointSortModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit CollectivePointSortModel(CollectivePointModel* source, QObject* parent = nullptr);

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    CollectivePointModel* m_points;
};
} // namespace rl
