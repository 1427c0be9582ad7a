#include "gui/window/importcontroller.h"

#include <filesystem>

#include "jobtracker.h"
#include "store/fileimport.h"

namespace rl {

QString ImportReport::summary() const
{
    QString s = QObject::tr("Imported %1 of %2 file(s)").arg(imported).arg(filesTotal);
    if (alreadyImported > 0)
        s += QObject::tr(", %1 already in the workspace (skipped)").arg(alreadyImported);
    if (!errors.isEmpty())
        s += QObject::tr(", %1 failed").arg(errors.size());
    if (cancelled)
        s += QObject::tr(", cancelled");
    return s;
}

ImportController::ImportController(QObject* parent) : QObject(parent), m_tracker(new JobTracker(this))
{
    connect(m_tracker, &JobTracker::progressChanged, this, &ImportController::progressChanged);
    connect(m_tracker, &JobTracker::jobCanceled, this, &ImportController::importCanceled);
}

bool ImportController::isRunning() const { return m_tracker->isRunning(); }
void ImportController::cancel() { m_tracker->cancel(); }

void ImportController::start(const QStringList& paths) { run(paths, {}, std::nullopt); }

void ImportController::startWithColumns(const QString& path, const trace::ColumnMapping& mapping)
{
    run({path}, "trainlog-table", mapping); // the mapping is the format choice: no sniffing
}

void ImportController::run(const QStringList& paths, const std::string& formatId,
                           std::optional<trace::ColumnMapping> columns)
{
    std::vector<std::string> inputs;
    for (const auto& p : paths)
        inputs.push_back(p.toStdString());
    const std::string workspace = m_workspace.toStdString();
    emit importStarted();
    m_tracker->start<ImportReport>(
        [inputs, workspace, formatId, columns](JobControl<ImportReport>& control) {
            ImportReport report;
            const auto files = store::expandImportPaths(inputs);
            report.filesTotal = static_cast<int>(files.size());
            std::vector<std::int64_t> sizes;
            std::int64_t total = 0;
            for (const auto& f : files) {
                std::error_code ec;
                const auto size = std::filesystem::file_size(f, ec);
                sizes.push_back(ec ? 0 : static_cast<std::int64_t>(size));
                total += sizes.back();
            }
            try {
                store::Workspace ws(workspace); // this thread's own connection
                std::int64_t done = 0;
                for (size_t i = 0; i < files.size(); ++i) {
                    if (control.isCanceled()) {
                        report.cancelled = true;
                        break;
                    }
                    const QString name = QString::fromStdString(std::filesystem::path(files[i]).filename().string());
                    control.setProgress(done, total, name);
                    ImportOptions options;
                    options.trainColumns = columns;
                    options.progress = [&control, done, total, name](std::int64_t bytes, std::int64_t) {
                        control.setProgress(done + bytes, total, name);
                        return !control.isCanceled();
                    };
                    const auto outcome = store::importIntoWorkspace(ws, files[i], options, formatId);
                    done += sizes[i];
                    for (const auto& w : outcome.warnings)
                        report.warnings << QString::fromStdString(describeLocation(files[i], w.where) + ": " + w.message);
                    if (outcome.cancelled) {
                        report.cancelled = true;
                        break;
                    }
                    if (!outcome.ok) {
                        report.errors << QString::fromStdString(outcome.error);
                    } else if (outcome.alreadyImported) {
                        ++report.alreadyImported;
                    } else {
                        ++report.imported;
                        report.newSessionIds.insert(report.newSessionIds.end(), outcome.sessionIds.begin(),
                                                    outcome.sessionIds.end());
                    }
                }
                control.setProgress(total, total);
            } catch (const std::exception& e) {
                report.errors << QString::fromStdString(e.what());
            }
            return report;
        },
        [this](ImportReport report) { emit importFinished(report); });
}
} // namespace rl
