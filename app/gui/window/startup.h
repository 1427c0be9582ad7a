#pragma once
// What `ridgeline [--db FILE] [--select IDS] [--screenshot FILE.png] [--tab TITLE] [PATHS...]` asks for, and where the bundled
// sample data lives.
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace rl {

class MainWindow;

struct StartupOptions
{
    QString workspace;  // resolved: --db, else the last one used, else the per-user default
    bool firstStart = false; // the workspace file does not exist yet: import the samples
    QString screenshot; // render the window to this PNG and quit
    QStringList tabs;   // tabs to bring to front by their title (--tab Timeline), for screenshots
    QStringList paths;  // files and folders to import
    std::vector<std::int64_t> select; // sessions to show first (--select 3,5); empty: the newest two
};

// Before the QApplication exists: --help and --version print and exit under a QCoreApplication
// (a QApplication needs a display, and aborts without one before it could print them); a
// --screenshot with no display to show on renders on the offscreen platform.
void prepareStartup(int argc, char** argv);
// Organization, application name and version, the same for both.
void setApplicationNames();
// Parses the application's arguments; exits with the parser's message on --help or errors.
StartupOptions parseStartup(const QStringList& arguments, const QString& lastWorkspace);
// share/ridgeline/sample_data next to the installed program, or sample_data/ in the source tree.
QString sampleDataDir();
// Opens the workspace in the window, then imports `imports` once the session list is shown and
// selects the newest two sessions (or options.select) when they are stored. Kept out of main() so
// the widget tests drive the same start-up sequence.
void startWindow(MainWindow& window, const StartupOptions& options, const QStringList& imports);
} // namespace rl
