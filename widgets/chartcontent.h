#pragma once
// Fills one QChart with a collective chart of a given kind. Shared by the interactive widget and
// the headless export so that what you see is what you export; all QChart use stays in widgets/.
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include <QObject>
#include <QPointF>
#include <QString>

#include <optional>

#include "views/chartdata.h"
#include "views/curvelod.h"
#include "views/sizechartdata.h"

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QAbstractSeries;
class QCategoryAxis;
class QChart;
class QLineSeries;
class QXYSeries;
QT_END_NAMESPACE

namespace rl::charts {

class BandLayer;

// The sessions a set of views shows, read by all of them and appended to by one owner.
using SharedSessions = std::shared_ptr<const std::vector<SessionCurves>>;

class ChartContent : public QObject
{
    Q_OBJECT
public:
    // The chart is not owned; the series and axes this class adds are owned by the chart.
    explicit ChartContent(QChart* chart, QObject* parent = nullptr);

    // data is shared with the other views of the same sessions (the chart tabs and the table); its
    // owner appends live points to it and then calls pointsAppended(). prepared: this chart's
    // data computed off the GUI thread (sizeChartData); used when it answers sizeChartRequest()
    // at build time, else the chart computes it itself.
    void setData(ChartKind kind, SharedSessions data, const ChartOptions& options,
                 std::optional<SizeChartData> prepared = std::nullopt);
    void setData(ChartKind kind, std::vector<SessionCurves> data, const ChartOptions& options);
    // Takes the data set and options but leaves the chart empty until build(): a view nobody
    // looks at (a hidden tab) is not drawn; a 3,240-curve selection costs 100-250 ms per chart
    // (issue 26 item 11). Until then curves() and fits() are empty and appended points wait.
    void setDataUndrawn(ChartKind kind, SharedSessions data, const ChartOptions& options,
                        std::optional<SizeChartData> prepared = std::nullopt);
    // What a bandwidth or latency view of this chart draws from: kind, options, unit, plot width.
    SizeChartRequest sizeChartRequest() const;
    bool isUndrawn() const { return m_undrawn; }
    void build();
    // The owner of the shared data has appended live points to a session (appendLivePoint): they
    // are read from the data set. Bandwidth and latency views update only the affected series (and
    // its fit); scaling and compare views are small and are recomputed.
    void pointsAppended(std::int64_t sessionId);
    // Thins the log2 axis labels to the plot width once the chart is laid out (labels that do
    // not fit are cut to "256..." by Qt). Runs by itself on plot-area changes inside a view.
    void fitLabelsToPlotArea();

    ChartKind kind() const { return m_kind; }
    const ChartOptions& options() const { return m_options; }
    const std::vector<SessionCurves>& data() const { return *m_data; }
    const SharedSessions& sharedData() const { return m_data; }
    const std::vector<Curve>& curves() const { return *m_curves; }
    // Fits of the curves drawn one by one (curves drawn as part of a band have none).
    const std::vector<FitCurve>& fits() const { return m_fits; }
    // Level of detail (curvelod.h, sizechartdata.h): curves of a selection beyond kMaxDrawnCurves
    // drawn as bands, one per session, op and in-place over its --split groups (then per op and
    // in-place over the sessions when still too many), and each drawn curve thinned to the plot's
    // pixel columns.
    const std::vector<GroupBand>& bands() const { return m_bands; }
    // Bands whose legend entry did not fit ("… and 6 more bands"); 0 when all are named.
    int bandsNotInLegend() const { return m_bandsNotInLegend; }
    // The bands' areas (slowest to fastest), under the series; null when there are no bands.
    const BandLayer* bandLayer() const { return m_bandLayer; }
    QString title() const;
    // Why the current view has nothing to draw (the compare view with a session count it cannot
    // handle, or two sessions without a common op and size); empty when there is a chart.
    QString emptyReason() const;
    // Whether this view needs every point and its data set holds an outline (store/collectiveoutline.h).
    bool waitsForEveryPoint() const;

    // Exact values of the data point nearest to value (in the series' plot coordinates).
    QString describePoint(const QAbstractSeries* series, QPointF value) const;

Q_SIGNALS:
    void hoverChanged(const QString& text, QPointF value, QAbstractSeries* series, bool visible);
    void fitsChanged();
    // The band layer's image for the plot's current size and ranges is drawn (BandLayer::rendered).
    void bandsRendered();

private:
    enum class Role { Curve, Fit, Scaling, Ratio, Reference, Peak, Spread, BandMedian };
    struct SeriesInfo
    {
        Role role;
        std::size_t index;
    };

    void clearChart();
    // Adds one point to its series; false when it needed a rebuild (which drew every point).
    bool drawAppended(std::int64_t sessionId, const CollectivePoint& point);
    void buildSizeChart();
    void buildScaling();
    void buildCompare();
    QLineSeries* addSeries(const QString& name, Role role, std::size_t index, QAbstractAxis* x, QAbstractAxis* y);
    void updateFit(std::size_t curveIndex);
    void updateFit(std::size_t curveIndex, const std::optional<fits::AlphaBeta>& fit);
    void addPeakLines(std::vector<PeakLine> peaks);
    void addSpreadBands(const std::vector<CallSpread>& spreads);
    QList<QPointF> curvePoints(const Curve& curve) const;
    int plotPixels() const; // the plot's width in pixels, or the export width's share of it
    std::vector<Curve>& ownCurves(); // m_curves, copied first when other charts share them
    void addGroupBands();
    void capBandLegend();
    // A point's y as plotted: its time on the latency view, else its bandwidth in the display unit.
    double plottedY(const CollectivePoint& p) const;
    void updateSizeAxes();
    int labelBudget() const;
    void toggleSeries();

    QChart* m_chart;
    ChartKind m_kind = ChartKind::Bandwidth;
    ChartOptions m_options;
    SharedSessions m_data = std::make_shared<const std::vector<SessionCurves>>();
    std::map<std::int64_t, std::size_t> m_drawn; // per session: how many of its points are drawn
    // Shared with the other tabs' charts of the same data set until a live point changes them.
    std::shared_ptr<const std::vector<Curve>> m_curves = std::make_shared<const std::vector<Curve>>();
    std::shared_ptr<std::vector<Curve>> m_ownCurves; // m_curves when this chart owns them alone
    std::optional<SizeChartData> m_prepared;         // for the next build, when it still answers it
    std::vector<FitCurve> m_fits;
    std::vector<ScalingLine> m_scaling;
    std::vector<RatioCurve> m_ratios;
    std::vector<QLineSeries*> m_curveSeries;            // parallel to m_curves; nullptr when in a band
    std::vector<GroupBand> m_bands;
    std::vector<QLineSeries*> m_bandMedians; // parallel to m_bands
    BandLayer* m_bandLayer = nullptr;        // the bands' areas; null without bands
    int m_bandsNotInLegend = 0;
    std::map<std::size_t, QLineSeries*> m_fitSeries;    // curve index -> fit series
    std::vector<PeakLine> m_peaks;                      // busbw chart: the tiers' ceilings
    std::map<const QAbstractSeries*, SeriesInfo> m_info;
    QCategoryAxis* m_xAxis = nullptr;
    QAbstractAxis* m_yAxis = nullptr;
    double m_xMin = 0, m_xMax = 0, m_yMin = 0, m_yMax = 0; // data extents (x in log2 units)
    int m_budget = 0;
    bool m_undrawn = false; // setDataUndrawn() since the last build()
};
} // namespace rl::charts
