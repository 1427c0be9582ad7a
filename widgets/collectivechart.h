#pragma once
// The interactive collective chart: bandwidth, latency, scaling and compare views of one or more
// sessions, alpha-beta fit overlays, hover callouts, rubber-band zoom and live appends. A thin
// view: the numbers come from chartdata.h, the drawing from ChartContent, export from chartexport.h.
#include <cstdint>
#include <optional>
#include <vector>

#include "views/chartdata.h"
#include "chartcontent.h"
#include "chartframe.h"

QT_BEGIN_NAMESPACE
class QAbstractSeries;
class QCheckBox;
class QComboBox;
QT_END_NAMESPACE

namespace rl::charts {


class CollectiveChart : public ChartFrame
{
    Q_OBJECT
public:
    explicit CollectiveChart(QWidget* parent = nullptr);
    ~CollectiveChart() override;

    // The sessions to draw; for the compare view the first is A and the second B. The shared form
    // is the data set other views of the same sessions read too (ChartArea's tabs).
    void setSessions(std::vector<SessionCurves> sessions);
    // prepared: this chart's data built off the GUI thread for sizeChartRequest() (prepareCurves).
    void setSessions(SharedSessions sessions, std::optional<SizeChartData> prepared = std::nullopt);
    const std::vector<SessionCurves>& sessions() const;
    // The sessions, drawn only by drawIfUndrawn() or any later rebuild: a tab nobody looks at is
    // not drawn (issue 26 item 11: each of 3,240 curves' tabs took 100-250 ms of the GUI thread).
    // sessions() and the exports read them at once; the chart, curves and fits wait.
    void setSessionsUndrawn(SharedSessions sessions, std::optional<SizeChartData> prepared = std::nullopt);
    // What this chart's bandwidth or latency view is drawn from (kind, options, unit, plot width).
    SizeChartRequest sizeChartRequest() const;
    void drawIfUndrawn();
    bool isUndrawn() const;
    // Points of a running benchmark that the shared data set's owner has just appended to a
    // session (appendLivePoint): read from the data set and drawn without a full rebuild.
    void pointsAppended(std::int64_t sessionId);

    ChartKind kind() const { return m_kind; }
    void setKind(ChartKind kind);
    BandwidthMetric bandwidthMetric() const { return m_options.metric; } // not metric(): QWidget has one
    void setMetric(BandwidthMetric metric);
    void setShowFits(bool show);
    void setFitRange(std::int64_t minBytes, std::int64_t maxBytes); // defaults to every size
    void setScalingBytes(std::int64_t bytes);
    const ChartOptions& options() const { return m_options; }

    // The alpha-beta fits currently drawn (bandwidth and latency views), for other modules.
    const std::vector<FitCurve>& fits() const;
    QString title() const; // also while the view shows why it has nothing to draw

Q_SIGNALS:
    void kindChanged(rl::charts::ChartKind kind);
    void metricChanged(rl::charts::BandwidthMetric metric);
    void fitsChanged();

protected:
    QString populateExport(QChart* chart) const override;
    std::string exportCsv() const override;
    QString exportName() const override { return QString::fromLatin1(toString(m_kind)); }
    std::vector<std::int64_t> exportSessionIds() const override;
    QString exportProblem(bool data) const override;

private:
    void rebuild() override;
    void onHover(const QString& text, QPointF value, QAbstractSeries* series, bool visible);
    void syncControls();
    void updateEmptyState();
    ChartOptions exportOptions() const; // m_options at the frame's export size

    ChartKind m_kind = ChartKind::Bandwidth;
    ChartOptions m_options;
    ChartContent* m_content;
    QComboBox* m_kindCombo;
    QComboBox* m_metricCombo;
    QComboBox* m_scalingCombo;
    QCheckBox* m_fitCheck;
};
} // namespace rl::charts
