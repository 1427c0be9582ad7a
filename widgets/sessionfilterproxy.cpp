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
