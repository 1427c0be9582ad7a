// MainWindow's menus and the dialogs behind them (kept apart from the window's wiring).
#include <QApplication>
#include <QDockWidget>
#include <QUndoStack>
#include <QDir>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QStackedWidget>
#include <QStatusBar>

#include "gui/settings/aboutdialog.h"
#include "gui/runs/benchmarkdialog.h"
#include "gui/window/chartarea.h"
#include "chartframe.h"
#include "collectivechart.h"
#include "gui/window/columnmappingdialog.h"
#include "gui/window/mainwindow.h"
#include "gui/sizing/configeditor.h"
#include "filedialogs.h"
#include "gui/runs/gputooldialog.h"
#include "gui/runs/probedialog.h"
#include "gui/runs/kernelbenchmarkdialog.h"
#include "gui/runs/storagebenchmarkdialog.h"
#include "gui/sizing/moeexplorer.h"
#include "moescatterchart.h"
#include "planparetochart.h"
#include "gui/sizing/planwindow.h"
#include "jobtracker.h"
#include "report/report.h"
#include "gui/window/reportoptionsdialog.h"
#include "reportwriter.h"
#include "gui/settings/preferencesdialog.h"
#include "gui/resilience/resilienceview.h"
#include "gui/sizing/profileeditor.h"
#include "gui/window/startpage.h"
#include "gui/window/startup.h"
#include "io/userpaths.h"
#include "gui/sizing/validationview.h"
#include "gui/window/sessionactions.h"
#include "gui/window/sessionbrowser.h"
#include "gui/settings/manualdialog.h"
#include "gui/settings/shortcutsdialog.h"
#include "gui/sizing/sizingwindow.h"
#include "gui/window/toolwindow.h"
#include "gui/runs/runcontroller.h"
#include "gui/window/sessionbrowser.h"
#include "settings.h"
#include "store/workspace.h"
#include "gui/window/workspacecontroller.h"

namespace rl {

void MainWindow::createMenus()
{
    auto* file = menuBar()->addMenu(tr("&File"));
    auto add = [this](QMenu* menu, const QString& text, const QString& tip, auto slot,
                      QKeySequence key = {}) {
        QAction* a = menu->addAction(text);
        a->setToolTip(tip);
        a->setStatusTip(tip);
        a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    add(file, tr("&New workspace…"), tr("Create an empty workspace file and open it"), &MainWindow::newWorkspace,
        QKeySequence::New);
    add(file, tr("&Open workspace…"), tr("Open another workspace file"), &MainWindow::chooseWorkspace,
        QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("&Recent workspaces"));
    m_recentMenu->setToolTip(tr("Workspaces opened before"));
    file->addSeparator();
    QAction* import = add(file, tr("&Import…"), tr("Import benchmark output, traces or logs (files or folders; drop them on the window too)"),
        &MainWindow::chooseImport, QKeySequence(tr("Ctrl+I")));
    add(file, tr("Import training log with column &mapping…"),
        tr("Import a CSV, TSV or JSON-lines metrics table choosing which column holds the step, loss, step time, "
           "throughput and MFU"),
        &MainWindow::chooseMappedImport);
    QAction* benchmark = add(file, tr("New collective &benchmark…"), tr("Run a collective sweep with ridgeline-bench"),
        &MainWindow::newBenchmark, QKeySequence(tr("Ctrl+B")));
    add(file, tr("New &kernel benchmark…"),
        tr("Measure peak FLOP/s, memory bandwidth or a GEMM sweep on this machine; the charts grow as it runs"),
        &MainWindow::newKernelBenchmark, QKeySequence(tr("Ctrl+Shift+B")));
    add(file, tr("New &storage benchmark…"),
        tr("Measure a file system with ridgeline-bench io under mpirun: write and read back per-rank files (or one "
           "shared file); points are stored and charted as they come, files removed afterwards"),
        &MainWindow::newStorageBenchmark);
    add(file, tr("New &PyTorch probe run…"),
        tr("Measure GEMM, memory bandwidth, attention, collectives or a training step through PyTorch on this "
           "node's GPU (or CPU), or on cluster nodes through mpirun/srun; points are stored as they come"),
        &MainWindow::newProbeRun);
    add(file, tr("New &GPU tool benchmark…"),
        tr("Run nccl-tests / rccl-tests, hipblaslt-bench or rocblas-bench; points are stored and charted as the "
           "tool prints them"),
        &MainWindow::newGpuToolBenchmark, QKeySequence(tr("Ctrl+Alt+B")));
    file->addSeparator();
    add(file, tr("Export &chart…"), tr("Save the current chart as PNG, SVG or PDF"), &MainWindow::exportChart,
        QKeySequence(tr("Ctrl+E")));
    add(file, tr("Export &data (CSV)…"), tr("Save the points of the selected sessions as CSV"),
        &MainWindow::exportCsv);
    add(file, tr("&Report…"),
        tr("Write one self-contained report of the selected sessions (HTML with its charts inline, or PDF): "
           "summary, charts, tables, fits, provenance"),
        &MainWindow::chooseReport, QKeySequence(tr("Ctrl+R")));
    file->addSeparator();
    add(file, tr("&Quit"), tr("Close Ridgeline"), &MainWindow::close, QKeySequence::Quit);
    file->setToolTipsVisible(true);

    createEditMenu();
    createViewMenu();

    auto* tools = menuBar()->addMenu(tr("&Tools"));
    add(tools, tr("&MoE explorer…"),
        tr("Sweep experts, top-k and shared experts of a MoE model: throughput vs decode latency, Pareto front"),
        &MainWindow::showMoeExplorer, QKeySequence(tr("Ctrl+M")));
    add(tools, tr("&Plan a run…"),
        tr("Search every legal parallel layout of a model on a cluster and rank them by predicted step time: what "
           "was left out and why, the Pareto front of step time against memory, launch arguments"),
        &MainWindow::showPlan, QKeySequence(tr("Ctrl+Shift+L")));
    QAction* sizing = add(tools, tr("&Sizing model…"),
        tr("Config editor: parameters, memory, step time, MFU, decode latency and sizing rules; two side by side"),
        &MainWindow::showSizing, QKeySequence(tr("Ctrl+Shift+M")));
    add(tools, tr("R&esilience planner…"),
        tr("Checkpoint size and save/load time on measured storage, job MTBF, the Young/Daly interval, goodput vs "
           "interval and vs nodes, and checkpoint reshaping"),
        &MainWindow::showResilience, QKeySequence(tr("Ctrl+Shift+K")));
    add(tools, tr("&Hardware profiles…"), tr("Vendor profiles with sources; copy and edit your own"),
        &MainWindow::showProfiles);
    add(tools, tr("Model &validation…"),
        tr("The sizing model against published measured training runs: predicted vs measured step time, the "
           "error per run, median and maximum (as ridgeline-cli validate)"),
        &MainWindow::showValidation);
    tools->setToolTipsVisible(true);

    auto* help = menuBar()->addMenu(tr("&Help"));
    add(help, tr("Ridgeline &manual"), tr("The short manual: each task, the windows that do it, where the numbers come from"),
        &MainWindow::showManual)
        ->setObjectName(QStringLiteral("manualAction"));
    add(help, tr("&Keyboard Shortcuts"), tr("List every action that has a keyboard shortcut"),
        &MainWindow::showShortcuts, QKeySequence::HelpContents);
    help->addSeparator();
    add(help, tr("&About Ridgeline"), tr("Version, purpose and the versions of the libraries it uses"),
        &MainWindow::about);
    QAction* aboutQt = help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQt->setToolTip(tr("Qt version and licence"));
    aboutQt->setStatusTip(aboutQt->toolTip());
    help->setToolTipsVisible(true);

    m_start->addTask(import, tr("Import results…"), QStringLiteral("startImport"));
    m_start->addTask(benchmark, tr("Run a benchmark…"), QStringLiteral("startBenchmark"));
    m_start->addTask(sizing, tr("Size a model…"), QStringLiteral("startSizing"));

    updateRecentMenu(m_settings->recentWorkspaces());
    connect(m_settings, &Settings::recentWorkspacesChanged, this, &MainWindow::updateRecentMenu);
}

void MainWindow::createEditMenu()
{
    auto* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_undo->createUndoAction(this, tr("&Undo"));
    undo->setObjectName(QStringLiteral("undoAction"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setStatusTip(tr("Undo the last rename or delete of sessions"));
    undo->setToolTip(undo->statusTip());
    QAction* redo = m_undo->createRedoAction(this, tr("&Redo"));
    redo->setObjectName(QStringLiteral("redoAction"));
    redo->setShortcut(QKeySequence::Redo);
    redo->setStatusTip(tr("Do again what Undo took back"));
    redo->setToolTip(redo->statusTip());
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(m_sessionActions->copyCsv());
    edit->addAction(m_sessionActions->copyJson());
    edit->addSeparator();
    edit->addAction(m_sessionActions->rename());
    edit->addAction(m_sessionActions->duplicate());
    edit->addAction(m_sessionActions->remove());
    edit->addSeparator();
    QAction* find = edit->addAction(tr("&Find Session"));
    find->setObjectName(QStringLiteral("findAction"));
    find->setShortcut(QKeySequence::Find);
    find->setStatusTip(tr("Filter the session list by title, tool, host or op"));
    find->setToolTip(find->statusTip());
    connect(find, &QAction::triggered, this, [this] {
        if (auto* dock = findChild<QDockWidget*>(QStringLiteral("sessionsDock")))
            dock->show();
        m_browser->focusSearch();
    });
    edit->addSeparator();
    QAction* preferences = edit->addAction(tr("&Preferences…"));
    preferences->setObjectName(QStringLiteral("preferencesAction"));
    preferences->setShortcut(QKeySequence(tr("Ctrl+,")));
    preferences->setMenuRole(QAction::PreferencesRole);
    preferences->setStatusTip(tr("Default launcher and MPI, GPU tool folders, bandwidth unit, chart export size, "
                                 "theme"));
    preferences->setToolTip(preferences->statusTip());
    connect(preferences, &QAction::triggered, this, &MainWindow::showPreferences);
    edit->setToolTipsVisible(true);
}

void MainWindow::showPreferences()
{
    auto* dialog = new PreferencesDialog(m_settings, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &PreferencesDialog::applied, this,
            [this] { statusBar()->showMessage(tr("Preferences saved"), 5000); });
    dialog->open();
}

void MainWindow::openSampleData()
{
    const QString samples = sampleDataDir();
    if (samples.isEmpty()) {
        statusBar()->showMessage(tr("The sample data was not found next to the program"), 8000);
        return;
    }
    StartupOptions options;
    options.workspace = QDir(QString::fromStdString(io::userDataDir())).filePath(QStringLiteral("samples.db"));
    const bool fresh = !QFileInfo::exists(options.workspace);
    QDir().mkpath(QFileInfo(options.workspace).absolutePath());
    startWindow(*this, options, fresh ? QStringList{samples} : QStringList{});
}

void MainWindow::createViewMenu()
{
    auto* view = menuBar()->addMenu(tr("&View"));
    for (auto* dock : findChildren<QDockWidget*>()) {
        QAction* toggle = dock->toggleViewAction();
        toggle->setStatusTip(tr("Show or hide the %1 panel").arg(dock->windowTitle()));
        toggle->setToolTip(toggle->statusTip());
        view->addAction(toggle);
    }
    view->addSeparator();
    QAction* reset = view->addAction(tr("&Reset Layout"));
    reset->setObjectName(QStringLiteral("resetLayoutAction"));
    reset->setStatusTip(tr("Put the Sessions and Details panels back where they started, both shown"));
    reset->setToolTip(reset->statusTip());
    connect(reset, &QAction::triggered, this, [this] {
        restoreState(m_defaultLayout, Settings::kWindowStateVersion);
        for (auto* dock : findChildren<QDockWidget*>())
            dock->show();
    });
    view->setToolTipsVisible(true);
}

void MainWindow::showManual()
{
    // One manual window: asked again, the open one comes to the front.
    auto* dialog = findChild<ManualDialog*>();
    if (!dialog) {
        dialog = new ManualDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
    }
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

void MainWindow::showShortcuts()
{
    auto* dialog = new ShortcutsDialog(shortcutEntries(menuBar()), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void MainWindow::updateRecentMenu(const QStringList& recent)
{
    m_recentMenu->clear();
    for (const auto& path : recent) {
        QAction* a = m_recentMenu->addAction(path);
        a->setToolTip(tr("Open %1").arg(path));
        connect(a, &QAction::triggered, this, [this, path] { openWorkspace(path); });
    }
    m_recentMenu->addSeparator();
    QAction* clear = m_recentMenu->addAction(tr("&Clear list"));
    clear->setToolTip(tr("Forget the recent workspaces (the files stay)"));
    clear->setEnabled(!recent.isEmpty());
    connect(clear, &QAction::triggered, m_settings, &Settings::clearRecentWorkspaces);
}

void MainWindow::newWorkspace()
{
    QString f = filedialogs::saveFile(this, m_settings, filedialogs::Purpose::Workspace, tr("New workspace"), {},
                                      tr("Ridgeline workspace (*.db)"), nullptr, QFileInfo(workspacePath()).absolutePath());
    if (f.isEmpty())
        return;
    if (QFileInfo(f).suffix().isEmpty())
        f += QStringLiteral(".db");
    openWorkspace(f); // the reader job creates the file
}

void MainWindow::chooseWorkspace()
{
    const QString f = filedialogs::openFile(this, m_settings, filedialogs::Purpose::Workspace, tr("Open workspace"),
                                            tr("Ridgeline workspace (*.db);;All files (*)"),
                                            QFileInfo(workspacePath()).absolutePath());
    if (!f.isEmpty())
        openWorkspace(f);
}

void MainWindow::chooseImport()
{
    const QStringList files = filedialogs::openFiles(this, m_settings, filedialogs::Purpose::Import, tr("Import"),
                                                     tr("Benchmark output (*.txt *.log *.out *.json *.jsonl "
                                                        "*.csv *.gz);;All files (*)"));
    if (files.isEmpty())
        return;
    importPaths(files);
}

void MainWindow::chooseMappedImport()
{
    const QString f = filedialogs::openFile(this, m_settings, filedialogs::Purpose::Import,
                                            tr("Import training log with column mapping"),
                                            tr("Metrics tables (*.csv *.tsv *.jsonl *.json *.gz);;All files (*)"));
    if (f.isEmpty())
        return;
    ColumnMappingDialog dialog(f, this);
    if (dialog.exec() == QDialog::Accepted)
        importWithColumnMapping(f, dialog.mapping());
}

bool MainWindow::refuseWhileRunning()
{
    if (!m_run->isRunning())
        return false;
    QMessageBox::information(this, tr("Benchmark"), tr("A benchmark is already running."));
    return true;
}

void MainWindow::newBenchmark()
{
    if (refuseWhileRunning())
        return;
    BenchmarkDialog dialog(RunController::findCli(), workspacePath(), m_settings, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const BenchmarkConfig c = dialog.config();
    startRun(RunController::findCli(), c.cliArguments(workspacePath()), c.expectedPoints());
}

void MainWindow::newKernelBenchmark()
{
    if (refuseWhileRunning())
        return;
    KernelBenchmarkDialog dialog(RunController::findCli(), workspacePath(), m_settings, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    startKernelBenchmark(dialog.cliArguments());
}

void MainWindow::newStorageBenchmark()
{
    if (refuseWhileRunning())
        return;
    StorageBenchmarkDialog dialog(RunController::findCli(), workspacePath(), this);
    if (dialog.exec() != QDialog::Accepted || dialog.cliArguments().isEmpty())
        return;
    // The runner tells how many points it will measure; until then the bar is indeterminate.
    startRun(RunController::findCli(), dialog.cliArguments(), 0);
}

void MainWindow::startKernelBenchmark(const QStringList& cliArguments, const QString& cli)
{
    // The runner tells how many points it will measure; until then the bar is indeterminate.
    startRun(cli.isEmpty() ? RunController::findCli() : cli, cliArguments, 0);
}

void MainWindow::newProbeRun() { probeRun(std::nullopt); }

void MainWindow::probeRun(const std::optional<LaunchSettings>& launch)
{
    if (refuseWhileRunning())
        return;
    ProbeDialog dialog(RunController::findCli(), workspacePath(), m_settings, this);
    if (launch)
        dialog.setLaunch(*launch);
    if (dialog.exec() != QDialog::Accepted)
        return;
    startRun(RunController::findCli(), dialog.cliArguments(), dialog.request().expectedPoints());
}

void MainWindow::newGpuToolBenchmark()
{
    if (refuseWhileRunning())
        return;
    GpuToolDialog dialog(RunController::findCli(), workspacePath(), m_settings, this);
    const int result = dialog.exec();
    if (result == GpuToolDialog::ProbeRequested) { // the probe, launched as chosen there
        probeRun(dialog.config().launch);
        return;
    }
    if (result != QDialog::Accepted)
        return;
    const GpuToolConfig c = dialog.config();
    startRun(RunController::findCli(), c.cliArguments(workspacePath()), c.expectedPoints());
}

void MainWindow::startRun(const QString& program, const QStringList& arguments, int expectedPoints)
{
    m_runIds.clear();
    showProgress(tr("Benchmark starting…"), -1);
    m_run->start(program, arguments, expectedPoints);
}

void MainWindow::exportChart()
{
    // The chart's own Export: one dialog, format rule and size (from the settings) for both.
    if (auto* frame = frontChartFrame())
        frame->exportWithDialog();
    else
        m_charts->exportedChart()->exportWithDialog();
}

charts::ChartFrame* MainWindow::frontChartFrame() const
{
    if (m_views->currentWidget() == m_charts)
        return nullptr;
    for (auto* frame : m_views->currentWidget()->findChildren<charts::ChartFrame*>())
        if (frame->isVisible())
            return frame;
    return nullptr;
}

void MainWindow::exportCsv()
{
    // Kernel, trace, pairs and storage views: the chart in front writes its own rows. Either
    // way the chart's "Export data" dialog: always CSV, whatever suffix the name was given.
    if (auto* frame = frontChartFrame()) {
        frame->exportDataWithDialog();
        return;
    }
    if (m_charts->data().empty()) {
        QMessageBox::information(this, tr("Export data"), tr("Select the sessions to export first."));
        return;
    }
    const QString f = m_charts->dataChart()->exportDataWithDialog(m_charts->dataFileName());
    if (!f.isEmpty())
        statusBar()->showMessage(tr("%1 points saved to %2").arg(m_charts->pointCount()).arg(f), 5000);
}

void MainWindow::chooseReport()
{
    const auto ids = m_browser->selectedIds();
    if (ids.empty()) {
        QMessageBox::information(this, tr("Report"), tr("Select the sessions to report first."));
        return;
    }
    if (m_reportJob->isRunning()) {
        statusBar()->showMessage(tr("A report is being written; wait for it first"), 5000);
        return;
    }
    // The template rides on the filter: no extra dialog for the one choice there is.
    const QString html = tr("HTML, charts inline (*.html)"), pdf = tr("PDF (*.pdf)");
    const QString clusterHtml = tr("HTML, cluster template: collectives by tier, kernels and roofline (*.html)");
    const QString clusterPdf = tr("PDF, cluster template: collectives by tier, kernels and roofline (*.pdf)");
    QString filter = html;
    QString f = filedialogs::saveFile(this, m_settings, filedialogs::Purpose::Export, tr("Report"),
                                      filedialogs::exportFileName(QStringLiteral("report"), ids, QStringLiteral("html")),
                                      QStringList{html, pdf, clusterHtml, clusterPdf}.join(QStringLiteral(";;")), &filter);
    if (f.isEmpty())
        return;
    if (!charts::isReportPath(f))
        f += filter == pdf || filter == clusterPdf ? QStringLiteral(".pdf") : QStringLiteral(".html");
    const bool cluster = filter == clusterHtml || filter == clusterPdf;
    report::SizingChoice sizing;
    if (cluster) { // its device and model: asked only for the template that shows them
        ReportOptionsDialog options(m_settings, workspacePath(), this);
        if (options.exec() != QDialog::Accepted)
            return;
        sizing = options.choice();
    }
    writeReport(ids, f, cluster, sizing);
}

namespace {
struct ReportRead
{
    report::Report report;
    std::vector<charts::ReportChartData> charts;
    std::optional<HardwareProfile> hardware;      // the ceilings the charts draw
    std::optional<charts::GemmScatter> predicted; // the sized model's GEMMs on the roofline
    QString error;
};
} // namespace

void MainWindow::writeReport(const std::vector<std::int64_t>& ids, const QString& path, bool cluster,
                             const report::SizingChoice& sizing)
{
    const std::string db = workspacePath().toStdString();
    statusBar()->showMessage(tr("Writing report %1…").arg(path)); // short: no progress bar, nothing to cancel
    auto failed = [this](const QString& error) {
        statusBar()->showMessage(tr("Report not written: %1").arg(error), 10000);
        // Window-modal without a nested event loop: an unknown model or a bad layout is read in full.
        if (!qEnvironmentVariableIsSet("RIDGELINE_NO_DIALOGS")) {
            auto* box = new QMessageBox(QMessageBox::Warning, tr("Report"), tr("Report not written: %1").arg(error),
                                        QMessageBox::Ok, this);
            box->setTextFormat(Qt::PlainText); // the error quotes the path and the model
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
        emit reportFailed(error);
    };
    // 1. worker: the sessions, the summary and the charts' points (its own workspace connection).
    m_reportJob->start<ReportRead>(
        [db, ids, cluster, sizing](JobControl<ReportRead>&) {
            ReportRead out;
            try {
                store::Workspace ws(db);
                report::Options options;
                options.layout = cluster ? report::Template::Cluster : report::Template::Sessions;
                out.predicted = report::applySizing(ws, ids, sizing, options);
                out.hardware = options.hardware;
                out.report = report::buildReport(ws, ids, options);
                out.charts = charts::loadReportCharts(ws, out.report);
            } catch (const std::exception& e) {
                out.error = QString::fromStdString(e.what());
            }
            return out;
        },
        [this, path, failed](ReportRead read) {
            if (!read.error.isEmpty())
                return failed(read.error);
            // 2. here: the charts, drawn by their export code (QtCharts lives on this thread).
            QStringList problems;
            auto svgs = charts::renderReportCharts(read.charts, read.hardware, &problems, read.predicted);
            // 3. worker: the HTML, or the PDF laid out and rasterised.
            m_reportJob->start<QString>(
                [r = std::move(read.report), svgs = std::move(svgs), path](JobControl<QString>&) {
                    QString error;
                    return charts::writeReport(r, svgs, path, &error) ? QString() : error;
                },
                [this, path, failed, problems](const QString& error) {
                    if (!error.isEmpty())
                        return failed(error);
                    statusBar()->showMessage(problems.isEmpty() ? tr("Report written to %1").arg(path)
                                                                : tr("Report written to %1 (%2 chart(s) left out: %3)")
                                                                      .arg(path).arg(problems.size()).arg(problems.first()),
                                             10000);
                    emit reportWritten(path);
                });
        });
}

void MainWindow::about()
{
    auto* dialog = new AboutDialog(workspacePath(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void MainWindow::showMoeExplorer()
{
    // One explorer per window, kept when closed so its last sweep is still there when reopened.
    if (!m_moeExplorer) {
        m_moeExplorer = new MoeExplorer(this);
        m_moeExplorer->chart()->setSettings(m_settings);
        makeToolWindow(m_moeExplorer, tr("MoE explorer — Ridgeline"), {1400, 900});
        connect(m_moeExplorer, &MoeExplorer::configChosen, this,
                [this](const model::ModelConfig& c, const model::ParallelConfig& recipe, const QString& parallel,
                       const QString& hardware, const QString& attention) {
                    showSizing();
                    m_sizing->editorA()->loadSized(c, recipe, parallel, hardware, attention);
                });
    }
    m_moeExplorer->setWorkspace(m_workspace->path()); // its measured sessions for the calibration
    m_moeExplorer->show();
    m_moeExplorer->raise();
    m_moeExplorer->activateWindow();
}

void MainWindow::showPlan()
{
    // One Plan window per main window, kept when closed so its last search is still there.
    if (!m_plan) {
        m_plan = new PlanWindow(this);
        m_plan->chart()->setSettings(m_settings);
        makeToolWindow(m_plan, tr("Plan a run — Ridgeline"), {1500, 1000});
        connect(m_plan, &PlanWindow::configChosen, this,
                [this](const model::ModelConfig& c, const model::ParallelConfig& recipe, const QString& parallel,
                       const QString& hardware, const QString& attention) {
                    showSizing();
                    m_sizing->editorA()->loadSized(c, recipe, parallel, hardware, attention);
                });
    }
    m_plan->setWorkspace(m_workspace->path()); // saved configurations and measured sessions
    m_plan->show();
    m_plan->raise();
    m_plan->activateWindow();
}

void MainWindow::showSizing()
{
    if (!m_sizing) {
        m_sizing = new SizingWindow(this);
        makeToolWindow(m_sizing, tr("Sizing model — Ridgeline"), {1500, 850});
    }
    m_sizing->editorA()->setWorkspace(m_workspace->path()); // saved configurations of this workspace
    m_sizing->editorB()->setWorkspace(m_workspace->path());
    m_sizing->show();
    m_sizing->raise();
    m_sizing->activateWindow();
}

void MainWindow::showResilience()
{
    // One view per window, kept when closed so its inputs are still there when reopened.
    if (!m_resilience) {
        m_resilience = new ResilienceView(this);
        m_resilience->setSettings(m_settings);
        makeToolWindow(m_resilience, tr("Resilience — Ridgeline"), {1500, 900});
    }
    m_resilience->setWorkspace(m_workspace->path()); // its storage and training-log sessions, saved configs
    m_resilience->show();
    m_resilience->raise();
    m_resilience->activateWindow();
}

void MainWindow::showValidation()
{
    if (!m_validation) {
        m_validation = new ValidationView(this);
        m_validation->setSettings(m_settings);
        makeToolWindow(m_validation, tr("Model validation — Ridgeline"), {1200, 900});
        m_validation->run(); // closed-form over a few dozen runs: the results are there in a moment
    }
    m_validation->show();
    m_validation->raise();
    m_validation->activateWindow();
}

void MainWindow::showProfiles()
{
    if (!m_profiles) {
        m_profiles = new ProfileEditor(this);
        makeToolWindow(m_profiles, tr("Hardware profiles — Ridgeline"), {1000, 700});
    }
    m_profiles->show();
    m_profiles->raise();
    m_profiles->activateWindow();
}
} // namespace rl
