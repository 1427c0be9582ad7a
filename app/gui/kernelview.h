#pragma once
// What the main window shows for kernel-benchmark sessions (gemm, membw, peakflops): the roofline,
// GEMM efficiency against the swept dimension with the predicted wave quantisation, and memory
// bandwidth against working-set size, with a hardware profile to draw its ceilings next to the
// measured ones.
#include <QWidget>

#include "kernelchartdata.h"

class QComboBox;
class QTabWidget;

namespace rl {
namespace charts {
class GemmEfficiencyChart;
class MemBwChart;
class RooflineChart;
}

class KernelView : public QWidget
{
    Q_OBJECT
public:
    explicit KernelView(QWidget* parent = nullptr);

    void setData(const charts::KernelChartData& data);
    // A profile id from availableHardwareProfiles(), or empty for the measured ceilings only.
    void setHardwareProfile(const QString& id);

    QTabWidget* tabs() const { return m_tabs; }
    charts::RooflineChart* roofline() const { return m_roofline; }
    charts::GemmEfficiencyChart* gemmEfficiency() const { return m_gemm; }
    charts::MemBwChart* memoryBandwidth() const { return m_membw; }

private:
    QComboBox* m_profile;
    QTabWidget* m_tabs;
    charts::RooflineChart* m_roofline;
    charts::GemmEfficiencyChart* m_gemm;
    charts::MemBwChart* m_membw;
};
} // namespace rl
