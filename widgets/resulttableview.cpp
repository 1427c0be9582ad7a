#include "resulttableview.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QSortFilterProxyModel>

namespace rl::charts {

ResultTableView::ResultTableView(QWidget* parent)
    : QTableView(parent), m_model(new ResultTableModel(this)), m_proxy(new QSortFilterProxyModel(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ResultTableModel::ValueRole);
    setModel(m_proxy);
    setSortingEnabled(true);
    sortByColumn(-1, Qt::AscendingOrder); // the analysis' own order until a header is clicked
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    verticalHeader()->setVisible(false);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    setWordWrap(false);
    auto* copyAction = new QAction(tr("Copy"), this);
    copyAction->setShortcut(QKeySequence::Copy);
    copyAction->setShortcutContext(Qt::WidgetShortcut);
    copyAction->setToolTip(tr("Copy the table as tab-separated text"));
    connect(copyAction, &QAction::triggered, this, &ResultTableView::copy);
    addAction(copyAction);
    setContextMenuPolicy(Qt::ActionsContextMenu);
}

QString ResultTableView::text() const { return tabSeparated(*m_proxy); }

void ResultTableView::copy() const { QApplication::clipboard()->setText(text()); }
} // namespace rl::charts
