#pragma once
// GEMM efficiency along the dimension a session sweeps: achieved GFLOP/s (or % of the measured
// peak) per session and dtype, with the wave-quantisation efficiency model/wavequantization.h
// predicts for a hardware profile's CU count and a tile shape (editable above the chart) overlaid as
// a dashed sawtooth, and a "nearest fast size" readout for a typed value of the swept dimension.
// A thin view: the numbers come from kernelchartdata.h.
#include <QSize>
#include <QWidget>

#include "chartimage.h"
#include "kernelchartdata.h"

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QLabel;
class QPushButton;
class QSpinBox;
QT_END_NAMESPACE

namespace rl::charts {

class Callout;

class GemmEfficiencyChart : public QWidget
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
    void setExportSize(QSize size);
    const GemmEfficiencyOptions& options() const { return m_options; }
    QString title() const;
    QString hoverText() const;
    // The "nearest fast size" readout for a value of the swept dimension (the spin box next to it).
    void setReadoutValue(std::int64_t value);
    QString readoutText() const;

    bool exportTo(const QString& path, QString* error) const;

    static QString populate(QChart* chart, const KernelChartData& data, const GemmEfficiencyOptions& options);
    static bool exportChart(const KernelChartData& data, const GemmEfficiencyOptions& options, QSize size,
                            const QString& path, QString* error);

    QChart* chart() const { return m_chart; } // for tests

private:
    void rebuild();
    void updateReadout();

    KernelChartData m_data;
    GemmEfficiencyOptions m_options;
    GemmEfficiencyGeometry m_geometry;
    QSize m_exportSize{1200, 800};
    QChart* m_chart;
    QChartView* m_view;
    Callout* m_callout;
    QPushButton* m_export;
    QSpinBox* m_tileM;
    QSpinBox* m_tileN;
    QSpinBox* m_readoutValue;
    QLabel* m_readout;
};
} // namespace rl::charts
