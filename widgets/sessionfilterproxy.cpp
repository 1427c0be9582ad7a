#include "sessionfilterproxy.h"

#include "sessionmodel.h"

namespace rl {

SessionFilterProxy::SessionFilterProxy(QObject* parent) : QSortFilterProxyModel(parent)
{
    setRecursiveFilteringEnabled(true);
    setSortRole(SessionModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void SessionFilterProxy::setFilterText(const QString& text)
{
    const QStringList words = text.split(u' ', Qt::SkipEmptyParts);
    if (words == m_words)
        return;
    m_words = words;
    invalidateRowsFilter();
    // The group titles carry the shown count: tell the views they changed.
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, SessionModel::TitleColumn), index(rowCount() - 1, SessionModel::TitleColumn),
                           {Qt::DisplayRole, Qt::ToolTipRole});
}

QVariant SessionFilterProxy::data(const QModelIndex& index, int role) const
{
    const bool groupTitle = index.isValid() && !index.parent().isValid() && index.column() == SessionModel::TitleColumn;
    if (m_words.isEmpty() || !groupTitle || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return QSortFilterProxyModel::data(index, role);
    const QModelIndex source = mapToSource(index);
    const int total = sourceModel()->rowCount(source), shown = rowCount(index);
    const QString kind = SessionModel::kindLabel(source.data(SessionModel::KindRole).toString());
    if (role == Qt::DisplayRole)
        return tr("%1 (%2 of %3)").arg(kind).arg(shown).arg(total);
    return tr("%1 of %2 %3 session(s) match the filter").arg(shown).arg(total).arg(kind);
}

bool SessionFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    const QVariant l = left.data(sortRole()), r = right.data(sortRole());
    int c = 0;
    if (l.typeId() == QMetaType::QString && r.typeId() == QMetaType::QString) {
        c = QString::compare(l.toString(), r.toString(), sortCaseSensitivity());
    } else {
        const QPartialOrdering o = QVariant::compare(l, r);
        c = o == QPartialOrdering::Less ? -1 : o == QPartialOrdering::Greater ? 1 : 0;
    }
    if (c != 0)
        return c < 0;
    // Equal keys (sessions of one import share their creation time): the source order decides,
    // reversed for a descending sort so that clearing a filter restores the very same list.
    return sortOrder() == Qt::AscendingOrder ? left.row() < right.row() : left.row() > right.row();
}

bool SessionFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (m_words.isEmpty())
        return true;
    const QModelIndex idx = sourceModel()->index(sourceRow, 0, sourceParent);
    if (idx.data(SessionModel::SessionIdRole).toLongLong() == 0)
        return false; // a group: recursive filtering keeps it when a child matches
    const QString text = idx.data(SessionModel::SearchTextRole).toString();
    for (const auto& w : m_words)
        if (!text.contains(w, Qt::CaseInsensitive))
            return false;
    return true;
}
} // namespace rl
