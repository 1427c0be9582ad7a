#include "collectivepointmodel.h"

#include <algorithm>
#include <cmath>

#include "units/units.h"
#include "textconv.h"

namespace rl {
CollectivePointModel::CollectivePointModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void CollectivePointModel::setResults(std::vector<CollectivePoint> points, std::vector<SessionRef> sessionOfPoint,
                                      std::vector<TierShare> shares)
{
    // A mismatched list would label rows with the wrong session or share.
    if (!sessionOfPoint.empty() && sessionOfPoint.size() != points.size())
        sessionOfPoint.clear();
    if (!shares.empty() && shares.size() != points.size())
        shares.clear();
    beginResetModel();
    m_points = std::move(points);
    m_sessions = std::move(sessionOfPoint);
    m_shares = std::move(shares);
    endResetModel();
}

void CollectivePointModel::appendResult(const CollectivePoint& point, const SessionRef& session, const TierShare& share)
{
    const int row = static_cast<int>(m_points.size());
    beginInsertRows({}, row, row);
    if (!m_sessions.empty() || m_points.empty())
        m_sessions.push_back(session);
    if (!m_shares.empty() || m_points.empty())
        m_shares.push_back(share);
    m_points.push_back(point);
    endInsertRows();
}

void CollectivePointModel::clear()
{
    setResults({});
}

int CollectivePointModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_points.size());
}

int CollectivePointModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CollectivePointModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const CollectivePoint& p = m_points[static_cast<std::size_t>(index.row())];
    const auto column = static_cast<Column>(index.column());
    const SessionRef* session = m_sessions.empty() ? nullptr : &m_sessions[static_cast<std::size_t>(index.row())];
    const TierShare share = m_shares.empty() ? TierShare{} : m_shares[static_cast<std::size_t>(index.row())];
    if (role == PointIndexRole)
        return index.row();
    if (column == SessionLabel) {
        if (!session)
            return {};
        if (role == SortRole)
            return static_cast<qlonglong>(session->id);
        if (role == Qt::DisplayRole)
            return session->host.isEmpty() ? tr("#%1").arg(session->id)
                                           : tr("#%1 %2").arg(QString::number(session->id), session->host);
        if (role == Qt::ToolTipRole)
            return session->title;
        return {};
    }
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
        case PeakShare: return std::isnan(share.fraction) ? -1.0 : share.fraction;
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
        case PeakShare: return std::isnan(share.fraction) ? QString() : qs(units::formatPercent(share.fraction));
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
        return std::isnan(share.fraction)
            ? tr("No tier ceiling: the session names no device a hardware profile matches, or not its hosts")
            : tr("busbw / the tier's ceiling: %1").arg(share.reasoning);
    if (role == Qt::TextAlignmentRole) {
        const bool numeric = column == Ranks || column == Size || column == Count || column == Time
            || column == AlgBw || column == BusBw || column == PeakShare || column == Wrong;
        return QVariant::fromValue(numeric ? Qt::AlignRight | Qt::AlignVCenter : Qt::AlignLeft | Qt::AlignVCenter);
    }
    return {};
}

bool CollectivePointModel::hasGroups() const
{
    return std::any_of(m_points.begin(), m_points.end(), [](const CollectivePoint& p) { return !p.group.empty(); });
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
