#pragma once
// The session browser: a search field over the session tree (kind groups, newest first).
// Emits the ids of the selected sessions, in selection order, whenever the selection changes.
#include <QWidget>

#include <optional>
#include <vector>

#include "records/session.h"

class QLineEdit;
class QTreeView;

namespace rl {

class SessionModel;
class SessionFilterProxy;

class SessionBrowser : public QWidget
{
    Q_OBJECT
public:
    explicit SessionBrowser(QWidget* parent = nullptr);

    // Selects `select` afterwards, or else keeps the selection whose ids survive. selectionChanged
    // follows when anything ends up selected, and when a selection ends up empty.
    void setSessions(std::vector<Session> sessions, std::optional<std::vector<std::int64_t>> select = std::nullopt);
    std::vector<std::int64_t> selectedIds() const;
    std::optional<Session> session(std::int64_t id) const;
    void selectSessions(const std::vector<std::int64_t>& ids);
    void selectFirst(int count); // the newest sessions of the first group
    SessionModel* model() const { return m_model; }
    QTreeView* view() const { return m_view; }
    void editTitle(std::int64_t id); // starts the in-place editor on the session's title
    void focusSearch();              // Find: the filter field, its text selected

signals:
    void selectionChanged(const std::vector<std::int64_t>& ids);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fitTitleColumn();

    QLineEdit* m_search;
    QTreeView* m_view;
    SessionModel* m_model;
    SessionFilterProxy* m_proxy;
    int m_titleWidth = 320; // the longest title's, measured when the sessions are set
};
} // namespace rl
