#include "workspacecontroller.h"

#include <variant>

#include "jobtracker.h"
#include "store/workspace.h"

namespace rl {
namespace {
// A job's answer: the value, or the error message the store threw.
template <typename T>
using Outcome = std::variant<T, QString>;
} // namespace

WorkspaceController::WorkspaceController(QObject* parent)
    : QObject(parent), m_sessionsJob(new JobTracker(this)), m_curvesJob(new JobTracker(this)),
      m_tracesJob(new JobTracker(this)), m_kernelsJob(new JobTracker(this)), m_notesJob(new JobTracker(this))
{
}

void WorkspaceController::open(const QString& path)
{
    m_path = path;
    emit workspaceChanged(path);
    reloadSessions();
}

void WorkspaceController::reloadSessions()
{
    const std::string path = m_path.toStdString();
    m_sessionsJob->start<Outcome<std::vector<Session>>>(
        [path](auto&) -> Outcome<std::vector<Session>> {
            try {
                store::Workspace ws(path);
                ws.markOrphanedRuns();
                return ws.sessions();
            } catch (const std::exception& e) {
                return QString::fromStdString(e.what());
            }
        },
        [this](Outcome<std::vector<Session>> out) {
            if (auto* err = std::get_if<QString>(&out))
                emit operationFailed(*err);
            else
                emit sessionsAvailable(std::get<std::vector<Session>>(out));
        });
}

void WorkspaceController::loadCurves(const std::vector<std::int64_t>& sessionIds)
{
    using Curves = std::vector<charts::SessionCurves>;
    const std::string path = m_path.toStdString();
    m_curvesJob->start<Outcome<Curves>>(
        [path, sessionIds](auto& control) -> Outcome<Curves> {
            try {
                store::Workspace ws(path);
                return charts::loadSessionCurves(ws, sessionIds, charts::MissingSession::Skip,
                                                 [&control] { return control.isCanceled(); });
            } catch (const std::exception& e) {
                return QString::fromStdString(e.what());
            }
        },
        [this](Outcome<Curves> out) {
            if (auto* err = std::get_if<QString>(&out))
                emit operationFailed(*err);
            else
                emit curvesAvailable(std::get<Curves>(out));
        });
}

void WorkspaceController::loadTraceCharts(const std::vector<std::int64_t>& sessionIds)
{
    using Traces = std::vector<charts::TraceChartData>;
    const std::string path = m_path.toStdString();
    m_tracesJob->start<Outcome<Traces>>(
        [path, sessionIds](auto&) -> Outcome<Traces> {
            try {
                store::Workspace ws(path);
                return charts::loadTraceCharts(ws, sessionIds);
            } catch (const std::exception& e) {
                return QString::fromStdString(e.what());
            }
        },
        [this](Outcome<Traces> out) {
            if (auto* err = std::get_if<QString>(&out))
                emit operationFailed(*err);
            else
                emit traceChartsAvailable(std::get<Traces>(out));
        });
}

void WorkspaceController::loadKernelCharts(const std::vector<std::int64_t>& sessionIds)
{
    const std::string path = m_path.toStdString();
    m_kernelsJob->start<Outcome<charts::KernelChartData>>(
        [path, sessionIds](auto&) -> Outcome<charts::KernelChartData> {
            try {
                store::Workspace ws(path);
                return charts::loadKernelCharts(ws, sessionIds);
            } catch (const std::exception& e) {
                return QString::fromStdString(e.what());
            }
        },
        [this](Outcome<charts::KernelChartData> out) {
            if (auto* err = std::get_if<QString>(&out))
                emit operationFailed(*err);
            else
                emit kernelChartsAvailable(std::get<charts::KernelChartData>(out));
        });
}

void WorkspaceController::saveNotes(std::int64_t sessionId, const QString& notes)
{
    const std::string path = m_path.toStdString();
    const std::string text = notes.toStdString();
    m_notesJob->start<QString>(
        [path, sessionId, text](auto&) -> QString {
            try {
                store::Workspace ws(path);
                ws.setNotes(sessionId, text);
                return {};
            } catch (const std::exception& e) {
                return QString::fromStdString(e.what());
            }
        },
        [this, sessionId, notes](const QString& error) {
            if (error.isEmpty())
                emit notesSaved(sessionId, notes);
            else
                emit operationFailed(tr("Could not save the notes: %1").arg(error));
        });
}
} // namespace rl
