#pragma once
// The roofline: GEMM points (coloured and shaped by source: measured, imported, trace kernels, the
// sizing model's predicted GEMMs) under the compute roofs (one per dtype) and
// bandwidth slopes (one per memory level) of the measured peakflops/membw sessions and of up to two
// hardware profiles; ridge points marked, every ceiling labelled with its value, log-log
// axes. A thin view: the numbers come from kernelchartdata.h (model/roofline.h underneath).
#include <QScatterSeries>
#include <QSize>

#include "chartframe.h"
#include "drawnseries.h"
#include "views/kernelchartdata.h"

namespace rl::charts {

// A ceiling or ridge label populate() drew, with what it names, so layoutRooflineLabels can place
// it again at any size: a roof (x from a to b at c GFLOP/s), a slope (x from a to b at c GB/s) or a
// ridge (a, c). Kinds in the order they claim places: roofs first, ridges last.
struct RooflineLabel
{
    enum Kind { Roof = 1, Slope = 2, Ridge = 3 };
    QScatterSeries* series;
    Kind kind;
    double a, b, c;
};
// What populate() drew that is needed again (drawnseries.h).
struct RooflineDrawn
{
    std::vector<RooflineLabel> labels;
    // The GEMM point sets, each with its index in the geometry's gemm list (the hover reads it).
    std::vector<std::pair<QScatterSeries*, std::size_t>> gemm;
};

class RooflineChart : public ChartFrame
{
    Q_OBJECT
public:
    explicit RooflineChart(QWidget* parent = nullptr);
    ~RooflineChart() override;

    // Any mix of gemm, peakflops, membw and trace sessions: points from gemm sessions and trace kernels
    // with flops and bytes, ceilings from the others.
    void setData(const KernelChartData& data);
    const KernelChartData& data() const { return m_data; }
    // The profile whose peaks and HBM are drawn as dashed ceilings; nullopt: measured ones only.
    void setHardwareProfile(const std::optional<HardwareProfile>& profile);
    // A second profile drawn dotted next to the first (e.g. measured vs MI300X vs H100).
    void setCompareProfile(const std::optional<HardwareProfile>& profile);
    // The sizing model's GEMMs of one step (predictedGemms()), drawn as stars; nullopt removes them.
    void setPredictedGemms(const std::optional<GemmScatter>& predicted);
    void setTitle(const std::string& title); // empty: derived
    const RooflineOptions& options() const { return m_options; }
    const RooflineGeometry& geometry() const { return m_geometry; }

    // Fills chart; returns the description for export metadata.
    static QString populate(QChart* chart, const KernelChartData& data, const RooflineOptions& options);
    // PNG/SVG/PDF, or the ceilings, ridges and points as CSV, by suffix (exportChartFile).
    static bool exportChart(const KernelChartData& data, const RooflineOptions& options, QSize size,
                            const QString& path, QString* error);

protected:
    QString populateExport(QChart* chart) const override { return populate(chart, m_data, m_options); }
    std::string exportCsv() const override { return rooflineCsv(m_data, m_options); }
    QString exportName() const override { return QStringLiteral("roofline"); }
    std::vector<std::int64_t> exportSessionIds() const override { return sessionIdsOf(m_data); }

private:
    void rebuild() override;

    KernelChartData m_data;
    RooflineOptions m_options;
    RooflineGeometry m_geometry;
};

// Places the ceiling and ridge labels of a populated roofline so that none overlaps another: each
// at the first free place along its line (roofs above or below, slopes above-left or below-right,
// ridge values around the marker; a ridge value with no free place is hidden). Called by populate
// and again when the plot area changes size.
void layoutRooflineLabels(QChart* chart);
} // namespace rl::charts
