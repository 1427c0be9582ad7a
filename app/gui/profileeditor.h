#pragma once
// Hardware profiles in the GUI: the shipped ones (read-only) and the user's own; a shipped profile is
// copied under a new id and edited as JSON, validated by the same schema the loader applies, and
// saved with the user's profiles, where the sizing model and the roofline find it by id.
#include <QWidget>

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace rl {

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
    // Writes the edited profile to the user's profiles; returns the error, empty on success.
    QString save();

Q_SIGNALS:
    void profileSaved(const QString& id);

private:
    void showSelected();
    void validate();

    QListWidget* m_list;
    QPlainTextEdit* m_text;
    QLabel* m_status;
    QPushButton* m_copy;
    QPushButton* m_save;
    bool m_editable = false;
    QString m_problem;
};
} // namespace rl
