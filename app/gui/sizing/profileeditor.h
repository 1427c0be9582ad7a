#pragma once
// Hardware profiles in the GUI: the shipped ones (read-only) and the user's own; a shipped profile is
// copied under a new id and edited in a form or as raw JSON (two tabs over one document, kept in
// sync), validated by the same schema the loader applies, and saved with the user's profiles, where
// the sizing model, the roofline and `ridgeline-cli profile show` find it by id. The user's own
// profiles can be renamed and deleted (`profile rename|delete`).
#include <QWidget>

#include <nlohmann/json.hpp>

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;

namespace rl {
class ProfileForm;

class ProfileEditor : public QWidget
{
    Q_OBJECT
public:
    explicit ProfileEditor(QWidget* parent = nullptr);

    void reload();                       // re-read shipped and user profiles
    bool select(const QString& id);      // false when there is no such profile
    // A user copy of the selected profile under `newId`, made editable (not yet saved).
    bool copySelected(const QString& newId);
    void setText(const QString& json);   // as if typed
    QString problem() const;             // the validation message, empty when the text is valid
    bool canSave() const;
    ProfileForm* form() const { return m_form; }
    QString text() const; // the JSON tab
    // Writes the edited profile to the user's profiles; returns the error, empty on success.
    QString save();
    // The selected profile, when it is one of the user's: renamed, or deleted (the shipped one of
    // the same id, if any, shows again). Return the error, empty on success.
    QString renameSelected(const QString& newId);
    QString deleteSelected();

Q_SIGNALS:
    void profileSaved(const QString& id);
    void profileRemoved(const QString& id);

private:
    QString selectedId() const; // empty when nothing is selected
    void showSelected();
    void validate();
    void formEdited();
    void textEdited();

    QListWidget* m_list;
    QTabWidget* m_tabs;
    ProfileForm* m_form;
    QPlainTextEdit* m_text;
    QLabel* m_status;
    QPushButton* m_copy;
    QPushButton* m_rename;
    QPushButton* m_delete;
    QPushButton* m_save;
    bool m_editable = false;
    QString m_problem;
    bool m_syncing = false; // the form is writing the JSON tab: do not read it back into the form
    nlohmann::json m_lastParsed; // the JSON tab's last text that parsed: the form writes over it
};
} // namespace rl
