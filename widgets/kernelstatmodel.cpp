#include "kernelstatmodel.h"

#include <QLocale>

namespace rl::charts {

KernelStatModel::KernelStatModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void KernelStatModel::setResults(std::vector<KernelRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

void KernelStatModel::setTrace(const TraceChartData& data, int rank, std::size_t limit)
{
    setResults(kernelRows(data.kernels, rank, limit));
}

void KernelStatModel::clear()
{
    setResults({});
}

int KernelStatModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int KernelStatModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KernelStatModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const KernelRow& r = m_rows[static_cast<std::size_t>(index.row())];
    if (role == ClassRole)
        return static_cast<int>(r.kernelClass);
    if (role == Qt::ToolTipRole && index.column() == NameColumn)
        return QString::fromStdString(r.name);
    if (role == Qt::TextAlignmentRole)
        return index.column() >= CountColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    const bool display = role == Qt::DisplayRole;
    if (!display && role != SortRole)
        return {};
    switch (Column(index.column())) {
    case NameColumn: return QString::fromStdString(r.name);
    case ClassColumn: return QString::fromLatin1(toString(r.kernelClass));
    case CountColumn: return display ? QVariant(QLocale().toString(qlonglong(r.count))) : QVariant(qlonglong(r.count));
    case TotalMsColumn: return display ? QVariant(QString::number(r.totalMs, 'f', 3)) : QVariant(r.totalMs);
    case MeanUsColumn: return display ? QVariant(QString::number(r.meanUs, 'f', 2)) : QVariant(r.meanUs);
    case ShareColumn: return display ? QVariant(QString::number(r.sharePercent, 'f', 1)) : QVariant(r.sharePercent);
    case ColumnCount: break;
    }
    return {};
}

QVariant KernelStatModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case NameColumn: return tr("Kernel");
    case ClassColumn: return tr("Class");
    case CountColumn: return tr("Calls");
    case TotalMsColumn: return tr("Total (ms)");
    case MeanUsColumn: return tr("Mean (µs)");
    case ShareColumn: return tr("Share (%)");
    case ColumnCount: break;
    }
    return {};
}

KernelStatProxy::KernelStatProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(KernelStatModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void KernelStatProxy::setNameFilter(const QString& text)
{
    if (text == m_name)
        return;
    m_name = text;
    invalidateRowsFilter();
}

void KernelStatProxy::setClassFilter(std::optional<KernelClass> kernelClass)
{
    if (kernelClass == m_class)
        return;
    m_class = kernelClass;
    invalidateRowsFilter();
}

bool KernelStatProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QModelIndex i = sourceModel()->index(sourceRow, KernelStatModel::NameColumn, sourceParent);
    if (m_class && i.data(KernelStatModel::ClassRole).toInt() != static_cast<int>(*m_class))
        return false;
    return m_name.isEmpty() || i.data(Qt::DisplayRole).toString().contains(m_name, Qt::CaseInsensitive);
}
} // namespace rl::charts
