#include "reportoptionsdialog.h"

#include <algorithm>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>

#include "jobtracker.h"
#include "model/hardwareprofileloader.h"
#include "model/modelconfig.h"
#include "model/parallelconfig.h"
#include "savedconfigs.h"
#include "settings.h"
#include "textconv.h"

namespace rl {
namespace {
const auto kHardware = QStringLiteral("hardware");
const auto kModel = QStringLiteral("model");
const auto kParallel = QStringLiteral("parallel");
const auto kDtype = QStringLiteral("dtype");
} // namespace

ReportOptionsDialog::ReportOptionsDialog(Settings* settings, const QString& workspace, QWidget* parent)
    : QDialog(parent), m_settings(settings), m_hardware(new QComboBox), m_model(new QComboBox),
      m_parallel(new QLineEdit), m_dtype(new QComboBox), m_job(new JobTracker(this))
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
    m_dtype->setObjectName(QStringLiteral("reportDtype"));
    m_dtype->addItems(qs(model::gemmDtypes()));
    m_dtype->setToolTip(tr("The dtype of the model's GEMMs, as ridgeline-cli report --dtype"));
    m_dtype->setCurrentText(last.value(kDtype).toString(qs(report::SizingChoice{}.dtype)));

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
    form->addRow(tr("GEMM dtype:"), m_dtype);
    form->addRow(buttons);
}

report::SizingChoice ReportOptionsDialog::choice() const
{
    report::SizingChoice c;
    c.hardware = m_hardware->currentData().toString().toStdString();
    c.model = m_model->currentText().trimmed().toStdString();
    c.parallel = m_parallel->text().trimmed().toStdString();
    c.dtype = m_dtype->currentText().toStdString();
    c.parallelField = tr("Parallel layout").toStdString();
    c.hardwareField = tr("a hardware profile").toStdString();
    return c;
}

void ReportOptionsDialog::accept()
{
    m_settings->setReportOptions({{kHardware, m_hardware->currentData().toString()},
                                  {kModel, m_model->currentText().trimmed()},
                                  {kParallel, m_parallel->text().trimmed()},
                                  {kDtype, m_dtype->currentText()}});
    QDialog::accept();
}
} // namespace rl
