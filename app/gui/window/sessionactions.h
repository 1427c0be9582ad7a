#pragma once
// What you can do to the selected sessions, as QActions shared by the session list's context menu
// and the Edit menu: Rename (F2, in place), Duplicate (Ctrl+D, undoable), Delete (Del, undoable), Copy as CSV (Ctrl+C) and Copy
// as JSON. The keys act while the session list has the focus; the menus act at any time.
#include <QObject>

#include <vector>

class QAction;
class QUndoCommand;
class QUndoStack;

namespace rl {

class SessionBrowser;
class WorkspaceController;

class SessionActions : public QObject
{
    Q_OBJECT
public:
    SessionActions(SessionBrowser* browser, WorkspaceController* workspace, QUndoStack* undo, QObject* parent);

    QAction* rename() const { return m_rename; }
    QAction* remove() const { return m_delete; }
    QAction* duplicate() const { return m_duplicate; }
    QAction* copyCsv() const { return m_copyCsv; }
    QAction* copyJson() const { return m_copyJson; }

signals:
    // The stored sessions changed: reload the list and select `select` (restored or renamed ones).
    void sessionsChanged(const std::vector<std::int64_t>& select);
    void message(const QString& text);
    void failed(const QString& text);

private:
    void updateEnabled();
    void renameCurrent();
    void deleteSelected();
    void duplicateSelected();
    void copy(bool json);
    void commandDone(const QString& error, const std::vector<std::int64_t>& select);
    void push(QUndoCommand* command); // onto the stack, without the Undone/Redone message

    SessionBrowser* m_browser;
    WorkspaceController* m_workspace;
    QUndoStack* m_undo;
    int m_undoIndex;
    bool m_pushing = false;
    QAction* m_rename;
    QAction* m_delete;
    QAction* m_duplicate;
    QAction* m_copyCsv;
    QAction* m_copyJson;
};
} // namespace rl
