#include "traceview.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

#include "kernelstatmodel.h"
#include "stepbreakdownchart.h"
#include "trainlogchart.h"

namespace rl {

TraceView::TraceView(QWidget* parent)
    : QTabWidget(parent), m_steps(new charts::StepBreakdownChart), m_trainLog(new charts::TrainLogChart),
      m_kernels(new charts::KernelStatModel(this)), m_kernelProxy(new charts::KernelStatProxy(this))
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
    m_steps->setData(trace ? *trace : charts::TraceChartData{});
    m_kernels->setData(trace ? *trace : charts::TraceChartData{});
    m_trainLog->setData(log ? *log : charts::TraceChartData{});
    setTabEnabled(0, trace != nullptr);
    setTabEnabled(1, trace != nullptr);
    setTabEnabled(2, log != nullptr);
    setCurrentIndex(trace ? (currentIndex() == 2 ? 0 : currentIndex()) : 2);
}
} // namespace rl
