#include "gui/traces/traceview.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

#include "gui/traces/collectivesvsbenchmarkpanel.h"
#include "kernelstatmodel.h"
#include "gui/traces/predictedvsmeasuredpanel.h"
#include "stepbreakdownchart.h"
#include "timelinechart.h"
#include "trainlogchart.h"

namespace rl {

TraceView::TraceView(QWidget* parent)
    : QTabWidget(parent), m_steps(new charts::StepBreakdownChart), m_trainLog(new charts::TrainLogChart),
      m_kernels(new charts::KernelStatModel(this)), m_kernelProxy(new charts::KernelStatProxy(this)),
      m_vsMeasured(new PredictedVsMeasuredPanel), m_vsBenchmark(new CollectivesVsBenchmarkPanel),
      m_timeline(new charts::TimelineChart)
{
    m_kernelProxy->setSourceModel(m_kernels);
    m_kernelTable = new QTableView;
    m_kernelTable->setObjectName(QStringLiteral("kernelTable"));
    m_kernelTable->setModel(m_kernelProxy);
    m_kernelTable->setSortingEnabled(true);
    m_kernelTable->sortByColumn(charts::KernelStatModel::TotalMsColumn, Qt::DescendingOrder);
    m_kernelTable->horizontalHeader()->setSectionResizeMode(charts::KernelStatModel::NameColumn, QHeaderView::Stretch);
    m_kernelTable->setToolTip(tr("Kernels over the whole trace, summed over ranks; click a header to sort"));
    m_kernelFilter = new QLineEdit;
    m_kernelFilter->setObjectName(QStringLiteral("kernelFilter"));
    m_kernelFilter->setPlaceholderText(tr("Filter kernels by name…"));
    m_kernelFilter->setClearButtonEnabled(true);
    connect(m_kernelFilter, &QLineEdit::textChanged, m_kernelProxy, &charts::KernelStatProxy::setNameFilter);
    m_kernelPage = new QWidget;
    auto* layout = new QVBoxLayout(m_kernelPage);
    layout->addWidget(m_kernelFilter);
    layout->addWidget(m_kernelTable);

    addTab(m_steps, tr("Step breakdown"));
    addTab(m_kernelPage, tr("Top kernels"));
    addTab(m_trainLog, tr("Training log"));
    setTabToolTip(0, tr("Where each step's time went: compute by class, exposed communication, idle (ms)"));
    setTabToolTip(1, tr("Kernels by total time: count, total, mean, share"));
    setTabToolTip(2, tr("Loss, step time, throughput, TFLOP/s and MFU per step, with restarts and stalls"));
    setTabToolTip(addTab(m_timeline, tr("Timeline")),
                  tr("One representative step of a rank, per GPU stream: every kernel, copy and collective (ms)"));
    m_vsMeasured->setObjectName(QStringLiteral("predictedVsMeasured"));
    setTabToolTip(addTab(m_vsMeasured, tr("Predicted vs measured")),
                  tr("The sizing model's step for a config, device and layout next to the trace's or log's "
                     "(ridgeline-cli vs-measured)"));
    m_vsBenchmark->setObjectName(QStringLiteral("collectivesVsBenchmark"));
    setTabToolTip(addTab(m_vsBenchmark, tr("Collectives vs benchmark")),
                  tr("The trace's collectives against a collective benchmark's busbw at the same size "
                     "(ridgeline-cli trace-collectives)"));
}

void TraceView::setData(const std::vector<charts::TraceChartData>& sessions)
{
    const charts::TraceChartData* trace = nullptr;
    const charts::TraceChartData* log = nullptr;
    for (const auto& s : sessions) {
        if (s.isTrace() && !trace)
            trace = &s;
        if (s.isTrainingLog() && !log)
            log = &s;
    }
    // Taken before the tabs are enabled: QTabBar moves off a tab as it disables it.
    QWidget* shown = currentWidget();
    m_steps->setData(trace ? *trace : charts::TraceChartData{});
    m_kernels->setTrace(trace ? *trace : charts::TraceChartData{});
    m_trainLog->setData(log ? *log : charts::TraceChartData{});
    m_timeline->setData(trace ? *trace : charts::TraceChartData{});
    setTabEnabled(0, trace != nullptr);
    setTabEnabled(1, trace != nullptr);
    setTabEnabled(2, log != nullptr);
    m_vsMeasured->setSession(trace ? *trace : log ? *log : charts::TraceChartData{});
    m_vsBenchmark->setSession(trace ? *trace : charts::TraceChartData{});
    setTabEnabled(indexOf(m_vsMeasured), trace || log);
    // A trace without collectives has nothing to hold against a benchmark.
    setTabEnabled(indexOf(m_vsBenchmark), trace != nullptr && !trace->collectives.empty());
    setTabEnabled(indexOf(m_timeline), trace != nullptr);
    // Stay on the tab the user chose while it has something to show.
    setCurrentWidget(isTabEnabled(indexOf(shown)) ? shown : widget(trace ? 0 : 2));
}

void TraceView::setWorkspace(const QString& path)
{
    m_vsMeasured->setWorkspace(path);
    m_vsBenchmark->setWorkspace(path);
}

void TraceView::setSessions(const std::vector<Session>& sessions) { m_vsBenchmark->setSessions(sessions); }
} // namespace rl
