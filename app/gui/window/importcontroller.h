#pragma once
// Imports files and folders into a workspace in the background: one job on the JobTracker that
// opens its own workspace connection, expands folders, and imports file by file through
// store::importIntoWorkspace (sha256 dedup, all-or-nothing per file). Progress is by bytes.
#include <QObject>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trace/columnmapping.h"

namespace rl {

class JobTracker;

struct ImportReport
{
    int filesTotal = 0;
    int imported = 0;
    int alreadyImported = 0;
    bool cancelled = false;
    QStringList errors;   // one per failed file: "path:line: message"
    QStringList warnings; // non-fatal, "path:line: message"
    std::vector<std::int64_t> newSessionIds;
    QString summary() const; // one line for the status bar
};

class ImportController : public QObject
{
    Q_OBJECT
public:
    explicit ImportController(QObject* parent = nullptr);

    void setWorkspacePath(const QString& path) { m_workspace = path; }
    // Starts an import; a running one is cancelled first (nothing of its current file is stored).
    void start(const QStringList& paths);
    // Imports one generic training-metrics table (CSV / TSV / JSON lines) with the user's column
    // mapping instead of the guess from its header.
    void startWithColumns(const QString& path, const trace::ColumnMapping& mapping);
    void cancel();
    bool isRunning() const;

signals:
    void importStarted();
    void progressChanged(int permille, const QString& currentFile); // -1: indeterminate
    void importFinished(const rl::ImportReport& report);
    void importCanceled();

private:
    void run(const QStringList& paths, const std::string& formatId, std::optional<trace::ColumnMapping> columns);

    QString m_workspace;
    JobTracker* m_tracker;
};
} // namespace rl

Q_DECLARE_METATYPE(rl::ImportReport)
