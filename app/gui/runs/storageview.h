#pragma once
// What the main window shows for storage sessions (`ridgeline-bench io`, fio, IOR): aggregate
// bandwidth against file size per rank and against ranks, and the points as a sortable table
// (per-rank and aggregate GB/s, the slowest rank, time to first byte). Several sessions overlay.
#include <QWidget>

#include "storagechart.h"

class QTabWidget;
class QTableView;

namespace rl {
namespace charts {
class StoragePointModel;
}

class StorageView : public QWidget
{
    Q_OBJECT
public:
    explicit StorageView(QWidget* parent = nullptr);

    void setData(const std::vector<storage::StorageSessionData>& sessions);

    QTabWidget* tabs() const { return m_tabs; }
    charts::StorageChart* bySize() const { return m_bySize; }
    charts::StorageChart* byRanks() const { return m_byRanks; }
    charts::StoragePointModel* points() const { return m_points; }

private:
    QTabWidget* m_tabs;
    charts::StorageChart* m_bySize;
    charts::StorageChart* m_byRanks;
    charts::StoragePointModel* m_points;
    QTableView* m_table;
};
} // namespace rl
