#include "kernelview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QTabWidget>
#include <QVBoxLayout>

#include "gemmefficiencychart.h"
#include "membwchart.h"
#include "model/hardwareprofileloader.h"
#include "rooflinechart.h"

namespace rl {

KernelView::KernelView(QWidget* parent)
    : QWidget(parent), m_profile(new QComboBox), m_tabs(new QTabWidget), m_roofline(new charts::RooflineChart),
      m_gemm(new charts::GemmEfficiencyChart), m_membw(new charts::MemBwChart)
{
    m_profile->setObjectName(QStringLiteral("kernelProfile"));
    m_profile->setToolTip(tr("Draw this hardware profile's peaks and bandwidths as dashed ceilings next to the "
                             "measured ones, and use its compute units for the wave-quantisation prediction"));
    m_profile->addItem(tr("Measured ceilings only"), QString());
    try {
        for (const auto& hw : availableHardwareProfiles())
            m_profile->addItem(QString::fromStdString(hw.id + " — " + hw.name), QString::fromStdString(hw.id));
    } catch (const std::exception& e) {
        m_profile->setToolTip(QString::fromStdString(e.what()));
    }
    connect(m_profile, &QComboBox::currentIndexChanged, this,
            [this] { setHardwareProfile(m_profile->currentData().toString()); });

    m_tabs->addTab(m_roofline, tr("Roofline"));
    m_tabs->addTab(m_gemm, tr("GEMM efficiency"));
    m_tabs->addTab(m_membw, tr("Memory bandwidth"));
    m_tabs->setTabToolTip(0, tr("GFLOP/s against arithmetic intensity (FLOP/byte), log-log, with compute and "
                                "bandwidth ceilings"));
    m_tabs->setTabToolTip(1, tr("Achieved rate against the swept dimension, with the predicted wave quantisation"));
    m_tabs->setTabToolTip(2, tr("STREAM bandwidth against working-set size, cache levels marked"));

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Hardware profile:")));
    bar->addWidget(m_profile);
    bar->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_tabs, 1);
}

void KernelView::setHardwareProfile(const QString& id)
{
    std::optional<HardwareProfile> profile;
    if (!id.isEmpty()) {
        try {
            profile = findHardwareProfile(id.toStdString());
        } catch (const std::exception& e) {
            m_profile->setToolTip(QString::fromStdString(e.what()));
        }
    }
    const int index = m_profile->findData(id);
    if (index >= 0 && index != m_profile->currentIndex()) {
        const QSignalBlocker block(m_profile);
        m_profile->setCurrentIndex(index);
    }
    m_roofline->setHardwareProfile(profile);
    m_gemm->setHardwareProfile(profile);
}

void KernelView::setData(const charts::KernelChartData& data)
{
    m_roofline->setData(data);
    m_gemm->setData(data);
    m_membw->setData(data);
    bool gemm = false, membw = false, peak = false;
    for (const auto& s : data.sessions) {
        gemm = gemm || !s.gemm.empty();
        membw = membw || !s.membw.empty();
        peak = peak || !s.peakFlops.empty();
    }
    m_tabs->setTabEnabled(1, gemm);
    m_tabs->setTabEnabled(2, membw);
    // The tab that has something to say: memory bandwidth for a membw sweep alone, else the roofline.
    if (!m_tabs->isTabEnabled(m_tabs->currentIndex()) || (membw && !gemm && !peak))
        m_tabs->setCurrentIndex(membw && !gemm && !peak ? 2 : 0);
}
} // namespace rl
