#include "storagepointmodel.h"

#include "textconv.h"
#include "units/units.h"

namespace rl::charts {
namespace {
const QString kUnknown = QStringLiteral("–");

QVariant number(double v, int decimals, bool display, bool known = true)
{
    if (!display)
        return known ? QVariant(v) : QVariant(-1.0);
    return known ? QVariant(QString::number(v, 'f', decimals)) : QVariant(kUnknown);
}

QString withBandwidthUnit(const QString& name) { return qs(units::bandwidthTitle(name.toStdString())); }
} // namespace

StoragePointModel::StoragePointModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void StoragePointModel::setResults(const std::vector<StorageSessionData>& sessions)
{
    beginResetModel();
    m_rows.clear();
    for (const auto& s : sessions)
        for (const auto& p : s.points)
            m_rows.push_back({s.session.id, p});
    endResetModel();
}

void StoragePointModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

int StoragePointModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int StoragePointModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StoragePointModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& r = m_rows[std::size_t(index.row())];
    const StoragePoint& p = r.point;
    if (role == Qt::TextAlignmentRole)
        return index.column() >= RanksColumn && index.column() != OptionsColumn
            ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    const bool display = role == Qt::DisplayRole;
    if (!display && role != SortRole)
        return {};
    switch (Column(index.column())) {
    case SessionColumn: return display ? QVariant(QString::number(r.session)) : QVariant(qlonglong(r.session));
    case OpColumn: return qs(p.op);
    case AccessColumn: return qs(p.access);
    case RanksColumn: return p.nranks;
    case FileColumn: return display ? QVariant(qs(units::formatBytes(double(p.fileBytes)))) : QVariant(qlonglong(p.fileBytes));
    case BlockColumn:
        return display ? QVariant(p.blockBytes > 0 ? qs(units::formatBytes(double(p.blockBytes))) : kUnknown)
                       : QVariant(qlonglong(p.blockBytes));
    case OptionsColumn: {
        QStringList o;
        if (p.fsync)
            o << QStringLiteral("fsync");
        if (p.direct)
            o << QStringLiteral("O_DIRECT");
        return o.join(QStringLiteral(", "));
    }
    // In the display unit, as the headers say (the sort order is the same in either).
    case AggregateColumn: return number(units::displayBandwidth(p.aggregateGBs), 3, display);
    case MeanRankColumn: return number(units::displayBandwidth(p.meanRankGBs), 3, display, p.meanRankGBs > 0);
    case MinRankColumn: return number(units::displayBandwidth(p.minRankGBs), 3, display, p.minRankGBs > 0);
    case MaxRankColumn: return number(units::displayBandwidth(p.maxRankGBs), 3, display, p.maxRankGBs > 0);
    case SlowestRankColumn:
        return display ? QVariant(p.slowestRank >= 0 ? QString::number(p.slowestRank) : kUnknown) : QVariant(p.slowestRank);
    case TimeColumn: return number(p.timeS, 4, display, p.timeS > 0);
    case FirstByteColumn: return number(p.firstByteUs, 1, display, p.firstByteUs > 0);
    case ColumnCount: break;
    }
    return {};
}

QVariant StoragePointModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return {};
    const bool tip = role == Qt::ToolTipRole;
    switch (Column(section)) {
    case SessionColumn: return tr("Session");
    case OpColumn: return tr("Op");
    case AccessColumn: return tip ? tr("file-per-process: each rank its own file; shared-file: disjoint ranges of one") : tr("Access");
    case RanksColumn: return tip ? tr("Ranks (or fio jobs) doing I/O at once") : tr("Ranks");
    case FileColumn: return tip ? tr("Bytes each rank wrote or read") : tr("File / rank");
    case BlockColumn: return tip ? tr("Bytes per read or write call") : tr("Block");
    case OptionsColumn: return tr("Options");
    case AggregateColumn:
        return tip ? tr("All ranks' bytes over the slowest rank's time") : withBandwidthUnit(tr("Aggregate"));
    case MeanRankColumn:
        return tip ? tr("Each rank's own bytes over its own time, mean over ranks") : withBandwidthUnit(tr("Rank mean"));
    case MinRankColumn: return withBandwidthUnit(tr("Rank min"));
    case MaxRankColumn: return withBandwidthUnit(tr("Rank max"));
    case SlowestRankColumn: return tip ? tr("The rank that took longest (– when the tool does not say)") : tr("Slowest rank");
    case TimeColumn: return tip ? tr("The slowest rank's open-to-close time") : tr("Time (s)");
    case FirstByteColumn: return tip ? tr("Time to first byte: open plus the first call, worst rank") : tr("First byte (µs)");
    case ColumnCount: break;
    }
    return {};
}
} // namespace rl::charts
