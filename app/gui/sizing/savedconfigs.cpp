#include "gui/sizing/savedconfigs.h"

#include <QComboBox>

#include "jobtracker.h"
#include "store/workspace.h"

namespace rl {
void loadSavedConfigs(JobTracker* job, const QString& path,
                      std::function<void(const std::vector<store::SavedModelConfig>&)> deliver)
{
    using Saved = std::vector<store::SavedModelConfig>;
    job->start<Saved>(
        [ws = path.toStdString()](auto&) -> Saved {
            try {
                store::Workspace w(ws);
                return store::savedModelConfigs(w.database());
            } catch (const std::exception&) {
                return {}; // an unreadable workspace is reported by the main window
            }
        },
        [deliver = std::move(deliver)](const Saved& saved) { deliver(saved); });
}

QStringList replaceSavedConfigs(QComboBox* box, int presetCount, const std::vector<store::SavedModelConfig>& saved)
{
    while (box->count() > presetCount)
        box->removeItem(presetCount);
    QStringList names;
    for (const auto& c : saved) {
        const QString name = QString::fromStdString(c.name);
        box->addItem(name, QString::fromStdString(c.json));
        box->setItemData(box->count() - 1,
                         QObject::tr("Saved in the workspace %1").arg(QString::fromStdString(c.saved)), Qt::ToolTipRole);
        names << name;
    }
    return names;
}
} // namespace rl
