#pragma once
// The selected session's metadata: title, command line, host, tool, parameters as a key/value
// tree, status, and notes the user can edit (saving is the owner's job: notesSaveRequested).
#include <QWidget>

#include <optional>

#include "records/session.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace rl {

class DetailsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit DetailsPanel(QWidget* parent = nullptr);

    void setSession(const std::optional<Session>& session); // nullopt: nothing selected
    // `shown` of the `selected` sessions are in the view (the others have views of their own).
    void setMultipleSelected(int selected, int shown);
    std::optional<std::int64_t> sessionId() const;
    void markNotesSaved(std::int64_t sessionId, const QString& notes);

signals:
    void notesSaveRequested(std::int64_t sessionId, const QString& notes);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fillParams(QTreeWidgetItem* parent, const nlohmann::json& value);
    void setValue(QTreeWidgetItem* item, const QString& text);
    void fitParamColumns();
    void updateSaveButton();

    QLabel* m_title;
    QLabel* m_commandLine;
    QLabel* m_host;
    QLabel* m_tool;
    QLabel* m_status;
    QLabel* m_created;
    QTreeWidget* m_params;
    QPlainTextEdit* m_notes;
    QPushButton* m_saveNotes;
    std::optional<Session> m_session;
};
} // namespace rl
