#include "gui/runs/copybandwidthview.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include "gui/runs/viewlabels.h"
#include "importers/nvbandwidth.h"
#include "resulttableview.h"

namespace rl {
namespace {
charts::ResultTable tableOf(const CopyMatrix& m)
{
    const QString unit = QString::fromStdString(m.unit);
    charts::ResultTable t;
    for (const auto& c : m.columnLabels)
        t.columns.push_back({QString::fromStdString(c) + QStringLiteral("\n(") + unit + u')',
                             QObject::tr("Destination (column) %1 of %2, in %3")
                                 .arg(QString::fromStdString(c), QString::fromStdString(m.description), unit)});
    for (std::size_t r = 0; r < m.values.size(); ++r) {
        t.rowTitles.push_back(QString::fromStdString(m.rowLabels[r]));
        auto& row = t.rows.emplace_back();
        for (const auto& v : m.values[r]) {
            if (!v) {
                auto na = charts::textCell(QStringLiteral("N/A"));
                na.tip = QObject::tr("Not measured: a device with itself, or no peer access between the two");
                row.push_back(std::move(na));
                continue;
            }
            // GB/s to one decimal, as nvbandwidth prints them; latencies to the ns.
            row.push_back(charts::numberCell(QString::number(*v, 'f', m.unit == "ns" ? 0 : 1), *v));
        }
    }
    return t;
}
} // namespace

CopyBandwidthView::CopyBandwidthView(QWidget* parent)
    : QWidget(parent), m_title(viewTitleLabel(QStringLiteral("copyBandwidthTitle"))), m_summary(viewSummaryLabel(QStringLiteral("copyBandwidthSummary"))), m_matrices(new QVBoxLayout)
{
    setObjectName(QStringLiteral("copyBandwidthView"));

    auto* inner = new QWidget;
    inner->setLayout(m_matrices);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setWidget(inner);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_summary);
    layout->addWidget(scroll, 1);
}

void CopyBandwidthView::setSessions(const std::vector<Session>& sessions)
{
    while (QLayoutItem* item = m_matrices->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_tables.clear();
    QStringList titles, summaries;
    for (const auto& s : sessions) {
        const QString title = QString::fromStdString(s.title);
        titles << title;
        const auto matrices = copyMatricesOf(s.params);
        QStringList facts;
        if (!s.toolVersion.empty())
            facts << tr("nvbandwidth %1").arg(QString::fromStdString(s.toolVersion));
        if (!s.host.empty())
            facts << tr("host %1").arg(QString::fromStdString(s.host));
        facts << (matrices.size() == 1 ? tr("1 matrix") : tr("%1 matrices").arg(matrices.size()));
        summaries << (sessions.size() > 1 ? title + QStringLiteral(": ") : QString()) + facts.join(QStringLiteral(", "));
        for (const auto& m : matrices) {
            auto* caption = new QLabel;
            caption->setTextFormat(Qt::PlainText); // from the file
            caption->setWordWrap(true);
            QString text = (sessions.size() > 1 ? title + QStringLiteral(" · ") : QString())
                + QString::fromStdString(m.testcase) + QStringLiteral(": ") + QString::fromStdString(m.description);
            if (m.sum)
                text += QStringLiteral("; SUM ") + QString::number(*m.sum, 'f', 2) + u' ' + QString::fromStdString(m.unit);
            caption->setText(text);
            QFont bold = caption->font();
            bold.setBold(true);
            caption->setFont(bold);
            auto* table = new charts::ResultTableView;
            table->setObjectName(QStringLiteral("copyMatrix_") + QString::fromStdString(m.testcase));
            table->setTable(tableOf(m));
            table->verticalHeader()->setVisible(true); // the source of each row
            table->setToolTip(tr("Source in rows, destination in columns; click a header to sort, Ctrl+C copies"));
            table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
            table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
            m_matrices->addWidget(caption);
            m_matrices->addWidget(table);
            m_tables.push_back(table);
        }
    }
    m_matrices->addStretch(1);
    m_title->setText(titles.join(QStringLiteral(", ")));
    if (m_tables.empty())
        summaries << tr("No copy matrix kept with this session: an nvbandwidth run or import keeps them.");
    m_summary->setText(summaries.join(u'\n'));
}

QString CopyBandwidthView::summaryText() const { return m_summary->text(); }
} // namespace rl
