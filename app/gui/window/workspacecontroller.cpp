#include "gui/window/workspacecontroller.h"

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
      m_tracesJob(new JobTracker(this)), m_kernelsJob(new JobTracker(this)),
      m_pairsJob(new JobTracker(this)), m_storageJob(new JobTracker(this)), m_notesJob(new JobTracker(this))
{
    connect(m_curvesJob, &JobTracker::progressChanged, this, [this](int permille, const QString& step) {
        if (permille >= 0)
            emit curvesProgress(permille, step);
    });
    connect(m_curvesJob, &JobTracker::jobCanceled, this, &WorkspaceController::curvesCanceled);
}

void WorkspaceController::open(const QString& path)
{
    m_path = path;
    m_readOnly = false; // until its session list says otherwise
    emit workspaceChanged(path);
    reloadSessions();
}

template <typename T, typename Read, typename Deliver>
void WorkspaceController::readWorkspace(JobTracker* job, Read read, Deliver deliver)
{
    const std::string path = m_path.toStdString();
    job->start<Outcome<T>>(
        [path, read](auto& control) -> Outcome<T> {
            try {
                store::Workspace ws(path);
                return read(ws, control);
            } catch (const std::exception& e) {
                return QString::fromStdString(e.what());
            }
        },
        [this, deliver](Outcome<T> out) {
            if (auto* err = std::get_if<QString>(&out))
                emit operationFailed(*err);
            else
                deliver(std::get<T>(std::move(out))); // the result moves on: no copy of a large one
        });
}

void WorkspaceController::reloadSessions()
{
    using Listing = std::pair<std::vector<Session>, bool>; // the sessions, and whether read-only
    readWorkspace<Listing>(
        m_sessionsJob,
        [](store::Workspace& ws, auto&) {
            ws.markOrphanedRuns();
            return Listing{ws.sessions(), ws.readOnly()};
        },
        [this](const Listing& listing) {
            if (listing.second != m_readOnly) {
                m_readOnly = listing.second;
                emit readOnlyChanged(m_readOnly);
            }
            emit sessionsAvailable(listing.first);
        });
}

void WorkspaceController::loadCurves(const std::vector<std::int64_t>& sessionIds, const ChartArea::LoadRequest& request,
                                     charts::PointsRead read)
{
    readWorkspace<ChartArea::Loaded>(
        m_curvesJob,
        [sessionIds, request, read](store::Workspace& ws, auto& control) {
            const std::function<bool()> cancelled = [&control] { return control.isCanceled(); };
            // An outline is read at once; every point of a long session takes seconds: its read is
            // 60 % of the bar (about its share of the time for 10 M points on 2 cores), the charts
            // drawn again from them 25 %, the table's sort the rest.
            std::function<void(double)> progress;
            std::function<void(ChartArea::PrepareStep)> step;
            if (read == charts::PointsRead::Every) {
                progress = [&control](double share) {
                    control.setProgress(std::int64_t(share * 600), 1000, tr("Reading every point for the results table"));
                };
                step = [&control](ChartArea::PrepareStep s) {
                    const bool charts = s == ChartArea::PrepareStep::Charts;
                    control.setProgress(charts ? 600 : 850, 1000,
                                        charts ? tr("Drawing the charts from every point") : tr("Sorting the results table"));
                };
            }
            return ChartArea::prepare(
                charts::loadSessionCurves(ws, sessionIds, charts::MissingSession::Skip, cancelled, read, progress),
                request, cancelled, step);
        },
        [this](ChartArea::Loaded&& curves) { emit curvesAvailable(std::make_shared<ChartArea::Loaded>(std::move(curves))); });
}

std::uint64_t WorkspaceController::curvesLoads() const
{
    return m_curvesJob->generation();
}

void WorkspaceController::cancelCurves()
{
    m_curvesJob->cancel();
}

void WorkspaceController::loadTraceCharts(const std::vector<std::int64_t>& sessionIds)
{
    using Traces = std::vector<charts::TraceChartData>;
    readWorkspace<Traces>(
        m_tracesJob, [sessionIds](store::Workspace& ws, auto&) { return charts::loadTraceCharts(ws, sessionIds); },
        [this](const Traces& traces) { emit traceChartsAvailable(traces); });
}

void WorkspaceController::loadKernelCharts(const std::vector<std::int64_t>& sessionIds)
{
    readWorkspace<charts::KernelChartData>(
        m_kernelsJob, [sessionIds](store::Workspace& ws, auto&) { return charts::loadKernelCharts(ws, sessionIds); },
        [this](const charts::KernelChartData& data) { emit kernelChartsAvailable(data); });
}

void WorkspaceController::loadPairs(std::int64_t sessionId)
{
    readWorkspace<views::PairsSessionData>(
        m_pairsJob,
        [sessionId](store::Workspace& ws, auto&) {
            return views::loadPairsSession(ws, sessionId, charts::MissingSession::Skip);
        },
        [this](const views::PairsSessionData& data) { emit pairsAvailable(data); });
}

void WorkspaceController::loadStorage(const std::vector<std::int64_t>& sessionIds)
{
    using Sessions = std::vector<storage::StorageSessionData>;
    readWorkspace<Sessions>(
        m_storageJob,
        [sessionIds](store::Workspace& ws, auto& control) {
            return storage::loadStorageSessions(ws, sessionIds, charts::MissingSession::Skip,
                                                [&control] { return control.isCanceled(); });
        },
        [this](const Sessions& sessions) { emit storageAvailable(sessions); });
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
