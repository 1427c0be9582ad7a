#pragma once
// Reads the open workspace for the views, always off the GUI thread: the session list, the
// points (or trace and training-log records) of the selected sessions, and note edits. Each reader job opens its own connection.
#include <memory>

#include <QObject>
#include <QString>

#include <vector>

#include "pairsheatmapchart.h"
#include "storagechart.h"
#include "gui/window/chartarea.h"
#include "views/chartdata.h"
#include "views/kernelchartdata.h"
#include "views/tracechartdata.h"
#include "records/session.h"

namespace rl {

class JobTracker;

class WorkspaceController : public QObject
{
    Q_OBJECT
public:
    explicit WorkspaceController(QObject* parent = nullptr);

    QString path() const { return m_path; }
    // As the last session list found it: a file in a folder or on a mount that cannot be written
    // is browsed read-only.
    bool readOnly() const { return m_readOnly; }
    // Opens (creating if needed) and loads the session list.
    void open(const QString& path);
    void reloadSessions();
    // The sessions' points and what the chart area draws from them, built on the worker
    // (ChartArea::prepare): the GUI thread only hands finished data to the tabs and the table. By
    // default a long session comes as its outline (store/collectiveoutline.h): its owner then
    // loads every point (ChartArea::holdsEveryPoint).
    void loadCurves(const std::vector<std::int64_t>& sessionIds, const ChartArea::LoadRequest& request,
                    charts::PointsRead read = charts::PointsRead::OutlineWhereStored);
    // Counts the loads of curves started: one started since a count was taken supersedes it.
    std::uint64_t curvesLoads() const;
    // Stops the running load of curves: it delivers nothing, curvesCanceled says so.
    void cancelCurves();
    void loadTraceCharts(const std::vector<std::int64_t>& sessionIds);
    void loadKernelCharts(const std::vector<std::int64_t>& sessionIds);
    void loadPairs(std::int64_t sessionId);
    void loadStorage(const std::vector<std::int64_t>& sessionIds);
    void saveNotes(std::int64_t sessionId, const QString& notes);

signals:
    void workspaceChanged(const QString& path);
    void readOnlyChanged(bool readOnly);
    void sessionsAvailable(const std::vector<rl::Session>& sessions);
    // Handed over, not copied: a selection's table rows are 16 MB a million points.
    void curvesAvailable(const std::shared_ptr<rl::ChartArea::Loaded>& curves);
    // While a load reads every point (charts::PointsRead::Every): how far it is, in permille, and
    // the step it is at.
    void curvesProgress(int permille, const QString& step);
    void curvesCanceled(); // by cancelCurves()
    void traceChartsAvailable(const std::vector<rl::charts::TraceChartData>& sessions);
    void kernelChartsAvailable(const rl::charts::KernelChartData& data);
    void pairsAvailable(const rl::views::PairsSessionData& data);
    void storageAvailable(const std::vector<rl::storage::StorageSessionData>& sessions);
    void notesSaved(std::int64_t sessionId, const QString& notes);
    void operationFailed(const QString& message);

private:
    // Runs read(workspace, control) -> T on a worker with its own connection; the value goes to
    // deliver on the GUI thread, an error the store threw to operationFailed.
    template <typename T, typename Read, typename Deliver>
    void readWorkspace(JobTracker* job, Read read, Deliver deliver);

    QString m_path;
    bool m_readOnly = false;
    JobTracker* m_sessionsJob;
    JobTracker* m_curvesJob;
    JobTracker* m_tracesJob;
    JobTracker* m_kernelsJob;
    JobTracker* m_pairsJob;
    JobTracker* m_storageJob;
    JobTracker* m_notesJob;
};
} // namespace rl
