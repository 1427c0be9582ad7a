#pragma once
// The main window as the GUI tests drive it: shown at a fixed size on a workspace file in a
// temporary folder (settings there too, no modal boxes), its session list loaded; and the launcher
// arguments that let `ridgeline-cli run` start ranks under the test machine's mpirun.
#include <QSignalSpy>
#include <QStringList>

#include "gui/window/mainwindow.h"
#include "settings.h"
#include "tempdir.h"
#include "test_gui_env.h"

namespace rl::testing {

struct OpenWindow
{
    explicit OpenWindow(const rl::test::TempDir& dir, const QString& workspace)
        : settings{(qputenv("RIDGELINE_NO_DIALOGS", "1"), dir.filePath(QStringLiteral("settings.ini")))}
        , window{&settings}
    {
        window.resize(1300, 800);
        window.show();
        QSignalSpy shown(&window, &MainWindow::sessionsShown);
        window.openWorkspace(workspace);
        loaded = shown.wait(15000);
    }
    Settings settings;
    MainWindow window;
    bool loaded = false;
};

// The launcher options an oversubscribed 2-core machine needs (Open MPI), as a dialog takes them.
inline QString testMpirunOptions() { return QStringLiteral("--oversubscribe --mca pml ob1 --mca btl self,vader"); }

// The same as ridgeline-cli's --mpirun-arg, one a word.
inline QStringList testMpirunArguments()
{
    QStringList args;
    for (const QString& a : testMpirunOptions().split(u' '))
        args << QStringLiteral("--mpirun-arg") << a;
    return args;
}
} // namespace rl::testing
