#pragma once
// The pairs heatmap of a `pairs` session: ranks (or hosts) on both axes, each measured pair a
// square cell coloured by its bandwidth or latency bin, slow pairs outlined in red. Qt Charts has
// no heatmap, so the cells are square markers of one scatter series per colour bin, sized to the
// plot area. A thin view: the cells, bins, flags and hover text come from
// analysis/views/pairsheatmapdata.h. The toolbar switches the metric and sets the slow threshold.
#include <string>
#include <vector>

#include <QScatterSeries>
#include <QSize>

#include "chartframe.h"
#include "drawnseries.h"
#include "records/pairpoint.h"
#include "records/session.h"
#include "views/pairsheatmapdata.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QDoubleSpinBox;
QT_END_NAMESPACE

namespace rl::charts {

using views::PairsSessionData;

// What populate() drew (drawnseries.h): the cell series, whose markers are resized to the plot
// area whenever it changes, and the hover reads.
struct PairsHeatmapDrawn
{
    int positions = 0;                  // ranks or hosts per axis
    QScatterSeries* self = nullptr;     // the diagonal, not measured
    std::vector<QScatterSeries*> bins;  // bins[b]: the cells of colour bin b
    QScatterSeries* slow = nullptr;     // outlines of the slow pairs; null when none is slow
};

struct PairsHeatmapOptions
{
    views::PairMetric metric = views::PairMetric::Bandwidth;
    double fraction = kDefaultSlowPairFraction;
    std::string title; // empty: derived
};

// The sequential colour of bin i of n (light for the lowest values, dark for the highest).
QColor heatmapBinColor(int bin, int binCount);

class PairsHeatmapChart : public ChartFrame
{
    Q_OBJECT
public:
    explicit PairsHeatmapChart(QWidget* parent = nullptr);
    ~PairsHeatmapChart() override;

    void setData(PairsSessionData data);
    void setMetric(views::PairMetric metric);
    void setFraction(double fraction);
    const PairsSessionData& data() const { return m_data; }
    const PairsHeatmapOptions& options() const { return m_options; }
    const views::PairsHeatmap& heatmap() const { return m_heatmap; }

    static QString populate(QChart* chart, const PairsSessionData& data, const views::PairsHeatmap& heatmap,
                            const PairsHeatmapOptions& options);
    static bool exportChart(const PairsSessionData& data, const PairsHeatmapOptions& options, QSize size,
                            const QString& path, QString* error);

Q_SIGNALS:
    void heatmapChanged(); // new data, metric or threshold: the flagged pairs may differ

protected:
    QString populateExport(QChart* chart) const override { return populate(chart, m_data, m_heatmap, m_options); }
    std::string exportCsv() const override { return views::pairsHeatmapCsv(m_heatmap); }
    QString exportName() const override { return QStringLiteral("pairs-heatmap"); }
    std::vector<std::int64_t> exportSessionIds() const override { return {m_data.session.id}; }

private:
    void rebuild() override;

    PairsSessionData m_data;
    PairsHeatmapOptions m_options;
    views::PairsHeatmap m_heatmap;
    QComboBox* m_metric;
    QDoubleSpinBox* m_fraction;
};
} // namespace rl::charts
