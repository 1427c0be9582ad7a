#include "sessionmodel.h"
#include "textconv.h"

#include <QDateTime>
#include <QIcon>
#include <QLocale>
#include <QPainter>
#include <QPixmap>

#include <algorithm>

namespace rl {
namespace {
// Ops a session covers, from the parameters importers and the runner record.
QString opsOf(const Session& s)
{
    QStringList ops;
    for (const char* key : {"op", "ops", "operation", "benchmark"}) {
        if (!s.params.contains(key))
            continue;
        const auto& v = s.params.at(key);
        if (v.is_string())
            ops << qs(v.get<std::string>());
        else if (v.is_array())
            for (const auto& item : v)
                if (item.is_string())
                    ops << qs(item.get<std::string>());
    }
    return ops.join(u' ');
}

QString displayTime(const std::string& iso)
{
    const QDateTime t = QDateTime::fromString(qs(iso), Qt::ISODate);
    return t.isValid() ? t.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")) : qs(iso);
}

// A coloured dot per state. Complete gets a transparent one so every title starts at the same x.
QIcon statusIcon(SessionStatus status)
{
    static const auto make = [](QColor color) {
        QPixmap pm(12, 12);
        pm.fill(Qt::transparent);
        if (color.isValid()) {
            QPainter p(&pm);
            p.setRenderHint(QPainter::Antialiasing);
            p.setPen(color.darker(130));
            p.setBrush(color);
            p.drawEllipse(QRectF(1.5, 1.5, 9, 9));
        }
        return QIcon(pm);
    };
    static const QIcon complete = make({}), running = make(QColor(0x1f, 0x77, 0xb4)),
                       failed = make(QColor(0xd6, 0x27, 0x28)), cancelled = make(QColor(0x8c, 0x8c, 0x8c)),
                       incomplete = make(QColor(0xff, 0x7f, 0x0e));
    switch (status) {
    case SessionStatus::Complete: return complete;
    case SessionStatus::Running: return running;
    case SessionStatus::Failed: return failed;
    case SessionStatus::Cancelled: return cancelled;
    case SessionStatus::Incomplete: return incomplete;
    }
    return complete;
}

int kindOrder(const QString& kind)
{
    static const QStringList order{QString::fromLatin1(kind::Collectives), QString::fromLatin1(kind::Gemm),
                                   QString::fromLatin1(kind::MemBandwidth), QString::fromLatin1(kind::PeakFlops),
                                   QString::fromLatin1(kind::Trace), QString::fromLatin1(kind::TrainingLog)};
    const auto i = order.indexOf(kind);
    return i < 0 ? static_cast<int>(order.size()) : static_cast<int>(i);
}
} // namespace

SessionModel::SessionModel(QObject* parent) : QAbstractItemModel(parent) {}

QString SessionModel::kindLabel(const QString& kind)
{
    if (kind == QLatin1String(kind::Collectives))
        return tr("Collectives");
    if (kind == QLatin1String(kind::Gemm))
        return tr("GEMM");
    if (kind == QLatin1String(kind::MemBandwidth))
        return tr("Memory bandwidth");
    if (kind == QLatin1String(kind::PeakFlops))
        return tr("Peak FLOP/s");
    if (kind == QLatin1String(kind::Trace))
        return tr("Traces");
    if (kind == QLatin1String(kind::TrainingLog))
        return tr("Training logs");
    if (kind == QLatin1String(kind::Storage))
        return tr("Storage");
    if (kind == QLatin1String(kind::Pairs))
        return tr("Point-to-point pairs");
    if (kind == QLatin1String(kind::CopyBandwidth))
        return tr("Copy bandwidth (nvbandwidth)");
    if (kind == QLatin1String(kind::Attention))
        return tr("Attention");
    if (kind == QLatin1String(kind::Step))
        return tr("Training steps");
    return kind;
}

void SessionModel::setSessions(std::vector<Session> sessions)
{
    std::stable_sort(sessions.begin(), sessions.end(),
                     [](const Session& a, const Session& b) { return a.created > b.created; });
    std::vector<Group> groups;
    for (auto& s : sessions) {
        const QString k = qs(s.kind);
        auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) { return g.kind == k; });
        if (it == groups.end()) {
            groups.push_back({k, {}});
            it = groups.end() - 1;
        }
        it->sessions.push_back(std::move(s));
    }
    std::stable_sort(groups.begin(), groups.end(),
                     [](const Group& a, const Group& b) { return kindOrder(a.kind) < kindOrder(b.kind); });
    beginResetModel();
    m_groups = std::move(groups);
    endResetModel();
}

void SessionModel::clear()
{
    beginResetModel();
    m_groups.clear();
    endResetModel();
}

std::optional<Session> SessionModel::session(const QModelIndex& index) const
{
    if (!index.isValid() || index.model() != this || index.internalId() == 0)
        return std::nullopt;
    return m_groups[index.internalId() - 1].sessions[static_cast<size_t>(index.row())];
}

QModelIndex SessionModel::indexOfSession(std::int64_t sessionId, int column) const
{
    for (size_t g = 0; g < m_groups.size(); ++g)
        for (size_t r = 0; r < m_groups[g].sessions.size(); ++r)
            if (m_groups[g].sessions[r].id == sessionId)
                return createIndex(static_cast<int>(r), column, static_cast<quintptr>(g + 1));
    return {};
}

int SessionModel::sessionCount() const
{
    int n = 0;
    for (const auto& g : m_groups)
        n += static_cast<int>(g.sessions.size());
    return n;
}

QModelIndex SessionModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, quintptr{0});
    return createIndex(row, column, static_cast<quintptr>(parent.row() + 1));
}

QModelIndex SessionModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, quintptr{0});
}

int SessionModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return static_cast<int>(m_groups.size());
    if (parent.column() != 0 || parent.internalId() != 0)
        return 0;
    return static_cast<int>(m_groups[static_cast<size_t>(parent.row())].sessions.size());
}

int SessionModel::columnCount(const QModelIndex&) const { return ColumnCount; }

Qt::ItemFlags SessionModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractItemModel::flags(index);
    if (index.isValid() && index.internalId() != 0 && index.column() == TitleColumn)
        f |= Qt::ItemIsEditable;
    return f;
}

bool SessionModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || !index.isValid() || index.internalId() == 0 || index.column() != TitleColumn)
        return false;
    const QString title = value.toString().trimmed();
    auto& s = m_groups[index.internalId() - 1].sessions[static_cast<size_t>(index.row())];
    const QString old = qs(s.title);
    if (title.isEmpty() || title == old)
        return false;
    s.title = title.toStdString();
    emit dataChanged(index, index);
    emit titleEdited(s.id, old, title);
    return true;
}

QVariant SessionModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto& group = m_groups[index.internalId() == 0 ? static_cast<size_t>(index.row()) : index.internalId() - 1];
    if (index.internalId() == 0)
        return groupData(group, index.column(), role);
    return sessionData(group.sessions[static_cast<size_t>(index.row())], index.column(), role);
}

QVariant SessionModel::groupData(const Group& group, int column, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        if (column == TitleColumn)
            return tr("%1 (%2)").arg(kindLabel(group.kind)).arg(group.sessions.size());
        return {};
    case SortRole:
        return column == TitleColumn ? QVariant(kindOrder(group.kind)) : QVariant();
    case KindRole:
        return group.kind;
    case SessionIdRole:
        return qint64{0};
    case Qt::ToolTipRole:
        return tr("%n %1 session(s)", nullptr, static_cast<int>(group.sessions.size())).arg(kindLabel(group.kind));
    }
    return {};
}

QVariant SessionModel::sessionData(const Session& s, int column, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        switch (static_cast<Column>(column)) {
        case TitleColumn: {
            // The dock is narrow and hides the Status column: the title itself says when a run is
            // not simply complete.
            const QString title = s.title.empty() ? tr("Session %1").arg(s.id) : qs(s.title);
            return s.status == SessionStatus::Complete ? title
                                                       : tr("%1 (%2)").arg(title, statusText(s.status));
        }
        case ToolColumn:
            return s.toolVersion.empty() ? qs(s.tool) : qs(s.tool + ' ' + s.toolVersion);
        case HostColumn:
            return qs(s.host);
        case StatusColumn:
            return statusText(s.status);
        case CreatedColumn:
            return displayTime(s.created);
        case ColumnCount:
            break;
        }
        return {};
    case Qt::EditRole:
        return column == TitleColumn ? QVariant(qs(s.title)) : QVariant();
    case Qt::DecorationRole:
        return column == TitleColumn ? QVariant(statusIcon(s.status)) : QVariant();
    case StatusRole:
        return QString::fromLatin1(toString(s.status));
    case SortRole:
        if (column == CreatedColumn)
            return qs(s.created);
        return sessionData(s, column, Qt::DisplayRole);
    case SessionIdRole:
        return qint64{s.id};
    case KindRole:
        return qs(s.kind);
    case SearchTextRole:
        return QStringList{qs(s.title), qs(s.tool), qs(s.host), opsOf(s)}.join(u'\n');
    case Qt::ToolTipRole:
        return plainInAutoText(tr("%1\nTool: %2 %3\nHost: %4\nCreated: %5\nStatus: %6")
                                   .arg(qs(s.title), qs(s.tool), qs(s.toolVersion), hostText(s),
                                        displayTime(s.created), statusDescription(s.status)));
    }
    return {};
}

QString SessionModel::hostText(const Session& s) { return s.host.empty() ? tr("—") : qs(s.host); }

QString SessionModel::statusText(SessionStatus status)
{
    switch (status) {
    case SessionStatus::Complete: return tr("complete");
    case SessionStatus::Running: return tr("running");
    case SessionStatus::Failed: return tr("failed");
    case SessionStatus::Cancelled: return tr("cancelled");
    case SessionStatus::Incomplete: return tr("incomplete");
    }
    return {};
}

QString SessionModel::statusDescription(SessionStatus status)
{
    switch (status) {
    case SessionStatus::Complete: return tr("complete");
    case SessionStatus::Running: return tr("running — points are stored as they are measured");
    case SessionStatus::Failed: return tr("failed — the run stopped with an error; the points stored so far are kept");
    case SessionStatus::Cancelled: return tr("cancelled — stopped by the user; the points stored so far are kept");
    case SessionStatus::Incomplete: return tr("incomplete — the source ended early (a killed run or a truncated file)");
    }
    return {};
}

QVariant SessionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (static_cast<Column>(section)) {
    case TitleColumn:
        return tr("Session");
    case ToolColumn:
        return tr("Tool");
    case HostColumn:
        return tr("Host");
    case StatusColumn:
        return tr("Status");
    case CreatedColumn:
        return tr("Created");
    case ColumnCount:
        break;
    }
    return {};
}
} // namespace rl
