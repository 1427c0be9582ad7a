#include "gui/window/sessionbrowser.h"

#include <QEvent>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

#include "sessionfilterproxy.h"
#include "sessionmodel.h"

namespace rl {

SessionBrowser::SessionBrowser(QWidget* parent)
    : QWidget(parent), m_search(new QLineEdit), m_view(new QTreeView), m_model(new SessionModel(this)),
      m_proxy(new SessionFilterProxy(this))
{
    setObjectName(QStringLiteral("sessionBrowser"));
    m_search->setObjectName(QStringLiteral("sessionSearch"));
    m_search->setPlaceholderText(tr("Filter by title, tool, host or op…"));
    m_search->setToolTip(tr("Show only sessions whose title, tool, host or op contains every word"));
    m_search->setClearButtonEnabled(true);

    m_proxy->setSourceModel(m_model);
    m_view->setObjectName(QStringLiteral("sessionView"));
    m_view->setToolTip(tr("Sessions in the workspace; select several (Ctrl/Shift) to overlay them"));
    m_view->setModel(m_proxy);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(SessionModel::CreatedColumn, Qt::DescendingOrder);
    m_view->setUniformRowHeights(true);
    // Titles are edited through Rename (F2, the context menu): a double click stays a selection.
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(QHeaderView::Interactive);
    // A long title ends in an ellipsis inside the visible width, and keeps its end: a duplicate's
    // "(copy)" and the tool version are what tells two sessions apart (the tooltip has it all).
    m_view->setTextElideMode(Qt::ElideMiddle);
    m_view->viewport()->installEventFilter(this);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_search);
    layout->addWidget(m_view);

    connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterText(text);
        m_view->expandAll();
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { emit selectionChanged(selectedIds()); });
}

void SessionBrowser::setSessions(std::vector<Session> sessions, std::optional<std::vector<std::int64_t>> select)
{
    const auto previous = selectedIds();
    m_model->setSessions(std::move(sessions));
    m_view->expandAll();
    // Titles are long ("all_reduce_perf 8 ranks on mi300x-node01"): give them the room, keep the rest tight.
    for (int c = 1; c < SessionModel::ColumnCount; ++c)
        m_view->resizeColumnToContents(c);
    m_view->resizeColumnToContents(SessionModel::TitleColumn);
    m_titleWidth = m_view->columnWidth(SessionModel::TitleColumn);
    fitTitleColumn();
    selectSessions(select ? *select : previous);
    // The reset cleared the selection without a signal, and selecting nothing into an empty
    // selection sends none either: when the selected sessions are gone (deleted, an undone
    // duplicate), the views would keep showing them and the actions stay enabled.
    if (!previous.empty() && selectedIds().empty())
        emit selectionChanged({});
}

void SessionBrowser::fitTitleColumn()
{
    // As wide as the longest title (at most 320 px), but never past the visible width: there the
    // view clipped titles at its edge, with no ellipsis. The other columns stay a scroll away. The
    // titles' width is measured when the list changes, not at every resize of the dock.
    const int visible = m_view->viewport()->width();
    m_view->setColumnWidth(SessionModel::TitleColumn, std::max(120, std::min({m_titleWidth, 320, visible})));
}

bool SessionBrowser::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view->viewport() && event->type() == QEvent::Resize)
        fitTitleColumn();
    return QWidget::eventFilter(watched, event);
}

std::vector<std::int64_t> SessionBrowser::selectedIds() const
{
    std::vector<std::int64_t> ids;
    for (const auto& idx : m_view->selectionModel()->selectedRows()) {
        const auto id = idx.data(SessionModel::SessionIdRole).toLongLong();
        if (id != 0)
            ids.push_back(id);
    }
    return ids;
}

std::optional<Session> SessionBrowser::session(std::int64_t id) const
{
    return m_model->session(m_model->indexOfSession(id));
}

void SessionBrowser::selectSessions(const std::vector<std::int64_t>& ids)
{
    QItemSelection selection;
    for (auto id : ids) {
        const QModelIndex idx = m_proxy->mapFromSource(m_model->indexOfSession(id));
        if (idx.isValid())
            selection.select(idx, idx);
    }
    m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    if (!selection.isEmpty())
        m_view->scrollTo(selection.indexes().first());
}

void SessionBrowser::editTitle(std::int64_t id)
{
    const QModelIndex idx = m_proxy->mapFromSource(m_model->indexOfSession(id, SessionModel::TitleColumn));
    if (!idx.isValid())
        return;
    m_view->setCurrentIndex(idx);
    m_view->scrollTo(idx);
    m_view->edit(idx);
}

void SessionBrowser::focusSearch()
{
    m_search->setFocus(Qt::ShortcutFocusReason);
    m_search->selectAll();
}

void SessionBrowser::selectFirst(int count)
{
    std::vector<std::int64_t> ids;
    const QModelIndex group = m_proxy->index(0, 0);
    for (int r = 0; r < std::min(count, m_proxy->rowCount(group)); ++r)
        ids.push_back(m_proxy->index(r, 0, group).data(SessionModel::SessionIdRole).toLongLong());
    selectSessions(ids);
}
} // namespace rl
