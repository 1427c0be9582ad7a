#pragma once
// Help > About Ridgeline: what it is, its version and the versions of the libraries it runs with
// (Qt at run time and build time, SQLite, simdjson, Eigen, the MPI of ridgeline-bench), with a
// Copy button for bug reports.
#include <QDialog>

namespace rl {

class AboutDialog : public QDialog
{
    Q_OBJECT
public:
    explicit AboutDialog(const QString& workspacePath, QWidget* parent = nullptr);
    // "Ridgeline 0.1.0\nQt 6.4.2 (built with 6.4.2)\nSQLite 3.40.1\n..."
    static QString versionsText();
};
} // namespace rl
