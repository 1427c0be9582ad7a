#pragma once
// The interactive collective chart: bandwidth, latency, scaling and compare views of one or more
// sessions, alpha-beta fit overlays, hover callouts, rubber-band zoom and live appends. A thin
// view: the numbers come from chartdata.h, the drawing from ChartContent, export from chartexport.h.
#include <cstdint>
#include <vector>

#include <QWidget>

#include "chartdata.h"

QT_BEGIN_NAMESPACE
class QAbstractSeries;
class QChart;
class QChartView;
class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;

namespace rl {
class Settings;
}
QT_END_NAMESPACE

namespace rl::charts {

class Callout;
class ChartContent;

class CollectiveChart : public QWidget
{
    Q_OBJECT
public:
    explicit CollectiveChart(QWidget* parent = nullptr);
    ~CollectiveChart() override;

    // The sessions to draw; for the compare view the first is A and the second B.
    void setSessions(std::vector<SessionCurves> sessions);
    const std::vector<SessionCurves>& sessions() const;
    // A point of a running benchmark: appended to the live session without a full rebuild.
    void appendPoint(std::int64_t sessionId, const CollectivePoint& point);

    ChartKind kind() const { return m_kind; }
    void setKind(ChartKind kind);
    BandwidthMetric metric() const { return m_options.metric; }
    void setMetric(BandwidthMetric metric);
    void setShowFits(bool show);
    void setFitRange(std::int64_t minBytes, std::int64_t maxBytes); // defaults to every size
    void setScalingBytes(std::int64_t bytes);
    void setExportSize(int width, int height);
    // The Export button's dialog starts in the folder charts were last exported to (null: home).
    void setSettings(Settings* settings) { m_settings = settings; }
    const ChartOptions& options() const { return m_options; }

    // The alpha-beta fits currently drawn (bandwidth and latency views), for other modules.
    const std::vector<FitCurve>& fits() const;
    QString hoverText() const; // the callout's text while it is shown, else empty
    QString title() const;
    void resetZoom();
    // Exports what this chart shows through exportChart() at the export size.
    bool exportTo(const QString& path, QString* error) const;

    QChart* chart() const { return m_chart; } // for tests; other modules use the API above

Q_SIGNALS:
    void kindChanged(rl::charts::ChartKind kind);
    void metricChanged(rl::charts::BandwidthMetric metric);
    void fitsChanged();

private:
    void rebuild();
    void onHover(const QString& text, QPointF value, QAbstractSeries* series, bool visible);
    void exportWithDialog();
    void syncControls();
    void updateEmptyState();

    ChartKind m_kind = ChartKind::Bandwidth;
    ChartOptions m_options;
    Settings* m_settings = nullptr;
    QChart* m_chart;
    QChartView* m_view;
    QLabel* m_empty; // shown instead of the plot when the view has nothing to draw
    ChartContent* m_content;
    Callout* m_callout;
    QComboBox* m_kindCombo;
    QComboBox* m_metricCombo;
    QComboBox* m_scalingCombo;
    QCheckBox* m_fitCheck;
    QPushButton* m_resetZoom;
    QPushButton* m_export;
};
} // namespace rl::charts
