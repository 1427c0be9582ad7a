#pragma once
// What the main window shows while no session is selected, instead of empty charts: the recent
// workspaces (Settings' list, kept by MainWindow::openWorkspace), the bundled sample data, the
// three common tasks (each button triggers the menu's own action) and where files can be dropped.
#include <QWidget>

class QAction;
class QListWidget;
class QPushButton;
class QVBoxLayout;

namespace rl {
class Settings;

class StartPage : public QWidget
{
    Q_OBJECT
public:
    // sampleData: the folder "Open the sample data" imports; empty disables the button.
    StartPage(Settings* settings, const QString& sampleData, QWidget* parent = nullptr);

    // A button per task, labelled and tipped like its action and triggering it.
    void addTask(QAction* action, const QString& label, const QString& objectName);

signals:
    void openWorkspaceRequested(const QString& path);
    void sampleDataRequested();

private:
    void showRecent(const QStringList& recent);

    QListWidget* m_recent;
    QVBoxLayout* m_tasks;
};
} // namespace rl
