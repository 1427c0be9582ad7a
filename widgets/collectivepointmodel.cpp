#include "collectivepointmodel.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

#include "units/units.h"
#include "textconv.h"

namespace rl {
namespace {
const std::optional<TierPeak> kNoPeak;
} // namespace

CollectivePointModel::CollectivePointModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

std::vector<CollectivePointModel::Row> CollectivePointModel::sortedRows(const std::vector<charts::SessionCurves>& sessions,
                                                                        int column, Qt::SortOrder order)
{
    std::vector<Row> rows;
    for (std::size_t s = 0; s < sessions.size(); ++s)
        for (std::size_t k = 0; k < sessions[s].points.size(); ++k)
            rows.push_back({s, k});
    if (column < 0 || column >= ColumnCount)
        return rows;
    charts::TierPeakCache peaks;
    // Stable both ways, as QSortFilterProxyModel sorts: equal rows keep their arrival order.
    std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
        return rowBefore(sessions, peaks, a, b, column, order);
    });
    return rows;
}

void CollectivePointModel::setSessions(charts::SharedSessions sessions, std::optional<std::vector<Row>> rows)
{
    beginResetModel();
    m_data = sessions ? std::move(sessions) : std::make_shared<const std::vector<charts::SessionCurves>>();
    m_rows = rows ? std::move(*rows) : sortedRows(*m_data, m_sortColumn, m_sortOrder);
    m_indexed.assign(m_data->size(), 0);
    for (std::size_t s = 0; s < m_data->size(); ++s)
        m_indexed[s] = (*m_data)[s].points.size();
    endResetModel();
}

void CollectivePointModel::sort(int column, Qt::SortOrder order)
{
    m_sortColumn = column >= 0 && column < ColumnCount ? column : -1;
    m_sortOrder = order;
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    // Sorted as a permutation, so persistent indexes (the selection, the current cell) follow
    // their rows.
    std::vector<std::size_t> perm(m_rows.size());
    std::iota(perm.begin(), perm.end(), std::size_t{0});
    if (m_sortColumn < 0) {
        std::stable_sort(perm.begin(), perm.end(), [this](std::size_t a, std::size_t b) {
            return std::tie(m_rows[a].session, m_rows[a].point) < std::tie(m_rows[b].session, m_rows[b].point);
        });
    } else {
        std::stable_sort(perm.begin(), perm.end(), [this, order](std::size_t a, std::size_t b) {
            return rowBefore(*m_data, m_tierPeaks, m_rows[a], m_rows[b], m_sortColumn, order);
        });
    }
    std::vector<Row> rows(m_rows.size());
    std::vector<int> newRow(m_rows.size());
    for (std::size_t i = 0; i < perm.size(); ++i) {
        rows[i] = m_rows[perm[i]];
        newRow[perm[i]] = static_cast<int>(i);
    }
    m_rows = std::move(rows);
    const QModelIndexList from = persistentIndexList();
    QModelIndexList to;
    to.reserve(from.size());
    for (const QModelIndex& i : from)
        to.append(index(newRow[static_cast<std::size_t>(i.row())], i.column()));
    changePersistentIndexList(from, to);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

std::size_t CollectivePointModel::sortedPosition(const Row& row) const
{
    if (m_sortColumn < 0)
        return m_rows.size();
    const auto after = [&](const Row& a, const Row& b) {
        return rowBefore(*m_data, m_tierPeaks, a, b, m_sortColumn, m_sortOrder);
    };
    return static_cast<std::size_t>(std::upper_bound(m_rows.begin(), m_rows.end(), row, after) - m_rows.begin());
}

void CollectivePointModel::pointsAppended()
{
    // The owner only appends to the sessions' point lists; sessions themselves come with a reset,
    // so m_indexed has one entry per session.
    std::vector<Row> added;
    for (std::size_t s = 0; s < m_indexed.size(); ++s)
        for (std::size_t k = m_indexed[s]; k < (*m_data)[s].points.size(); ++k)
            added.push_back({s, k});
    if (added.empty())
        return;
    for (std::size_t s = 0; s < m_indexed.size(); ++s)
        m_indexed[s] = (*m_data)[s].points.size();
    if (m_sortColumn < 0) {
        const int first = static_cast<int>(m_rows.size());
        beginInsertRows({}, first, first + static_cast<int>(added.size()) - 1);
        m_rows.insert(m_rows.end(), added.begin(), added.end());
        endInsertRows();
        return;
    }
    // A live point goes where the table's order puts it, as a sorting proxy would place it.
    for (const Row& r : added) {
        const auto at = sortedPosition(r);
        beginInsertRows({}, static_cast<int>(at), static_cast<int>(at));
        m_rows.insert(m_rows.begin() + static_cast<std::ptrdiff_t>(at), r);
        endInsertRows();
    }
}

void CollectivePointModel::clear()
{
    setSessions({});
}

const CollectivePoint& CollectivePointModel::point(int row) const
{
    const Row& r = m_rows.at(static_cast<std::size_t>(row));
    return (*m_data)[r.session].points[r.point];
}

int CollectivePointModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int CollectivePointModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CollectivePointModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const Session& session = (*m_data)[row.session].session;
    const CollectivePoint& p = (*m_data)[row.session].points[row.point];
    const auto column = static_cast<Column>(index.column());
    if (role == PointIndexRole)
        return index.row();
    if (column == SessionLabel) {
        if (role == SortRole)
            return static_cast<qlonglong>(session.id);
        if (role == Qt::DisplayRole)
            return session.host.empty() ? tr("#%1").arg(session.id)
                                        : tr("#%1 %2").arg(QString::number(session.id), qs(session.host));
        if (role == Qt::ToolTipRole)
            return plainInAutoText(qs(session.title));
        return {};
    }
    // busbw against the ceiling of the tier the session ran on ("is this number good?").
    const auto& peak = column == PeakShare ? m_tierPeaks.peakOf(session, p) : kNoPeak;
    const double share = peak && p.busbwGBs > 0 ? p.busbwGBs / peak->peakBusGBs : std::nan("");
    if (role == SortRole) {
        switch (column) {
        case SessionLabel: break;
        case Op: return qs(p.op);
        case InPlace: return p.inPlace;
        case Ranks: return p.nranks;
        case Group: return qs(p.group);
        case Dtype: return qs(p.dtype);
        case Redop: return qs(p.redop);
        case Size: return static_cast<qlonglong>(p.bytes);
        case Count: return static_cast<qlonglong>(p.count);
        case Time: return p.timeUs;
        case AlgBw: return p.algbwGBs;
        case BusBw: return p.busbwGBs;
        case PeakShare: return std::isnan(share) ? -1.0 : share;
        case Wrong: return static_cast<qlonglong>(p.wrong);
        case ColumnCount: break;
        }
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (column) {
        case SessionLabel: break;
        case Op: return qs(p.op);
        case InPlace: return p.inPlace ? tr("in-place") : tr("out-of-place");
        case Ranks: return p.nranks;
        case Group: return qs(p.group);
        case Dtype: return qs(p.dtype);
        case Redop: return qs(p.redop);
        case Size: return qs(units::formatBytes(static_cast<double>(p.bytes)));
        case Count: return static_cast<qlonglong>(p.count);
        case Time: return qs(units::formatTime(p.timeUs));
        case AlgBw: return qs(units::formatBandwidth(p.algbwGBs));
        case BusBw: return qs(units::formatBandwidth(p.busbwGBs));
        case PeakShare: return std::isnan(share) ? QString() : qs(units::formatPercent(share));
        case Wrong: return p.wrong < 0 ? tr("not checked") : QString::number(p.wrong);
        case ColumnCount: break;
        }
        return {};
    }
    if (role == Qt::ToolTipRole && column == Size)
        return tr("%1 bytes").arg(p.bytes);
    if (role == Qt::ToolTipRole && column == Time)
        return tr("%1 µs").arg(p.timeUs, 0, 'g', 10);
    if (role == Qt::ToolTipRole && column == PeakShare)
        return std::isnan(share)
            ? tr("No tier ceiling: the session names no device a hardware profile matches, or not its hosts")
            : tr("busbw / the tier's ceiling: %1").arg(qs(units::formatBandwidth(peak->peakBusGBs)) % QStringLiteral(" (")
                                                       % qs(peak->reasoning) % QLatin1Char(')'));
    if (role == Qt::TextAlignmentRole) {
        const bool numeric = column == Ranks || column == Size || column == Count || column == Time
            || column == AlgBw || column == BusBw || column == PeakShare || column == Wrong;
        return QVariant::fromValue(numeric ? Qt::AlignRight | Qt::AlignVCenter : Qt::AlignLeft | Qt::AlignVCenter);
    }
    return {};
}

bool CollectivePointModel::rowBefore(const std::vector<charts::SessionCurves>& sessions, charts::TierPeakCache& peaks,
                                     const Row& a, const Row& b, int column, Qt::SortOrder order)
{
    return order == Qt::AscendingOrder ? rowLess(sessions, peaks, a, b, column) : rowLess(sessions, peaks, b, a, column);
}

bool CollectivePointModel::rowLess(const std::vector<charts::SessionCurves>& sessions, charts::TierPeakCache& peaks,
                                   const Row& a, const Row& b, int column)
{
    const charts::SessionCurves& sa = sessions[a.session];
    const charts::SessionCurves& sb = sessions[b.session];
    const CollectivePoint& p = sa.points[a.point];
    const CollectivePoint& q = sb.points[b.point];
    // As data()'s SortRole: the share is -1 where there is no ceiling.
    const auto share = [&peaks](const Session& s, const CollectivePoint& x) {
        const auto& peak = peaks.peakOf(s, x);
        return peak && x.busbwGBs > 0 ? x.busbwGBs / peak->peakBusGBs : -1.0;
    };
    switch (static_cast<Column>(column)) {
    case SessionLabel: return sa.session.id < sb.session.id;
    case Op: return p.op < q.op;
    case InPlace: return p.inPlace < q.inPlace;
    case Ranks: return p.nranks < q.nranks;
    case Group: return p.group < q.group;
    case Dtype: return p.dtype < q.dtype;
    case Redop: return p.redop < q.redop;
    case Size: return p.bytes < q.bytes;
    case Count: return p.count < q.count;
    case Time: return p.timeUs < q.timeUs;
    case AlgBw: return p.algbwGBs < q.algbwGBs;
    case BusBw: return p.busbwGBs < q.busbwGBs;
    case PeakShare: return share(sa.session, p) < share(sb.session, q);
    case Wrong: return p.wrong < q.wrong;
    case ColumnCount: break;
    }
    return false;
}

bool CollectivePointModel::hasGroups() const
{
    return std::any_of(m_rows.begin(), m_rows.end(),
                       [this](const Row& r) { return !(*m_data)[r.session].points[r.point].group.empty(); });
}

QVariant CollectivePointModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::ToolTipRole && section == SessionLabel)
        return tr("The session the point belongs to: its id and host (the title in the cell's tooltip)");
    if (role == Qt::ToolTipRole && section == Group)
        return tr("The ranks of a --split run that measured the point together (a node, a group of nodes or "
                  "of ranks, or the whole job)");
    if (role == Qt::ToolTipRole && section == BusBw)
        return tr("Bus bandwidth: algbw × the op's bus factor, comparable across rank counts");
    if (role == Qt::ToolTipRole && section == PeakShare)
        return tr("busbw as a share of the ceiling of the tier the session ran on (intra-node link, or NIC "
                  "line rate across nodes), from the hardware profile its devices name");
    if (role != Qt::DisplayRole)
        return {};
    switch (static_cast<Column>(section)) {
    case SessionLabel: return tr("Session");
    case Op: return tr("Op");
    case InPlace: return tr("Placement");
    case Ranks: return tr("Ranks");
    case Group: return tr("Group");
    case Dtype: return tr("Type");
    case Redop: return tr("Reduction");
    case Size: return tr("Size");
    case Count: return tr("Elements");
    case Time: return tr("Time");
    case AlgBw: return tr("algbw");
    case BusBw: return tr("busbw");
    case PeakShare: return tr("% of tier peak");
    case Wrong: return tr("Wrong");
    case ColumnCount: break;
    }
    return {};
}
} // namespace rl
