#pragma once
// GEMM efficiency along the dimension a session sweeps: achieved GFLOP/s (or % of the measured
// peak) per session and dtype, with the wave-quantisation efficiency model/wavequantization.h
// predicts for a hardware profile's CU count and a tile shape (editable above the chart) overlaid as
// a dashed sawtooth, and a "nearest fast size" readout for a typed value of the swept dimension.
// A thin view: the numbers come from kernelchartdata.h.
#include <QLineSeries>
#include <QSize>

#include "chartframe.h"
#include "drawnseries.h"
#include "views/kernelchartdata.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QSpinBox;
QT_END_NAMESPACE

namespace rl::charts {

// What populate() drew that the widget answers hovers on (drawnseries.h).
struct GemmEfficiencyDrawn
{
    std::vector<QLineSeries*> sweeps; // in the geometry's order: sweeps[i] draws geometry.sweeps[i]
};

class GemmEfficiencyChart : public ChartFrame
{
    Q_OBJECT
public:
    explicit GemmEfficiencyChart(QWidget* parent = nullptr);
    ~GemmEfficiencyChart() override;

    void setData(const KernelChartData& data); // gemm sessions (peakflops sessions give the peak)
    const KernelChartData& data() const { return m_data; }
    void setMetric(GemmYMetric metric);        // % of peak falls back to GFLOP/s when a peak is unknown
    // The CU count for the overlay; nullopt: no overlay.
    void setHardwareProfile(const std::optional<HardwareProfile>& profile);
    void setTileShape(model::TileShape tile);
    void setTitle(const std::string& title);
    const GemmEfficiencyOptions& options() const { return m_options; }
    // The "nearest fast size" readout for a value of the swept dimension (the spin box next to it).
    void setReadoutValue(std::int64_t value);
    QString readoutText() const;

    static QString populate(QChart* chart, const KernelChartData& data, const GemmEfficiencyOptions& options);
    static bool exportChart(const KernelChartData& data, const GemmEfficiencyOptions& options, QSize size,
                            const QString& path, QString* error);

protected:
    QString populateExport(QChart* chart) const override { return populate(chart, m_data, m_options); }
    std::string exportCsv() const override { return gemmEfficiencyCsv(m_data, m_options); }
    QString exportName() const override { return QStringLiteral("gemm-efficiency"); }
    std::vector<std::int64_t> exportSessionIds() const override { return sessionIdsOf(m_data); }

private:
    void rebuild() override;
    void updateReadout();

    KernelChartData m_data;
    GemmEfficiencyOptions m_options;
    GemmEfficiencyGeometry m_geometry;
    QSpinBox* m_tileM;
    QSpinBox* m_tileN;
    QSpinBox* m_readoutValue;
    QLabel* m_readout;
};
} // namespace rl::charts
