#include "gui/window/reportoptionsdialog.h"

#include <algorithm>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

#include "attentionkernelcombo.h"
#include "jobtracker.h"
#include "model/hardwareprofileloader.h"
#include "model/modelconfig.h"
#include "model/parallelconfig.h"
#include "gui/sizing/recipefields.h"
#include "gui/sizing/savedconfigs.h"
#include "settings.h"
#include "textconv.h"

namespace rl {
namespace {
const auto kHardware = QStringLiteral("hardware");
const auto kModel = QStringLiteral("model");
const auto kParallel = QStringLiteral("parallel");
const auto kSeqLen = QStringLiteral("seqLen");
const auto kAttention = QStringLiteral("attention");
} // namespace

ReportOptionsDialog::ReportOptionsDialog(Settings* settings, const QString& workspace, QWidget* parent)
    : QDialog(parent), m_settings(settings), m_hardware(new QComboBox), m_model(new QComboBox),
      m_parallel(new QLineEdit), m_seqLen(new QSpinBox), m_attention(new QComboBox), m_job(new JobTracker(this))
{
    setObjectName(QStringLiteral("reportOptions"));
    setWindowTitle(tr("Report options"));
    const QJsonObject last = m_settings->reportOptions();

    m_hardware->setObjectName(QStringLiteral("reportHardware"));
    m_hardware->setToolTip(tr("The device whose link, NIC and HBM ceilings the percentages and the roofline show, "
                              "and the model is sized on"));
    m_hardware->addItem(tr("None: each session's own device"), QString());
    try {
        for (const auto& hw : availableHardwareProfiles())
            m_hardware->addItem(qs(hw.id + " — " + hw.name), qs(hw.id));
    } catch (const std::exception& e) { // a broken user profile: the shipped ones are still worth listing
        m_hardware->setToolTip(qs(e.what()));
    }
    m_hardware->setCurrentIndex(std::max(0, m_hardware->findData(last.value(kHardware).toString())));

    // Editable: a config.json path works as on the command line.
    m_model->setObjectName(QStringLiteral("reportModel"));
    m_model->setEditable(true);
    m_model->setInsertPolicy(QComboBox::NoInsert);
    m_model->lineEdit()->setPlaceholderText(tr("None: no sizing section"));
    m_model->setToolTip(tr("A preset, a config saved in the workspace or the path of a config.json; empty for no "
                           "sizing section"));
    m_model->addItem(QString());
    for (const auto& name : model::presetNames())
        m_model->addItem(qs(name));
    const int presetCount = m_model->count();
    m_model->setCurrentText(last.value(kModel).toString());
    if (!workspace.isEmpty())
        loadSavedConfigs(m_job, workspace, [this, presetCount](const std::vector<store::SavedModelConfig>& saved) {
            const QString typed = m_model->currentText(); // replacing items must not change it
            replaceSavedConfigs(m_model, presetCount, saved);
            m_model->setCurrentText(typed);
        });

    m_parallel->setObjectName(QStringLiteral("reportParallel"));
    m_parallel->setText(last.value(kParallel).toString(qs(report::SizingChoice{}.parallel)));
    m_parallel->setToolTip(tr("The model's parallel degrees, e.g. dp=8,tp=8,pp=2: their product is the GPU count"));
    const model::ParallelConfig defaults = report::defaultRecipe();
    m_seqLen->setObjectName(QStringLiteral("reportSeqLen"));
    m_seqLen->setRange(1, 1 << 22);
    m_seqLen->setSuffix(tr(" tokens"));
    m_seqLen->setToolTip(tr("Training sequence length, as ridgeline-cli report --seq"));
    m_seqLen->setValue(last.value(kSeqLen).toInt(defaults.seqLen));
    m_attention->setObjectName(QStringLiteral("reportAttention"));
    m_attention->setToolTip(tr("The fused attention kernel the run uses, timed by its published measured rates on the "
                               "hardware profile, as ridgeline-cli report --attention; otherwise attention is timed "
                               "as GEMMs by shape"));

    auto* note = new QLabel(tr("The cluster template sizes the model on the device: step time, tokens/s, MFU and "
                               "memory per GPU, and its GEMMs on the device's roofline."));
    note->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* form = new QFormLayout(this);
    form->addRow(note);
    form->addRow(tr("Hardware profile:"), m_hardware);
    form->addRow(tr("Model:"), m_model);
    form->addRow(tr("Parallel layout:"), m_parallel);
    form->addRow(tr("Sequence length:"), m_seqLen);
    m_recipe = new RecipeFields(form, QStringLiteral("report"), this);
    m_recipe->set(defaults);
    m_recipe->fromJson(last); // the last choices; a key never saved keeps the default
    form->addRow(tr("Attention:"), m_attention);
    form->addRow(buttons);
    // The kernels are the profile's: relist them when it changes, and come back to the kernel last
    // chosen (by the user, or remembered) when the profile has it, also after one that has not.
    m_chosenAttention = last.value(kAttention).toString();
    const auto listKernels = [this] {
        listAttentionKernels(m_attention, m_hardware->currentData().toString());
        m_attention->setCurrentIndex(std::max(0, m_attention->findData(m_chosenAttention)));
    };
    listKernels();
    connect(m_hardware, &QComboBox::currentIndexChanged, this, listKernels);
    connect(m_attention, &QComboBox::activated, this,
            [this] { m_chosenAttention = m_attention->currentData().toString(); });
}

report::SizingChoice ReportOptionsDialog::choice() const
{
    report::SizingChoice c;
    c.hardware = m_hardware->currentData().toString().toStdString();
    c.model = m_model->currentText().trimmed().toStdString();
    c.parallel = m_parallel->text().trimmed().toStdString();
    c.recipe = report::defaultRecipe();
    c.recipe.seqLen = m_seqLen->value();
    m_recipe->applyTo(c.recipe);
    c.attention = m_attention->currentData().toString().toStdString();
    c.parallelField = tr("Parallel layout").toStdString();
    c.hardwareField = tr("a hardware profile").toStdString();
    return c;
}

void ReportOptionsDialog::accept()
{
    QJsonObject o = m_recipe->toJson();
    o.insert(kHardware, m_hardware->currentData().toString());
    o.insert(kModel, m_model->currentText().trimmed());
    o.insert(kParallel, m_parallel->text().trimmed());
    o.insert(kSeqLen, m_seqLen->value());
    o.insert(kAttention, m_attention->currentData().toString());
    m_settings->setReportOptions(o);
    QDialog::accept();
}
} // namespace rl
