#include "gui/runs/kernelview.h"

#include <utility>

#include <QAbstractItemView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTabWidget>
#include <QVBoxLayout>

#include "attentionchart.h"
#include "model/measuredrun.h"
#include "gemmefficiencychart.h"
#include "membwchart.h"
#include "model/hardwareprofileloader.h"
#include "model/modelconfig.h"
#include "rooflinechart.h"

namespace rl {

KernelView::KernelView(QWidget* parent)
    : QWidget(parent), m_profile(new QComboBox), m_compare(new QComboBox), m_model(new QComboBox),
      m_parallel(new QLineEdit(QStringLiteral("dp=8"))), m_note(new QLabel), m_tabs(new QTabWidget),
      m_roofline(new charts::RooflineChart), m_gemm(new charts::GemmEfficiencyChart), m_membw(new charts::MemBwChart),
      m_attention(new charts::AttentionChart)
{
    m_profile->setObjectName(QStringLiteral("kernelProfile"));
    m_profile->setToolTip(tr("Draw this hardware profile's peaks and bandwidths as dashed ceilings next to the "
                             "measured ones, its published attention rates next to the measured ones, and use "
                             "its compute units for the wave-quantisation prediction"));
    m_profile->addItem(tr("Measured ceilings only"), QString());
    m_profileTip = m_profile->toolTip();
    m_compare->setObjectName(QStringLiteral("kernelCompareProfile"));
    m_compare->setToolTip(tr("A second hardware profile drawn dotted on the roofline, e.g. MI300X against H100"));
    m_compare->addItem(tr("No second profile"), QString());
    try {
        for (const auto& hw : availableHardwareProfiles())
            for (auto* box : {m_profile, m_compare})
                box->addItem(QString::fromStdString(hw.id + " — " + hw.name), QString::fromStdString(hw.id));
    } catch (const std::exception& e) {
        m_profile->setToolTip(QString::fromStdString(e.what()));
    }
    m_model->setObjectName(QStringLiteral("kernelModel"));
    m_model->setToolTip(tr("Draw this model's GEMMs of one training step per GPU, as the sizing model predicts "
                           "them on the chosen hardware profile (stars on the roofline)"));
    m_model->addItem(tr("No model GEMMs"), QString());
    for (const auto& name : model::presetNames())
        m_model->addItem(QString::fromStdString(name), QString::fromStdString(name));
    m_parallel->setObjectName(QStringLiteral("kernelParallel"));
    m_parallel->setToolTip(tr("Parallel layout of the model's step, e.g. dp=8,tp=8 (TP splits the GEMMs)"));
    m_parallel->setMaximumWidth(140);
    m_parallel->setMinimumWidth(80);
    // Sized to their longest item ("h100-sxm — NVIDIA H100 SXM5 80GB ...") the combos made this bar,
    // and with it the main window, wider than the screen whenever the kernel view was built; the
    // open list still shows the full names. At 14 characters each the bar still held the window at
    // 1388 px, past a 1280x720 screen; 10 shows "h100-sxm" and "llama-3-70b" whole.
    for (QComboBox* box : {m_profile, m_compare, m_model}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(10);
        box->view()->setMinimumWidth(box->view()->sizeHintForColumn(0) + 20);
    }
    m_note->setObjectName(QStringLiteral("kernelNote"));
    // A long note (an error naming a file) wraps instead of widening the window.
    m_note->setWordWrap(true);
    m_note->setMinimumWidth(60);
    connect(m_profile, &QComboBox::currentIndexChanged, this,
            [this] { setHardwareProfile(m_profile->currentData().toString()); });
    connect(m_profile, &QComboBox::activated, this, [this] { m_profileChosen = true; });
    connect(m_compare, &QComboBox::currentIndexChanged, this,
            [this] { setCompareProfile(m_compare->currentData().toString()); });
    connect(m_model, &QComboBox::currentIndexChanged, this, &KernelView::updatePredicted);
    connect(m_parallel, &QLineEdit::editingFinished, this, &KernelView::updatePredicted);

    m_tabs->addTab(m_roofline, tr("Roofline"));
    m_tabs->addTab(m_gemm, tr("GEMM efficiency"));
    m_tabs->addTab(m_membw, tr("Memory bandwidth"));
    m_tabs->addTab(m_attention, tr("Attention"));
    m_tabs->setTabToolTip(0, tr("GFLOP/s against arithmetic intensity (FLOP/byte), log-log, with compute and "
                                "bandwidth ceilings"));
    m_tabs->setTabToolTip(1, tr("Achieved rate against the swept dimension, with the predicted wave quantisation"));
    m_tabs->setTabToolTip(2, tr("STREAM bandwidth against working-set size, cache levels marked"));
    m_tabs->setTabToolTip(3, tr("scaled_dot_product_attention TFLOP/s per backend against sequence length (PyTorch "
                                "probe), with a profile's published rates dashed"));

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Hardware profile:")));
    bar->addWidget(m_profile);
    bar->addWidget(new QLabel(tr("compare with:")));
    bar->addWidget(m_compare);
    bar->addWidget(new QLabel(tr("Model GEMMs:")));
    bar->addWidget(m_model);
    bar->addWidget(m_parallel);
    bar->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_note); // below the bar: beside it, it kept the window past 1280 px
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
    m_attention->setHardwareProfile(profile);
    updatePredicted(); // predicted on this profile
}

void KernelView::setCompareProfile(const QString& id)
{
    std::optional<HardwareProfile> profile;
    if (!id.isEmpty()) {
        try {
            profile = findHardwareProfile(id.toStdString());
        } catch (const std::exception& e) {
            m_note->setText(QString::fromStdString(e.what()));
        }
    }
    if (const int index = m_compare->findData(id); index >= 0 && index != m_compare->currentIndex()) {
        const QSignalBlocker block(m_compare);
        m_compare->setCurrentIndex(index);
    }
    m_roofline->setCompareProfile(profile);
}

void KernelView::setModelGemms(const QString& preset, const QString& parallel)
{
    const QSignalBlocker block(m_model);
    m_model->setCurrentIndex(std::max(0, m_model->findData(preset)));
    m_parallel->setText(parallel);
    updatePredicted();
}

QString KernelView::note() const { return m_note->text(); }

void KernelView::updatePredicted()
{
    m_note->clear();
    const QString preset = m_model->currentData().toString();
    const QString hardware = m_profile->currentData().toString();
    if (preset.isEmpty()) {
        m_roofline->setPredictedGemms(std::nullopt);
        return;
    }
    if (hardware.isEmpty()) {
        m_roofline->setPredictedGemms(std::nullopt);
        m_note->setText(tr("Choose a hardware profile to predict %1's GEMMs on.").arg(preset));
        return;
    }
    try {
        const auto config = model::loadPreset(preset.toStdString());
        const auto p = model::parallelLayout(config, m_parallel->text().trimmed().toStdString(), {});
        // No measurement: GEMM efficiency by shape, capped at max-achievable (model::GemmTiming).
        m_roofline->setPredictedGemms(
            charts::predictedGemms(config, p, findHardwareProfile(hardware.toStdString()), model::GemmTiming{}));
    } catch (const std::exception& e) {
        m_roofline->setPredictedGemms(std::nullopt);
        m_note->setText(QString::fromStdString(e.what()));
    }
}

// A GPU session without ceilings of its own draws its points under no roof at all: until the user
// picks a profile, the one of the device the sessions name (the probe's "NVIDIA H200", a tool's
// title) is chosen, and the note says so. A CPU session, or one naming no known GPU, keeps
// "Measured ceilings only".
void KernelView::chooseProfileOfDevice(const charts::KernelChartData& data)
{
    const QString current = m_profile->currentData().toString();
    if (m_profileChosen || data.sessions.empty() || (!current.isEmpty() && current != m_autoProfile))
        return; // the user's choice (or the caller's) stays
    std::vector<std::string> ids;
    for (int i = 0; i < m_profile->count(); ++i)
        if (const QString id = m_profile->itemData(i).toString(); !id.isEmpty())
            ids.push_back(id.toStdString());
    std::string device;
    for (const auto& s : data.sessions) {
        const auto& p = s.session.params;
        const std::string named = p.is_object() && p.contains("device_name") && p["device_name"].is_string()
                                      ? p["device_name"].get<std::string>()
                                      : std::string();
        const std::string found = model::deviceInText(named + " " + s.session.title);
        if (found.empty() || (!device.empty() && found != device)) { // none, or two: the user chooses
            device.clear();
            break;
        }
        device = found;
    }
    const QString id = device.empty() ? QString() : QString::fromStdString(model::matchHardwareProfile(device, ids));
    m_autoProfile = id;
    if (id != current)
        setHardwareProfile(id);
    // Said on the box, not in the note: the bar has no room for a sentence (the roofs name the device).
    m_profile->setToolTip(id.isEmpty() ? m_profileTip
                                       : m_profileTip + u'\n'
                              + tr("Chosen for the device the sessions name (%1); pick another to compare.")
                                    .arg(QString::fromStdString(device)));
}

void KernelView::setData(const charts::KernelChartData& data)
{
    m_roofline->setData(data);
    m_gemm->setData(data);
    m_membw->setData(data);
    m_attention->setData(data);
    bool gemm = false, membw = false, peak = false, traced = false;
    for (const auto& s : data.sessions) {
        gemm = gemm || !s.gemm.empty();
        membw = membw || !s.membw.empty();
        peak = peak || !s.peakFlops.empty();
        traced = traced || !s.traceKernels.empty();
    }
    const bool attention = m_attention->hasPoints();
    m_tabs->setTabEnabled(1, gemm);
    m_tabs->setTabEnabled(2, membw);
    m_tabs->setTabEnabled(3, attention);
    // Attention rates alone have no point on the roofline: an empty one would say nothing.
    const bool onlyAttention = attention && !gemm && !peak && !membw && !traced;
    m_tabs->setTabEnabled(0, !onlyAttention);
    // The tab that has something to say for a new selection: memory bandwidth for a membw sweep
    // alone, attention for attention rates alone (the roofline has no point of theirs), else the
    // roofline. The same sessions read again (a preference applied, a run's new points) keep the
    // tab the user chose: a theme switch moved them off the roofline.
    std::vector<std::int64_t> ids;
    for (const auto& s : data.sessions)
        ids.push_back(s.session.id);
    const bool sameSessions = std::exchange(m_shownIds, ids) == ids;
    if (!sameSessions)
        chooseProfileOfDevice(data);
    const bool onlyMembw = membw && !gemm && !peak && !attention;
    if (!m_tabs->isTabEnabled(m_tabs->currentIndex()) || (!sameSessions && (onlyMembw || onlyAttention)))
        m_tabs->setCurrentIndex(onlyMembw ? 2 : onlyAttention ? 3 : 0);
}
} // namespace rl
