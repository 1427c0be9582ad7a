#pragma once
// The main window only composes: session browser, chart area and details panel, the menus, and
// the controllers that do the work (workspace reads, imports, runs, export, settings).
#include <QMainWindow>
#include <QPointer>

#include <optional>
#include <vector>

#include "report/reportsizing.h"
#include "views/chartdata.h"
#include "trace/columnmapping.h"

class QLabel;
class QMenu;
class QMessageBox;
class QProgressBar;
class QStackedWidget;
class QToolButton;
class QUndoStack;

namespace rl {
namespace charts {
class ChartFrame;
}

class ChartArea;
class DetailsPanel;
class ImportController;
class JobTracker;
class MoeExplorer;
class PlanWindow;
class TraceView;
class KernelView;
class PairsView;
class StorageView;
class StepView;
class CopyBandwidthView;
class SizingWindow;
class ResilienceView;
class ProfileEditor;
class ValidationView;
class RunController;
class SessionActions;
class SessionBrowser;
class Settings;
class StartPage;
class WorkspaceController;
struct ImportReport;
struct LaunchSettings;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(Settings* settings, QWidget* parent = nullptr);
    ~MainWindow() override;

    void openWorkspace(const QString& path);
    QString workspacePath() const;
    void importPaths(const QStringList& paths);
    // A generic training-metrics table imported with the given column mapping (the dialog's answer).
    void importWithColumnMapping(const QString& path, const trace::ColumnMapping& mapping);
    // After the next session list arrives, select its first `count` sessions (charts show data).
    void selectFirstOnLoad(int count);
    // Whether a start on this workspace restores the selection it was last shown with (Settings).
    bool remembersSelection(const QString& workspace) const;
    // Runs `ridgeline-cli ARGS` (a kernel benchmark: run peakflops|membw|gemm); the new session is
    // selected and its charts reload as points arrive. cli: the program, empty for findCli().
    void startKernelBenchmark(const QStringList& cliArguments, const QString& cli = {});

    SessionBrowser* sessionBrowser() const { return m_browser; }
    ChartArea* chartArea() const { return m_charts; }
    DetailsPanel* detailsPanel() const { return m_details; }
    ImportController* importController() const { return m_import; }
    RunController* runController() const { return m_run; }
    SessionActions* sessionActions() const { return m_sessionActions; }
    QUndoStack* undoStack() const { return m_undo; }
    StartPage* startPage() const { return m_start; }
    // The start page's "Open the sample data": a workspace of its own (<user data>/samples.db),
    // filled from the bundled samples the first time, its newest sessions selected.
    void openSampleData();
    void showPreferences();

    // File > Report…'s work without the dialog: reads the sessions and their charts' points on a
    // worker, draws the charts here (QtCharts), writes the HTML or PDF on a worker; reportWritten
    // or reportFailed when done, with a status message.
    // cluster: the "characterise a cluster" template (collectives by tier, kernels and roofline);
    // sizing: its device and the model sized on it (ReportOptionsDialog), sized on the worker.
    void writeReport(const std::vector<std::int64_t>& ids, const QString& path, bool cluster = false,
                     const report::SizingChoice& sizing = {});

signals:
    void reportWritten(const QString& path);
    void reportFailed(const QString& error);
    void sessionsShown(int count);  // a session list arrived and is shown
    void chartsShown(int sessions); // the selected sessions' points are in the charts
    // and in the results table: after chartsShown, later for a long session drawn from its outline
    void everyPointShown(int points);
    void importDone(const rl::ImportReport& report);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createMenus();
    void createEditMenu();
    void createViewMenu();
    void showManual();
    void showShortcuts();
    void updateRecentMenu(const QStringList& recent);
    void updateWindowTitle(); // the workspace's name, and "(read-only)" when it is
    void newWorkspace();
    void chooseWorkspace();
    void chooseImport();
    void chooseMappedImport();
    void newBenchmark();
    void newKernelBenchmark();
    void newStorageBenchmark();
    void newProbeRun();
    void newGpuToolBenchmark();
    void probeRun(const std::optional<LaunchSettings>& launch); // the probe dialog, its launcher preset
    // One run at a time: says so and returns true while one is running.
    bool refuseWhileRunning();
    // Every run starts here: the sessions it creates are selected together as they start.
    void startRun(const QString& program, const QStringList& arguments, int expectedPoints);
    void showMoeExplorer();
    void showPlan();
    void showSizing();
    void showResilience();
    void showProfiles();
    void showValidation();
    void exportChart();
    void exportCsv();
    // The visible chart of the kernel, trace, pairs or storage view; nullptr on the collective charts.
    charts::ChartFrame* frontChartFrame() const;
    void chooseReport();
    void about();
    void onSelection(const std::vector<std::int64_t>& ids);
    void onImportFinished(const ImportReport& report);
    // The kernel, storage or pairs view in front reads its sessions again (points of a run).
    void reloadStoredView();
    void showProgress(const QString& what, int permille);
    void hideProgress();
    void hideLoadProgress(); // hideProgress, unless an import or a benchmark shows its own
    // Loads the shown sessions again with every point, after their charts were drawn from outlines.
    void readEveryPoint();

    Settings* m_settings;
    WorkspaceController* m_workspace;
    ImportController* m_import;
    RunController* m_run;
    QUndoStack* m_undo;
    SessionActions* m_sessionActions = nullptr;
    QByteArray m_defaultLayout; // the docks as first arranged (View > Reset Layout)
    JobTracker* m_reportJob;
    MoeExplorer* m_moeExplorer = nullptr;
    PlanWindow* m_plan = nullptr;
    QStackedWidget* m_views = nullptr;
    StartPage* m_start = nullptr;
    TraceView* m_traces = nullptr;
    KernelView* m_kernels = nullptr;
    PairsView* m_pairs = nullptr;
    StorageView* m_storage = nullptr;
    StepView* m_steps = nullptr;
    CopyBandwidthView* m_copyMatrices = nullptr;
    SizingWindow* m_sizing = nullptr;
    ResilienceView* m_resilience = nullptr;
    ProfileEditor* m_profiles = nullptr;
    ValidationView* m_validation = nullptr;
    SessionBrowser* m_browser;
    ChartArea* m_charts;
    DetailsPanel* m_details;
    QMenu* m_recentMenu = nullptr;
    QLabel* m_pathLabel;
    QLabel* m_progressLabel;
    QProgressBar* m_progress;
    QToolButton* m_cancel;
    QPointer<QMessageBox> m_importBox; // the last import's problems
    int m_selectFirst = 0;
    std::optional<std::vector<std::int64_t>> m_selectOnReload; // what the next session list selects
    std::vector<std::int64_t> m_shownIds;
    std::vector<std::int64_t> m_runIds; // sessions of the current (or last) run
    bool m_readingEveryPoint = false; // charts drawn from an outline, the points on their way
    bool m_reloadPending = false; // a reload of the stored view is scheduled
};
} // namespace rl
