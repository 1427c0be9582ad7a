#include "gui/window/mainwindow.h"
#include "gui/resilience/resilienceview.h"
#include "jobtracker.h"

#include <algorithm>

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QStackedWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>
#include <QUndoStack>

#include <utility>

#include "gui/runs/benchmarkdialog.h"
#include "gui/window/chartarea.h"
#include "gui/window/toolwindow.h"
#include "chartframe.h"
#include "detailspanel.h"
#include "textconv.h"
#include "gui/window/importcontroller.h"
#include "gui/settings/appearance.h"
#include "gui/runs/runcontroller.h"
#include "gui/window/startpage.h"
#include "gui/window/startup.h"
#include "gui/window/sessionactions.h"
#include "gui/window/sessionbrowser.h"
#include "gui/runs/kernelview.h"
#include "gui/runs/pairsview.h"
#include "gui/runs/copybandwidthview.h"
#include "gui/runs/stepview.h"
#include "gui/runs/storageview.h"
#include "gui/traces/traceview.h"
#include "settings.h"
#include "gui/window/workspacecontroller.h"

namespace rl {

MainWindow::MainWindow(Settings* settings, QWidget* parent)
    : QMainWindow(parent), m_settings(settings), m_workspace(new WorkspaceController(this)),
      m_import(new ImportController(this)), m_run(new RunController(this)), m_undo(new QUndoStack(this)),
      m_reportJob(new JobTracker(this)), m_browser(new SessionBrowser),
      m_charts(new ChartArea), m_details(new DetailsPanel), m_pathLabel(new QLabel), m_progressLabel(new QLabel),
      m_progress(new QProgressBar), m_cancel(new QToolButton)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Ridgeline"));
    setAcceptDrops(true);
    // One view per kind of session: collective charts, or trace and training-log views.
    m_views = new QStackedWidget;
    m_start = new StartPage(m_settings, sampleDataDir());
    m_views->addWidget(m_start);
    m_views->addWidget(m_charts);
    m_traces = new TraceView;
    m_views->addWidget(m_traces);
    m_kernels = new KernelView;
    m_views->addWidget(m_kernels);
    m_pairs = new PairsView;
    m_views->addWidget(m_pairs);
    m_storage = new StorageView;
    m_views->addWidget(m_storage);
    m_steps = new StepView;
    m_views->addWidget(m_steps);
    // A step session's profiler trace is a session of its own: the button selects it.
    connect(m_steps, &StepView::traceRequested, this,
            [this](std::int64_t id) { m_browser->selectSessions({id}); });
    m_copyMatrices = new CopyBandwidthView;
    m_views->addWidget(m_copyMatrices);
    setCentralWidget(m_views);
    connect(m_start, &StartPage::openWorkspaceRequested, this, &MainWindow::openWorkspace);
    connect(m_start, &StartPage::sampleDataRequested, this, &MainWindow::openSampleData);
    followDisplaySettings(m_settings);
    // Figures formatted before the unit changed are formatted again: reload what is shown.
    connect(m_settings, &Settings::bandwidthUnitChanged, this, [this] { onSelection(m_shownIds); });
    // Every chart's Export (and File > Export chart) starts in the last export folder and writes
    // at the export size of the settings.
    for (auto* frame : findChildren<charts::ChartFrame*>()) {
        frame->setSettings(m_settings);
        connect(frame, &charts::ChartFrame::chartExported, this,
                [this](const QString& path) { statusBar()->showMessage(tr("Chart saved to %1").arg(path), 5000); });
    }

    auto* sessionsDock = new QDockWidget(tr("Sessions"), this);
    sessionsDock->setObjectName(QStringLiteral("sessionsDock"));
    sessionsDock->setWidget(m_browser);
    // A long unbreakable title in the details (a trace's file name) must not squeeze the list away.
    sessionsDock->setMinimumWidth(220);
    addDockWidget(Qt::LeftDockWidgetArea, sessionsDock);
    auto* detailsDock = new QDockWidget(tr("Details"), this);
    detailsDock->setObjectName(QStringLiteral("detailsDock"));
    detailsDock->setWidget(m_details);
    // Wide enough for "2 sessions selected (overlaid in the charts)" and a parameter table;
    // resizeDocks below is only a wish before the window is first shown.
    detailsDock->setMinimumWidth(210);
    addDockWidget(Qt::RightDockWidgetArea, detailsDock);
    // The chart gets most of the width: its legend names session, op and fit.
    resizeDocks({sessionsDock, detailsDock}, {340, 250}, Qt::Horizontal);
    m_defaultLayout = saveState(Settings::kWindowStateVersion);
    m_sessionActions = new SessionActions(m_browser, m_workspace, m_undo, this);
    connect(m_sessionActions, &SessionActions::message, this,
            [this](const QString& text) { statusBar()->showMessage(text, 8000); });
    connect(m_sessionActions, &SessionActions::failed, this, [this](const QString& text) {
        QMessageBox::warning(this, tr("Sessions"), plainInAutoText(text));
    });
    connect(m_sessionActions, &SessionActions::sessionsChanged, this, [this](const std::vector<std::int64_t>& ids) {
        if (!ids.empty())
            m_selectOnReload = ids;
        m_workspace->reloadSessions();
    });

    m_pathLabel->setObjectName(QStringLiteral("workspacePath"));
    m_pathLabel->setToolTip(tr("The open workspace file"));
    m_progress->setObjectName(QStringLiteral("jobProgress"));
    m_progress->setToolTip(tr("Progress of the running import or benchmark"));
    m_progress->setMaximumWidth(220);
    m_cancel->setObjectName(QStringLiteral("cancelJob"));
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop the running import or benchmark, or the reading of a long selection's points; "
                            "what is stored stays stored (Esc)"));
    m_cancel->setShortcut(QKeySequence::Cancel); // active only while the button shows: a job runs
    statusBar()->addPermanentWidget(m_progressLabel);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    statusBar()->addPermanentWidget(m_pathLabel);
    hideProgress();

    createMenus();

    connect(m_workspace, &WorkspaceController::sessionsAvailable, this, [this](const std::vector<Session>& s) {
        // The new selection goes in with the list: selecting it after the old one was restored
        // would show the old sessions (or the start page) for a moment and load them for nothing.
        m_browser->setSessions(s, std::exchange(m_selectOnReload, std::nullopt));
        // Only now: the file exists and is migrated, so the trace view's own readers cannot race
        // the first open (saved configs are re-read, so ones saved since show up).
        m_traces->setWorkspace(m_workspace->path());
        m_traces->setSessions(s);
        if (m_resilience) // storage and training-log sessions imported since it opened
            m_resilience->setWorkspace(m_workspace->path());
        if (m_selectFirst > 0) {
            m_browser->selectFirst(std::exchange(m_selectFirst, 0));
        }
        emit sessionsShown(static_cast<int>(s.size()));
    });
    connect(m_workspace, &WorkspaceController::readOnlyChanged, this, &MainWindow::updateWindowTitle);
    connect(m_workspace, &WorkspaceController::curvesAvailable, this,
            [this](const std::shared_ptr<ChartArea::Loaded>& curves) {
                m_charts->setLoaded(std::move(*curves));
                emit chartsShown(static_cast<int>(m_charts->data().size()));
                if (m_charts->holdsEveryPoint()) {
                    if (std::exchange(m_readingEveryPoint, false)) {
                        hideLoadProgress();
                        statusBar()->showMessage(tr("%L1 points read").arg(m_charts->pointCount()), 3000);
                    }
                    emit everyPointShown(m_charts->pointCount());
                    return;
                }
                // Drawn from a long session's outline: every point next, for the table and the
                // views that need them, at the widths the charts are laid out at after this turn
                // (a request of the first load's widths was drawn again here, 190 ms for 3.4 M
                // points). A selection made meanwhile has started a load of its own.
                QTimer::singleShot(0, this, [this, loads = m_workspace->curvesLoads()] {
                    if (m_workspace->curvesLoads() == loads)
                        readEveryPoint();
                });
            });
    // The read of every point after an outline: progress and Cancel in the status bar, unless an
    // import or a benchmark holds them.
    connect(m_workspace, &WorkspaceController::curvesProgress, this, [this](int permille, const QString& step) {
        if (m_readingEveryPoint && !m_import->isRunning() && !m_run->isRunning()) {
            statusBar()->clearMessage(); // the bar's label says it
            showProgress(step, permille);
        }
    });
    connect(m_charts, &ChartArea::pointsWanted, this, &MainWindow::readEveryPoint);
    connect(m_workspace, &WorkspaceController::curvesCanceled, this, [this] {
        if (!std::exchange(m_readingEveryPoint, false))
            return;
        hideLoadProgress();
        m_charts->markPointsUnread();
        statusBar()->showMessage(tr("Reading the points was cancelled: the charts stay drawn from the sessions' "
                                    "outlines; open the Results table to read them"),
                                 10000);
    });
    connect(m_workspace, &WorkspaceController::traceChartsAvailable, this,
            [this](const std::vector<charts::TraceChartData>& sessions) {
                m_traces->setData(sessions);
                emit chartsShown(static_cast<int>(sessions.size()));
            });
    connect(m_workspace, &WorkspaceController::kernelChartsAvailable, this,
            [this](const charts::KernelChartData& data) {
                m_kernels->setData(data);
                emit chartsShown(static_cast<int>(data.sessions.size()));
            });
    connect(m_workspace, &WorkspaceController::pairsAvailable, this, [this](const views::PairsSessionData& data) {
        m_pairs->setData(data, std::max(0, int(m_shownIds.size()) - 1));
        emit chartsShown(1);
    });
    connect(m_workspace, &WorkspaceController::storageAvailable, this,
            [this](const std::vector<storage::StorageSessionData>& sessions) {
                m_storage->setData(sessions);
                emit chartsShown(static_cast<int>(sessions.size()));
            });
    connect(m_workspace, &WorkspaceController::operationFailed, this,
            [this](const QString& message) {
                // Window-modal but not a nested event loop: the reply of a background job must
                // never stop the GUI (or a test) waiting on a box nobody sees.
                auto* box = new QMessageBox(QMessageBox::Warning, tr("Workspace"), message, QMessageBox::Ok, this);
                box->setObjectName(QStringLiteral("workspaceError"));
                box->setAttribute(Qt::WA_DeleteOnClose);
                box->open();
                statusBar()->showMessage(message, 10000);
            });
    connect(m_workspace, &WorkspaceController::notesSaved, m_details, &DetailsPanel::markNotesSaved);
    connect(m_workspace, &WorkspaceController::notesSaved, this, [this] {
        statusBar()->showMessage(tr("Notes saved"), 3000);
        m_workspace->reloadSessions();
    });
    connect(m_details, &DetailsPanel::notesSaveRequested, m_workspace, &WorkspaceController::saveNotes);
    connect(m_browser, &SessionBrowser::selectionChanged, this, &MainWindow::onSelection);

    connect(m_import, &ImportController::progressChanged, this,
            [this](int permille, const QString& file) { showProgress(tr("Importing %1").arg(file), permille); });
    connect(m_import, &ImportController::importFinished, this, &MainWindow::onImportFinished);
    connect(m_import, &ImportController::importCanceled, this, [this] {
        hideProgress();
        statusBar()->showMessage(tr("Import cancelled; files imported before stay in the workspace"), 5000);
        m_workspace->reloadSessions();
    });

    connect(m_run, &RunController::runStarted, this, [this](std::int64_t id) {
        m_selectFirst = 0;
        // nccl-tests over several ops stores one session per op: the run's sessions stay selected
        // together, so the charts overlay the ops as they come.
        m_runIds.push_back(id);
        m_selectOnReload = m_runIds;
        m_workspace->reloadSessions();
    });
    connect(m_run, &RunController::pointAvailable, m_charts, &ChartArea::appendPoint);
    // Kernel, storage and pairs points are few but their charts are recomputed from the store: at
    // most ~3 reloads a second while a run streams, and one after each burst.
    const auto reloadSoon = [this](std::int64_t id) {
        if (m_reloadPending || std::find(m_shownIds.begin(), m_shownIds.end(), id) == m_shownIds.end())
            return;
        m_reloadPending = true;
        QTimer::singleShot(300, this, [this] {
            m_reloadPending = false;
            reloadStoredView();
        });
    };
    connect(m_run, &RunController::kernelRecordAvailable, this, reloadSoon);
    connect(m_run, &RunController::storedPointAvailable, this, reloadSoon);
    connect(m_run, &RunController::keptRecordAvailable, this, reloadSoon);
    connect(m_run, &RunController::progressChanged, this, [this](int done, int expected) {
        showProgress(tr("Benchmark: %1 of %2 points").arg(done).arg(expected),
                     expected > 0 ? int(qint64(done) * 1000 / expected) : -1);
    });
    connect(m_run, &RunController::runFinished, this, [this](std::int64_t, const QString& status, const QString& msg) {
        hideProgress();
        reloadStoredView(); // the last points (and a kernel run's ceilings)
        statusBar()->showMessage(msg.isEmpty() ? tr("Benchmark %1").arg(status)
                                               : tr("Benchmark %1: %2").arg(status, msg), 10000);
        m_workspace->reloadSessions();
    });
    connect(m_run, &RunController::runFailed, this, [this](const QString& message) {
        hideProgress();
        statusBar()->showMessage(tr("Benchmark failed: %1").arg(message), 10000);
        QMessageBox::warning(this, tr("Benchmark"), plainInAutoText(message));
        m_workspace->reloadSessions();
    });
    connect(m_cancel, &QToolButton::clicked, this, [this] {
        if (m_import->isRunning())
            m_import->cancel();
        if (m_run->isRunning())
            m_run->cancel();
        else if (!m_import->isRunning() && m_readingEveryPoint)
            m_workspace->cancelCurves();
    });

    if (!restoreGeometry(m_settings->windowGeometry())) {
        // First start: 1400x850, or what the screen has room for with its frame (a 1280x720
        // projector or laptop showed the window 120 px past the screen's right and bottom edges).
        resize(sizeOnScreen({1400, 850}, this));
    }
    restoreState(m_settings->windowState(), Settings::kWindowStateVersion);
}

MainWindow::~MainWindow() = default;

QString MainWindow::workspacePath() const { return m_workspace->path(); }

void MainWindow::openWorkspace(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    m_undo->clear(); // its deleted sessions belong to the file being closed
    m_selectOnReload.reset();
    // The sessions selected when this workspace was last shown come back (with the list, so the
    // newest-first default of a first start does not run).
    if (auto remembered = m_settings->lastSelection(absolute)) {
        m_selectOnReload = std::move(*remembered);
        m_selectFirst = 0;
    }
    m_charts->setData({});
    m_details->setSession(std::nullopt);
    m_import->setWorkspacePath(absolute);
    m_workspace->open(absolute);
    m_settings->addRecentWorkspace(absolute);
    m_settings->setLastWorkspace(absolute);
    m_pathLabel->setText(absolute);
    updateWindowTitle();
}

void MainWindow::updateWindowTitle()
{
    const QString name = QFileInfo(m_workspace->path()).fileName();
    setWindowTitle(m_workspace->readOnly() ? tr("%1 (read-only) — Ridgeline").arg(name)
                                           : tr("%1 — Ridgeline").arg(name));
}

void MainWindow::selectFirstOnLoad(int count) { m_selectFirst = count; }

bool MainWindow::remembersSelection(const QString& workspace) const
{
    return m_settings->lastSelection(workspace).has_value();
}

void MainWindow::importPaths(const QStringList& paths)
{
    if (paths.isEmpty())
        return;
    if (m_import->isRunning()) {
        statusBar()->showMessage(tr("An import is running; wait for it or cancel it first"), 5000);
        return;
    }
    showProgress(tr("Importing…"), -1);
    m_import->start(paths);
}

void MainWindow::importWithColumnMapping(const QString& path, const trace::ColumnMapping& mapping)
{
    if (m_import->isRunning()) {
        statusBar()->showMessage(tr("An import is running; wait for it or cancel it first"), 5000);
        return;
    }
    showProgress(tr("Importing…"), -1);
    m_import->startWithColumns(path, mapping);
}

void MainWindow::onSelection(const std::vector<std::int64_t>& ids)
{
    if (std::exchange(m_readingEveryPoint, false)) {
        hideLoadProgress();
        statusBar()->clearMessage(); // the points of the selection before are read no more
    }
    if (ids.size() == 1)
        m_details->setSession(m_browser->session(ids.front()));
    else if (ids.empty())
        m_details->setSession(std::nullopt);
    m_shownIds = ids;
    m_settings->setLastSelection(m_workspace->path(), ids);
    if (ids.empty()) {
        m_charts->setData({}); // Export data has nothing to write either
        m_views->setCurrentWidget(m_start);
        return;
    }
    // Each kind has its view: collective sweeps the curves; traces and training logs the trace view;
    // kernel benchmarks (the probe's attention rates among them) the kernel view, where traces
    // selected with them add their kernels to the roofline; a pairs matrix its heatmap (the first of
    // a selection); storage sessions their bandwidth charts; the probe's steps their timed steps;
    // nvbandwidth's copy matrices their tables. A selection of several views shows the collective
    // curves when it has a collective session, else the first session's view with the sessions that
    // view shows, and the status bar says how many it left out.
    enum class View { Curves, Traces, Kernels, Pairs, Storage, Steps, CopyMatrices };
    const auto viewOf = [](const Session& s) {
        if (s.kind == kind::Trace || s.kind == kind::TrainingLog)
            return View::Traces;
        if (s.kind == kind::Gemm || s.kind == kind::MemBandwidth || s.kind == kind::PeakFlops || s.kind == kind::Attention)
            return View::Kernels;
        if (s.kind == kind::Pairs)
            return View::Pairs;
        if (s.kind == kind::Storage)
            return View::Storage;
        if (s.kind == kind::Step)
            return View::Steps;
        if (s.kind == kind::CopyBandwidth)
            return View::CopyMatrices;
        return View::Curves;
    };
    std::vector<Session> selected;
    for (auto id : ids)
        if (const auto s = m_browser->session(id))
            selected.push_back(*s);
    const bool anyCurves = std::any_of(selected.begin(), selected.end(),
                                       [&](const Session& s) { return viewOf(s) == View::Curves; });
    const bool anyKernel = std::any_of(selected.begin(), selected.end(),
                                       [&](const Session& s) { return viewOf(s) == View::Kernels; });
    // Traces join a kernel selection (their kernels on the roofline).
    const auto shownIn = [&](View view, const Session& s) {
        return viewOf(s) == view || (view == View::Kernels && viewOf(s) == View::Traces);
    };
    View view = View::Curves;
    if (!anyCurves && !selected.empty())
        view = anyKernel ? View::Kernels : viewOf(selected.front());
    std::vector<std::int64_t> shown;
    std::vector<Session> shownSessions;
    for (const auto& s : selected)
        if (shownIn(view, s) && !(view == View::Pairs && !shown.empty())) { // one pairs matrix at a time
            shown.push_back(s.id);
            shownSessions.push_back(s);
        }
    // The Details dock and the status bar say how many the view shows: "overlaid in the charts" for a
    // selection the view left sessions out of was untrue.
    if (ids.size() > 1)
        m_details->setMultipleSelected(static_cast<int>(ids.size()), static_cast<int>(shown.size()));
    if (shown.size() < ids.size())
        statusBar()->showMessage(tr("Showing %1 of the %2 selected sessions; the others have views of their own: "
                                    "select them alone")
                                     .arg(shown.size())
                                     .arg(ids.size()),
                                 10000);
    switch (view) {
    case View::Steps: // what they show is in their params: nothing to read
        m_views->setCurrentWidget(m_steps);
        m_steps->setSessions(shownSessions);
        emit chartsShown(static_cast<int>(shownSessions.size()));
        return;
    case View::CopyMatrices:
        m_views->setCurrentWidget(m_copyMatrices);
        m_copyMatrices->setSessions(shownSessions);
        emit chartsShown(static_cast<int>(shownSessions.size()));
        return;
    case View::Pairs:
        m_views->setCurrentWidget(m_pairs);
        m_workspace->loadPairs(shown.front());
        return;
    case View::Storage:
        m_views->setCurrentWidget(m_storage);
        m_workspace->loadStorage(shown);
        return;
    case View::Traces:
        m_views->setCurrentWidget(m_traces);
        m_workspace->loadTraceCharts(shown);
        return;
    case View::Kernels:
        m_views->setCurrentWidget(m_kernels);
        m_workspace->loadKernelCharts(shown);
        return;
    case View::Curves: break;
    }
    m_views->setCurrentWidget(m_charts);
    m_workspace->loadCurves(ids, m_charts->loadRequest());
}

void MainWindow::reloadStoredView()
{
    if (m_views->currentWidget() == m_kernels)
        m_workspace->loadKernelCharts(m_shownIds);
    else if (m_views->currentWidget() == m_storage)
        m_workspace->loadStorage(m_shownIds);
    else if (m_views->currentWidget() == m_pairs && !m_shownIds.empty())
        m_workspace->loadPairs(m_shownIds.front());
    else if (m_views->currentWidget() == m_steps) // their steps are in the session's params
        m_workspace->reloadSessions();
}

void MainWindow::onImportFinished(const ImportReport& report)
{
    hideProgress();
    // The reason goes into the text itself: users did not open "Show Details…" to find it.
    QStringList problems = report.errors + report.warnings;
    for (QString& p : problems) { // "/long/path/file.log:12: message" -> "file.log:12: message"
        const qsizetype where = p.indexOf(QStringLiteral(": "));
        const qsizetype slash = p.lastIndexOf(u'/', where < 0 ? -1 : where);
        if (slash >= 0)
            p.remove(0, slash + 1);
    }
    statusBar()->showMessage(problems.isEmpty() ? report.summary() : report.summary() + QStringLiteral(": ") + problems.first(),
                             10000);
    if (!problems.isEmpty()) {
        constexpr int kShown = 5;
        QString text = report.summary() + QStringLiteral("\n\n") + problems.mid(0, kShown).join(u'\n');
        if (problems.size() > kShown)
            text += QStringLiteral("\n") + tr("… and %1 more (Show Details…)").arg(problems.size() - kShown);
        delete m_importBox; // only the latest import's report stays
        m_importBox = new QMessageBox(QMessageBox::Warning, tr("Import"), text, QMessageBox::Ok, this);
        m_importBox->setObjectName(QStringLiteral("importProblems"));
        m_importBox->setTextFormat(Qt::PlainText);
        m_importBox->setAttribute(Qt::WA_DeleteOnClose);
        m_importBox->setInformativeText(report.errors.isEmpty() ? tr("Some lines were skipped.")
                                                                : tr("Files that failed were not imported; nothing of "
                                                                     "them was stored."));
        m_importBox->setDetailedText((report.errors + report.warnings).join(u'\n'));
        // Window-modal without a nested event loop, like the workspace error box.
        if (!qEnvironmentVariableIsSet("RIDGELINE_NO_DIALOGS"))
            m_importBox->open();
    }
    m_workspace->reloadSessions();
    emit importDone(report);
}

void MainWindow::showProgress(const QString& what, int permille)
{
    m_progressLabel->setText(what);
    m_progress->setRange(0, permille < 0 ? 0 : 1000); // indeterminate until the first real tick
    if (permille >= 0)
        m_progress->setValue(permille);
    for (QWidget* w : {static_cast<QWidget*>(m_progressLabel), static_cast<QWidget*>(m_progress),
                       static_cast<QWidget*>(m_cancel)})
        w->show();
}

void MainWindow::readEveryPoint()
{
    std::vector<std::int64_t> ids;
    for (const auto& s : m_charts->data())
        ids.push_back(s.session.id);
    m_readingEveryPoint = true;
    statusBar()->showMessage(tr("Charts drawn from the long sessions' outlines; reading every point for the results "
                                "table…"));
    m_workspace->loadCurves(ids, m_charts->loadRequest(), charts::PointsRead::Every);
}

void MainWindow::hideLoadProgress()
{
    // The progress widgets belong to an import or a benchmark that started meanwhile.
    if (!m_import->isRunning() && !m_run->isRunning())
        hideProgress();
}

void MainWindow::hideProgress()
{
    for (QWidget* w : {static_cast<QWidget*>(m_progressLabel), static_cast<QWidget*>(m_progress),
                       static_cast<QWidget*>(m_cancel)})
        w->hide();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_run->isCancelling()) {
        // Already cancelled and ending: nothing to ask. The process finishes its own exit (it
        // has stored "cancelled"); killing it with the window could cut a write short.
        m_run->detach();
    } else if (m_run->isRunning()) {
        QMessageBox box(QMessageBox::Question, tr("Benchmark running"),
                        tr("A benchmark is still running. Leave it running in the background (it keeps writing "
                           "to the workspace) or cancel it?"),
                        QMessageBox::NoButton, this);
        auto* leave = box.addButton(tr("Leave running"), QMessageBox::AcceptRole);
        auto* stop = box.addButton(tr("Cancel benchmark"), QMessageBox::DestructiveRole);
        box.addButton(QMessageBox::Cancel);
        box.exec();
        if (box.clickedButton() == leave) {
            m_run->detach();
        } else if (box.clickedButton() == stop) {
            m_run->cancel();
        } else {
            event->ignore();
            return;
        }
    }
    m_import->cancel();
    m_settings->setWindowGeometry(saveGeometry());
    m_settings->setWindowState(saveState(Settings::kWindowStateVersion));
    m_settings->sync();
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile())
            paths << url.toLocalFile();
    importPaths(paths);
    event->acceptProposedAction();
}
} // namespace rl
