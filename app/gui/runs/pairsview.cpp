#include "gui/runs/pairsview.h"

#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QVBoxLayout>

#include "textconv.h"
#include "units/units.h"

namespace rl {

PairsView::PairsView(QWidget* parent)
    : QWidget(parent)
    , m_heatmap(new charts::PairsHeatmapChart)
    , m_summary(new QLabel)
    , m_list(new QListWidget)
{
    setObjectName(QStringLiteral("pairsView"));
    m_summary->setObjectName(QStringLiteral("pairsSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_list->setObjectName(QStringLiteral("slowPairsList"));
    m_list->setWordWrap(true);
    m_list->setSpacing(3); // wrapped entries must not run into each other
    m_list->setToolTip(tr("Ranks in several slow pairs first (the likely culprit: a slow NIC or link, a busy "
                          "core), then each slow pair with its bandwidth and latency against the medians"));

    auto* side = new QWidget;
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    auto* heading = new QLabel(tr("<b>Slow links</b>"));
    sideLayout->addWidget(heading);
    sideLayout->addWidget(m_summary);
    sideLayout->addWidget(m_list, 1);

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_heatmap);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(m_heatmap, &charts::PairsHeatmapChart::heatmapChanged, this, &PairsView::updateList);
    updateList();
}

void PairsView::setData(views::PairsSessionData data, int others)
{
    m_others = others;
    m_heatmap->setData(std::move(data));
}

QString PairsView::summary() const
{
    return m_summary->text();
}

void PairsView::updateList()
{
    const auto& h = m_heatmap->heatmap();
    m_list->clear();
    QString text;
    if (h.cells.empty()) {
        text = tr("No pairs to judge.");
    } else {
        const int pairs = int(h.cells.size() / 2);
        text = tr("%1 of %2 pairs slow (%7). Medians: bandwidth %3 (%4 messages), latency %5 (%6 messages).")
                   .arg(h.report.slow.size())
                   .arg(pairs)
                   .arg(qs(units::formatBandwidth(h.report.medianBandwidthGBs)),
                        qs(units::formatBytes(double(h.cells.front().pair.bandwidthBytes))),
                        qs(units::formatTime(h.report.medianLatencyUs)),
                        qs(units::formatBytes(double(h.cells.front().pair.latencyBytes))), qs(views::slowRule(h)));
    }
    if (m_others > 0)
        text += QLatin1Char(' ') + tr("Showing the first selected pairs session; %n more not shown.", nullptr, m_others);
    m_summary->setText(text);
    for (const auto& line : views::suspectLines(h)) {
        auto* item = new QListWidgetItem(qs(line), m_list);
        QFont bold = item->font();
        bold.setBold(true);
        item->setFont(bold);
        item->setData(Qt::UserRole, QStringLiteral("suspect"));
    }
    for (const auto& line : views::slowPairLines(h))
        (new QListWidgetItem(qs(line), m_list))->setData(Qt::UserRole, QStringLiteral("pair"));
    if (!h.cells.empty() && h.report.slow.empty())
        new QListWidgetItem(tr("No slow pairs at this threshold."), m_list);
}
} // namespace rl
