#pragma once
// Edit > Preferences (Ctrl+,): the launcher the benchmark dialogs pre-fill, the folders searched for
// the GPU tools (the tools.json that the GPU tool dialog and `ridgeline-cli tools` read), the
// bandwidth unit, the chart export size and the theme. OK and Apply write through Settings (and
// tools.json); Cancel writes nothing. What Settings announces takes effect at once (appearance.h).
#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QListWidget;
class QSpinBox;

namespace rl {
class LauncherWidget;
class Settings;

class PreferencesDialog : public QDialog
{
    Q_OBJECT
public:
    explicit PreferencesDialog(Settings* settings, QWidget* parent = nullptr);

    // Writes every field; returns the error (tools.json could not be written), empty on success.
    QString apply();
    // What Add… does after its folder dialog (tests call it directly); false when not a folder.
    bool addToolFolder(const QString& folder);
    QStringList toolFolders() const;

signals:
    void applied();

private:
    void load();
    void finish(bool close);

    Settings* m_settings;
    LauncherWidget* m_launch;
    QListWidget* m_folders;
    QComboBox* m_unit;
    QComboBox* m_theme;
    QSpinBox* m_exportWidth;
    QSpinBox* m_exportHeight;
    QLabel* m_problem;
    QDialogButtonBox* m_buttons;
};
} // namespace rl
