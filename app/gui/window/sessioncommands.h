#pragma once
// The undoable edits of the session list (QUndoStack commands). Each opens the workspace file for
// the moment it runs and reports to `done` (an empty string, or the store's error: the command
// then makes itself obsolete, so the stack drops it instead of repeating a failing step).
//
// Delete keeps every row of the deleted sessions in memory (store/sessionsnapshot.h): Undo puts
// them back with the same ids, points, notes and source file. The SQL delete happens at once, so
// ridgeline-cli and other windows see the same workspace; the snapshot lives as long as the
// command is on the stack (until the workspace is closed or another is opened).
#include <QString>
#include <QUndoCommand>

#include <functional>
#include <vector>

#include "store/sessionsnapshot.h"

namespace rl {

using CommandDone = std::function<void(const QString& error, const std::vector<std::int64_t>& select)>;

class DeleteSessionsCommand : public QUndoCommand
{
public:
    DeleteSessionsCommand(QString workspace, std::vector<std::int64_t> ids, QString text, CommandDone done);
    void redo() override;
    void undo() override;

private:
    QString m_path;
    std::vector<std::int64_t> m_ids;
    store::SessionSnapshot m_snapshot;
    CommandDone m_done;
};

// Duplicate stores copies of the sessions (store::insertSessionCopies, titled "<title> (copy)");
// Undo deletes the copies keeping their rows, Redo puts them back with the same ids.
class DuplicateSessionsCommand : public QUndoCommand
{
public:
    DuplicateSessionsCommand(QString workspace, std::vector<std::int64_t> ids, QString text, CommandDone done);
    void redo() override;
    void undo() override;
    const std::vector<std::int64_t>& copies() const { return m_copies; }

private:
    QString m_path;
    std::vector<std::int64_t> m_ids;
    std::vector<std::int64_t> m_copies;
    store::SessionSnapshot m_copiesSnapshot; // after an Undo
    CommandDone m_done;
};

class RenameSessionCommand : public QUndoCommand
{
public:
    RenameSessionCommand(QString workspace, std::int64_t id, QString oldTitle, QString newTitle, CommandDone done);
    void redo() override;
    void undo() override;

private:
    void apply(const QString& title);
    QString m_path;
    std::int64_t m_id;
    QString m_old, m_new;
    CommandDone m_done;
};
} // namespace rl
