#include "gui/window/sessionactions.h"

#include <utility>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QMimeData>
#include <QTreeView>
#include <QUndoStack>

#include "gui/window/sessionbrowser.h"
#include "gui/window/sessioncommands.h"
#include "sessionmodel.h"
#include "store/workspace.h"
#include "gui/window/workspacecontroller.h"

namespace rl {

SessionActions::SessionActions(SessionBrowser* browser, WorkspaceController* workspace, QUndoStack* undo,
                               QObject* parent)
    : QObject(parent), m_browser(browser), m_workspace(workspace), m_undo(undo), m_undoIndex(undo->index())
{
    // Undo and Redo say what they did: after an undone delete the status bar still said
    // "deleted". A push moves the index too, but says its own message (m_pushing).
    connect(m_undo, &QUndoStack::indexChanged, this, [this](int index) {
        const int was = std::exchange(m_undoIndex, index);
        // clear() (another workspace, the window closing) empties the stack: nothing was undone.
        if (m_pushing || index == was || m_undo->count() == 0)
            return;
        if (index < was)
            emit message(tr("Undone: %1 (Ctrl+Shift+Z does it again)").arg(m_undo->text(index)));
        else
            emit message(tr("Redone: %1").arg(m_undo->text(index - 1)));
    });
    auto make = [this](const QString& text, const QString& tip, QKeySequence key, auto slot) {
        auto* a = new QAction(text, this);
        a->setToolTip(tip);
        a->setStatusTip(tip);
        a->setShortcut(key);
        // Only while the list has the focus: Del and Ctrl+C in a text field stay the field's.
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        connect(a, &QAction::triggered, this, slot);
        m_browser->view()->addAction(a);
        return a;
    };
    m_rename = make(tr("&Rename Session"), tr("Edit the selected session's title in the list (stored in the workspace)"),
                    QKeySequence(Qt::Key_F2), &SessionActions::renameCurrent);
    m_duplicate = make(tr("D&uplicate Sessions"),
                       tr("Store a copy of the selected sessions with all their points, titled “… (copy)” (Edit > "
                          "Undo removes the copies)"),
                       QKeySequence(tr("Ctrl+D")), &SessionActions::duplicateSelected);
    m_delete = make(tr("&Delete Sessions"),
                    tr("Remove the selected sessions and their points from the workspace (Edit > Undo brings them back)"),
                    QKeySequence::Delete, &SessionActions::deleteSelected);
    m_copyCsv = make(tr("&Copy as CSV"), tr("Copy the points of the selected sessions to the clipboard as CSV"),
                     QKeySequence::Copy, [this] { copy(false); });
    m_copyJson = make(tr("Copy as &JSON"),
                      tr("Copy the selected sessions (details and points) to the clipboard as JSON"),
                      QKeySequence(tr("Ctrl+Shift+C")), [this] { copy(true); });
    m_browser->view()->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(m_browser, &SessionBrowser::selectionChanged, this, &SessionActions::updateEnabled);
    connect(m_browser->model(), &SessionModel::titleEdited, this,
            [this](std::int64_t id, const QString& oldTitle, const QString& newTitle) {
                push(new RenameSessionCommand(m_workspace->path(), id, oldTitle, newTitle,
                                                      [this](const QString& e, const auto& s) { commandDone(e, s); }));
            });
    updateEnabled();
}

void SessionActions::updateEnabled()
{
    const auto n = m_browser->selectedIds().size();
    m_rename->setEnabled(n == 1);
    m_delete->setEnabled(n > 0);
    m_duplicate->setEnabled(n > 0);
    m_copyCsv->setEnabled(n > 0);
    m_copyJson->setEnabled(n > 0);
}

void SessionActions::renameCurrent()
{
    const auto ids = m_browser->selectedIds();
    if (ids.size() == 1)
        m_browser->editTitle(ids.front());
}

void SessionActions::deleteSelected()
{
    std::vector<std::int64_t> ids;
    int running = 0;
    for (auto id : m_browser->selectedIds()) {
        const auto s = m_browser->session(id);
        // A run still writing would fail on its next point; cancel it first.
        if (s && s->status == SessionStatus::Running)
            ++running;
        else
            ids.push_back(id);
    }
    if (running > 0)
        emit message(tr("%n running session(s) not deleted: cancel the run first", nullptr, running));
    if (ids.empty())
        return;
    QString text = ids.size() == 1 ? tr("Delete “%1”").arg(QString::fromStdString(m_browser->session(ids.front())->title))
                                   : tr("Delete %n sessions", nullptr, int(ids.size()));
    push(new DeleteSessionsCommand(m_workspace->path(), ids, text,
                                           [this](const QString& e, const auto& s) { commandDone(e, s); }));
    if (running == 0)
        emit message(tr("%n session(s) deleted (Ctrl+Z brings them back)", nullptr, int(ids.size())));
}

void SessionActions::duplicateSelected()
{
    const auto ids = m_browser->selectedIds();
    if (ids.empty())
        return;
    const QString text = ids.size() == 1
                             ? tr("Duplicate “%1”").arg(QString::fromStdString(m_browser->session(ids.front())->title))
                             : tr("Duplicate %n sessions", nullptr, int(ids.size()));
    push(new DuplicateSessionsCommand(m_workspace->path(), ids, text,
                                              [this](const QString& e, const auto& s) { commandDone(e, s); }));
    emit message(tr("%n session(s) duplicated (Ctrl+Z removes the copies)", nullptr, int(ids.size())));
}

void SessionActions::copy(bool json)
{
    const auto ids = m_browser->selectedIds();
    if (ids.empty())
        return;
    try {
        store::Workspace ws(m_workspace->path().toStdString());
        const auto snap = store::snapshotSessions(ws.database(), ids);
        auto* mime = new QMimeData;
        const QString text = QString::fromStdString(json ? store::snapshotJson(snap).dump(2) + '\n'
                                                         : store::snapshotCsv(snap));
        mime->setText(text);
        mime->setData(json ? QStringLiteral("application/json") : QStringLiteral("text/csv"), text.toUtf8());
        QApplication::clipboard()->setMimeData(mime);
        emit message(tr("Copied %n point(s) of %1 session(s) as %2", nullptr, int(snap.recordCount()))
                         .arg(snap.sessionIds.size())
                         .arg(json ? QStringLiteral("JSON") : QStringLiteral("CSV")));
    } catch (const std::exception& e) {
        emit failed(tr("Could not copy the sessions: %1").arg(QString::fromStdString(e.what())));
    }
}

void SessionActions::push(QUndoCommand* command)
{
    m_pushing = true;
    m_undo->push(command);
    m_pushing = false;
}

void SessionActions::commandDone(const QString& error, const std::vector<std::int64_t>& select)
{
    if (!error.isEmpty())
        emit failed(error);
    emit sessionsChanged(select);
}
} // namespace rl
