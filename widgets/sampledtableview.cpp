#include "sampledtableview.h"

#include <algorithm>

#include <QAbstractItemDelegate>
#include <QHeaderView>
#include <QStyleOptionViewItem>

namespace rl::charts {

SampledTableView::SampledTableView(QWidget* parent) : QTableView(parent)
{
    // The rows near the view, Qt's own measure: fewer than its 1,000, the spread rows do the rest.
    horizontalHeader()->setResizeContentsPrecision(32);
}

int SampledTableView::sizeHintForColumn(int column) const
{
    const int nearView = QTableView::sizeHintForColumn(column);
    const QAbstractItemModel* m = model();
    if (!m || column < 0 || isColumnHidden(column))
        return nearView;
    const int rows = m->rowCount(rootIndex());
    if (rows <= kSpreadRows)
        return nearView; // Qt measured them all, or those near the view are all there is to see
    QStyleOptionViewItem option;
    initViewItemOption(&option);
    int widest = 0;
    const double step = double(rows - 1) / (kSpreadRows - 1); // the first and the last row included
    for (int k = 0; k < kSpreadRows; ++k) {
        const int row = static_cast<int>(k * step + 0.5);
        if (isRowHidden(row))
            continue;
        const QModelIndex index = m->index(row, column, rootIndex());
        widest = std::max(widest, itemDelegateForIndex(index)->sizeHint(option, index).width());
    }
    return std::max(nearView, showGrid() ? widest + 1 : widest); // a grid line, as Qt adds
}
} // namespace rl::charts
