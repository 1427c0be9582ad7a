#include "gui/window/sessioncommands.h"

#include <exception>

#include "store/workspace.h"

namespace rl {

DeleteSessionsCommand::DeleteSessionsCommand(QString workspace, std::vector<std::int64_t> ids, QString text,
                                             CommandDone done)
    : m_path(std::move(workspace)), m_ids(std::move(ids)), m_done(std::move(done))
{
    setText(text);
}

void DeleteSessionsCommand::redo()
{
    try {
        store::Workspace ws(m_path.toStdString());
        m_snapshot = store::snapshotSessions(ws.database(), m_ids);
        for (auto id : m_snapshot.sessionIds)
            ws.deleteSession(id);
        m_done({}, {});
    } catch (const std::exception& e) {
        setObsolete(true);
        m_done(QString::fromStdString(e.what()), {});
    }
}

void DeleteSessionsCommand::undo()
{
    try {
        store::Workspace ws(m_path.toStdString());
        store::restoreSessions(ws.database(), m_snapshot);
        m_done({}, m_snapshot.sessionIds);
    } catch (const std::exception& e) {
        setObsolete(true);
        m_done(QString::fromStdString(e.what()), {});
    }
}

DuplicateSessionsCommand::DuplicateSessionsCommand(QString workspace, std::vector<std::int64_t> ids, QString text,
                                                   CommandDone done)
    : m_path(std::move(workspace)), m_ids(std::move(ids)), m_done(std::move(done))
{
    setText(text);
}

void DuplicateSessionsCommand::redo()
{
    try {
        store::Workspace ws(m_path.toStdString());
        if (m_copies.empty()) {
            const auto originals = store::snapshotSessions(ws.database(), m_ids);
            m_copies = store::insertSessionCopies(ws.database(), originals,
                                                  QObject::tr(" (copy)").toStdString());
        } else {
            store::restoreSessions(ws.database(), m_copiesSnapshot);
        }
        m_done({}, m_copies);
    } catch (const std::exception& e) {
        setObsolete(true);
        m_done(QString::fromStdString(e.what()), {});
    }
}

void DuplicateSessionsCommand::undo()
{
    try {
        store::Workspace ws(m_path.toStdString());
        m_copiesSnapshot = store::snapshotSessions(ws.database(), m_copies);
        for (auto id : m_copiesSnapshot.sessionIds)
            ws.deleteSession(id);
        m_done({}, m_ids);
    } catch (const std::exception& e) {
        setObsolete(true);
        m_done(QString::fromStdString(e.what()), {});
    }
}

RenameSessionCommand::RenameSessionCommand(QString workspace, std::int64_t id, QString oldTitle, QString newTitle,
                                           CommandDone done)
    : m_path(std::move(workspace)), m_id(id), m_old(std::move(oldTitle)), m_new(std::move(newTitle)),
      m_done(std::move(done))
{
    setText(QObject::tr("Rename “%1”").arg(m_old));
}

void RenameSessionCommand::redo() { apply(m_new); }
void RenameSessionCommand::undo() { apply(m_old); }

void RenameSessionCommand::apply(const QString& title)
{
    try {
        store::Workspace ws(m_path.toStdString());
        ws.setTitle(m_id, title.toStdString());
        m_done({}, {m_id});
    } catch (const std::exception& e) {
        setObsolete(true);
        m_done(QString::fromStdString(e.what()), {});
    }
}
} // namespace rl
