#pragma once
// One step of one rank as lanes per GPU stream: every kernel, copy and collective a bar from its
// start to its end (ms from the step's start), coloured by class as in the step breakdown. Drag to
// zoom into a time range, right-click to zoom out, hover names the kernel. The bars are one
// SpanCloud item, so a step of 20,000 kernels draws at once. The trace keeps one representative
// step per rank (trace/traceanalysis.h stepTimeline).
#include <string>

#include <QSize>

#include "chartframe.h"
#include "views/tracechartdata.h"

QT_BEGIN_NAMESPACE
class QComboBox;
QT_END_NAMESPACE

namespace rl::charts {

struct TimelineOptions
{
    int rank = kAllRanksMean; // kAllRanksMean: the first rank with a timeline
    std::string title;        // empty: derived
};

class TimelineChart : public ChartFrame
{
    Q_OBJECT
public:
    explicit TimelineChart(QWidget* parent = nullptr);
    ~TimelineChart() override;

    void setData(const TraceChartData& data);
    void setRank(int rank);
    const TimelineOptions& options() const { return m_options; }

    static QString populate(QChart* chart, const TraceChartData& data, const TimelineOptions& options);
    static bool exportChart(const TraceChartData& data, const TimelineOptions& options, QSize size,
                            const QString& path, QString* error);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override; // hover on the view
    QString populateExport(QChart* chart) const override { return populate(chart, m_data, m_options); }
    std::string exportCsv() const override { return timelineCsv(m_data, m_options.rank); }
    QString exportName() const override { return QStringLiteral("trace-timeline"); }
    std::vector<std::int64_t> exportSessionIds() const override { return {m_data.session.id}; }

private:
    void rebuild() override;

    TraceChartData m_data;
    TimelineOptions m_options;
    QComboBox* m_rankCombo;
    std::vector<const TimelineEvent*> m_shown; // the events behind the bars, in bar order
};
} // namespace rl::charts
