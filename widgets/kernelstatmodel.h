#pragma once
// The top kernels of a trace session (one rank, or summed by name over ranks): name, class,
// calls, total ms, mean µs, share of kernel time. Sorting and filtering in KernelStatProxy,
// which sorts numbers by SortRole rather than by their display text.
#include <optional>
#include <vector>

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include "views/tracechartdata.h"

namespace rl::charts {

class KernelStatModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { NameColumn, ClassColumn, CountColumn, TotalMsColumn, MeanUsColumn, ShareColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole, ClassRole };

    explicit KernelStatModel(QObject* parent = nullptr);

    void setResults(std::vector<KernelRow> rows);
    // The trace's kernels of one rank (kAllRanksMean: summed by name over ranks), largest first.
    void setTrace(const TraceChartData& data, int rank = kAllRanksMean, std::size_t limit = 0);
    void clear();
    const std::vector<KernelRow>& rows() const { return m_rows; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<KernelRow> m_rows;
};

// Sorts by KernelStatModel::SortRole; filters by a kernel name substring and, optionally, a class.
class KernelStatProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit KernelStatProxy(QObject* parent = nullptr);
    void setNameFilter(const QString& text);
    void setClassFilter(std::optional<KernelClass> kernelClass);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_name;
    std::optional<KernelClass> m_class;
};
} // namespace rl::charts
