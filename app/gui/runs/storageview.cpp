#include "gui/runs/storageview.h"

#include <set>

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "storagepointmodel.h"

namespace rl {

StorageView::StorageView(QWidget* parent)
    : QWidget(parent)
    , m_tabs(new QTabWidget)
    , m_bySize(new charts::StorageChart(storage::StorageAxis::FileSize))
    , m_byRanks(new charts::StorageChart(storage::StorageAxis::Ranks))
    , m_points(new charts::StoragePointModel(this))
    , m_table(new QTableView)
{
    setObjectName(QStringLiteral("storageView"));
    m_tabs->setObjectName(QStringLiteral("storageTabs"));
    auto* sorted = new QSortFilterProxyModel(this);
    sorted->setSourceModel(m_points);
    sorted->setSortRole(charts::StoragePointModel::SortRole);
    m_table->setObjectName(QStringLiteral("storageTable"));
    m_table->setModel(sorted);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // as measured until a header is clicked
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->verticalHeader()->hide();
    m_tabs->addTab(m_bySize, tr("Bandwidth vs file size"));
    m_tabs->addTab(m_byRanks, tr("Bandwidth vs ranks"));
    m_tabs->addTab(m_table, tr("Storage results"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);
}

void StorageView::setData(const std::vector<storage::StorageSessionData>& sessions)
{
    m_bySize->setData(sessions);
    m_byRanks->setData(sessions);
    m_points->setResults(sessions);
    // A run at one rank count has nothing to draw against ranks: open on the axis that varies.
    std::set<int> ranks;
    std::set<std::int64_t> sizes;
    for (const auto& s : sessions)
        for (const auto& p : s.points) {
            ranks.insert(p.nranks);
            sizes.insert(p.fileBytes);
        }
    if (m_tabs->currentWidget() != m_table)
        m_tabs->setCurrentWidget(ranks.size() > sizes.size() ? m_byRanks : m_bySize);
}
} // namespace rl
