#pragma once
// The sessions of a workspace as a two-level tree: one group row per kind ("Collectives", ...),
// its sessions below, newest first. The owner replaces the whole list with setSessions(); only a
// session's title is editable (in place): the model shows the new title and emits titleEdited for
// the owner to store.
#include <QAbstractItemModel>

#include <optional>
#include <vector>

#include "records/session.h"

namespace rl {

class SessionModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { TitleColumn, ToolColumn, HostColumn, StatusColumn, CreatedColumn, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole,
        SessionIdRole,  // qint64; 0 on group rows
        KindRole,       // QString
        SearchTextRole, // title, tool, host and ops in one string for the filter
        StatusRole,     // QString: complete, running, failed, cancelled or incomplete
    };

    explicit SessionModel(QObject* parent = nullptr);

    void setSessions(std::vector<Session> sessions);
    void clear();

    // The session at a row (any column), nullopt on group rows and invalid indexes.
    std::optional<Session> session(const QModelIndex& index) const;
    QModelIndex indexOfSession(std::int64_t sessionId, int column = 0) const;
    int sessionCount() const;

    static QString kindLabel(const QString& kind);
    static QString statusText(SessionStatus status);        // "running"
    static QString statusDescription(SessionStatus status); // "running — points are stored as …"
    // The host, or "—" for an imported file that does not name one (the list column stays blank).
    static QString hostText(const Session& s);


    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

signals:
    // A title edited in place (trimmed, non-empty, changed): the owner stores it.
    void titleEdited(std::int64_t sessionId, const QString& oldTitle, const QString& newTitle);

private:
    struct Group
    {
        QString kind;
        std::vector<Session> sessions;
    };
    QVariant groupData(const Group& group, int column, int role) const;
    QVariant sessionData(const Session& s, int column, int role) const;

    // internalId: 0 for group rows, group row + 1 for session rows.
    std::vector<Group> m_groups;
};
} // namespace rl
