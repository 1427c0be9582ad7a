#include "gui/runs/stepview.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include "views/stepsessiondata.h"
#include "gui/runs/viewlabels.h"

namespace rl {
namespace {
QStandardItem* number(double value, int decimals)
{
    auto* item = new QStandardItem;
    item->setText(value > 0 ? QString::number(value, 'f', decimals) : QStringLiteral("-"));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}
} // namespace

StepView::StepView(QWidget* parent)
    : QWidget(parent), m_title(viewTitleLabel(QStringLiteral("stepTitle"))), m_summary(viewSummaryLabel(QStringLiteral("stepSummary"))), m_showTrace(new QPushButton),
      m_model(new QStandardItemModel(0, ColumnCount, this)), m_table(new QTableView)
{
    setObjectName(QStringLiteral("stepView"));
    m_showTrace->setObjectName(QStringLiteral("showStepTrace"));
    m_showTrace->setToolTip(tr("Select the trace session the run imported the step's profiler trace as: its step "
                               "breakdown, kernels and timeline"));
    connect(m_showTrace, &QPushButton::clicked, this, [this] {
        if (m_trace)
            emit traceRequested(*m_trace);
    });
    m_model->setHorizontalHeaderLabels(
        {tr("Session"), tr("Step"), tr("Time (ms)"), tr("Tokens/s"), tr("Model TFLOP/s")});
    m_table->setObjectName(QStringLiteral("stepTable"));
    m_table->setModel(m_model);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setToolTip(tr("Each timed step as the probe measured it (after its warm-up steps); model TFLOP/s "
                           "is the model's FLOPs per step over the step's time"));

    auto* top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(m_showTrace, 0, Qt::AlignTop);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);
}

void StepView::setSessions(const std::vector<Session>& sessions)
{
    QStringList titles, summaries;
    m_model->removeRows(0, m_model->rowCount());
    m_trace.reset();
    for (const auto& s : sessions) {
        titles << QString::fromStdString(s.title);
        const QString summary = QString::fromStdString(charts::describeStepSummary(s));
        const QString text = summary.isEmpty() ? tr("No step summary kept with this session.") : summary;
        summaries << (sessions.size() > 1 ? QString::fromStdString(s.title) % QStringLiteral(":\n") % text : text);
        if (!m_trace)
            m_trace = charts::stepTraceSession(s);
        for (const auto& step : charts::timedSteps(s)) {
            auto* session = new QStandardItem(QString::fromStdString(s.title));
            auto* index = new QStandardItem(QString::number(step.step));
            index->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_model->appendRow({session, index, number(step.timeMs, 2), number(step.tokensPerS, 0),
                                number(step.tflops, 1)});
        }
    }
    m_table->setColumnHidden(SessionColumn, sessions.size() < 2);
    m_title->setText(titles.join(QStringLiteral(", ")));
    if (m_model->rowCount() == 0)
        summaries << tr("No timed steps kept with this session: a PyTorch probe step run (File > New PyTorch Probe "
                        "Run…) or an imported step file keeps them.");
    m_summary->setText(summaries.join(QStringLiteral("\n\n")));
    m_showTrace->setVisible(m_trace.has_value());
    if (m_trace)
        m_showTrace->setText(tr("Show its profiler trace (session %1)").arg(*m_trace));
}

QString StepView::summaryText() const { return m_summary->text(); }
} // namespace rl
