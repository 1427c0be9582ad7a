#include "gui/sizing/frameworkcombo.h"

#include <QComboBox>

namespace rl {
QComboBox* newFrameworkCombo(const QString& objectName)
{
    auto* box = new QComboBox;
    box->setObjectName(objectName);
    for (int i = 0; i < model::kFrameworks; ++i)
        box->addItem(QLatin1String(model::displayName(model::Framework(i))),
                     QLatin1String(model::toString(model::Framework(i))));
    box->setToolTip(QComboBox::tr(
        "The training stack that runs the layout (--framework): how ZeRO-3 gathers and reduces (Megatron-FSDP "
        "and FSDP a layer at a time, DeepSpeed each weight matrix, torchtitan reducing gradients in fp32), "
        "DeepSpeed's fp32 gradient buffers under bf16, and whose published runs give the error band"));
    return box;
}

model::Framework frameworkOf(const QComboBox* box)
{
    return model::parseFramework(box->currentData().toString().toStdString()).value_or(model::Framework::MegatronCore);
}

void setFramework(QComboBox* box, model::Framework f) { box->setCurrentIndex(box->findData(QLatin1String(model::toString(f)))); }
} // namespace rl
