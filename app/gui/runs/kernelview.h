#pragma once
// What the main window shows for kernel-benchmark sessions (gemm, membw, peakflops, and the PyTorch
// probe's attention): the roofline, GEMM efficiency against the swept dimension with the predicted
// wave quantisation, memory bandwidth against working-set size, and attention rates against
// sequence length, with a hardware profile to draw its ceilings (and published attention rates) next to the
// measured ones, a second profile to compare with, and a model config whose predicted GEMMs of one
// training step are drawn on the roofline.
#include <QWidget>

#include <cstdint>
#include <vector>

#include "views/kernelchartdata.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QTabWidget;

namespace rl {
namespace charts {
class AttentionChart;
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
    // A second profile overlaid on the roofline (dotted); empty for none.
    void setCompareProfile(const QString& id);
    // A preset (or empty) whose step GEMMs are predicted on the chosen profile, and its layout.
    void setModelGemms(const QString& preset, const QString& parallel = QStringLiteral("dp=8"));
    QString note() const;

    QTabWidget* tabs() const { return m_tabs; }
    charts::RooflineChart* roofline() const { return m_roofline; }
    charts::GemmEfficiencyChart* gemmEfficiency() const { return m_gemm; }
    charts::MemBwChart* memoryBandwidth() const { return m_membw; }
    charts::AttentionChart* attention() const { return m_attention; }

private:
    void updatePredicted();
    void chooseProfileOfDevice(const charts::KernelChartData& data);

    QComboBox* m_profile;
    QComboBox* m_compare;
    QComboBox* m_model;
    QLineEdit* m_parallel;
    QLabel* m_note;
    QTabWidget* m_tabs;
    charts::RooflineChart* m_roofline;
    charts::GemmEfficiencyChart* m_gemm;
    charts::MemBwChart* m_membw;
    charts::AttentionChart* m_attention;
    std::vector<std::int64_t> m_shownIds; // the sessions of the last setData
    bool m_profileChosen = false;         // the user picked a profile: no automatic choice after it
    QString m_autoProfile;                // the profile chosen from the sessions' device, if any
    QString m_profileTip;                 // the profile box's own tooltip
};
} // namespace rl
