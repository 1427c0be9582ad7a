#include "attentionkernelcombo.h"

#include <algorithm>

#include <QComboBox>
#include <QCoreApplication>

#include "model/hardwareprofileloader.h"
#include "textconv.h"

namespace rl {
void listAttentionKernels(QComboBox* box, const QString& hardwareId)
{
    const QString kept = box->currentData().toString();
    box->clear();
    box->addItem(QCoreApplication::translate("rl::AttentionKernels", "By GEMM shape"), QString());
    try {
        for (const auto& [name, k] : findHardwareProfile(hardwareId.toStdString()).attentionKernels)
            box->addItem(qs(name), qs(name));
    } catch (const std::exception&) {
        // An unknown profile: nothing measured to offer.
    }
    box->setEnabled(box->count() > 1);
    box->setCurrentIndex(std::max(0, box->findData(kept)));
}
} // namespace rl
