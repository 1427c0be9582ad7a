#pragma once
// The workspace's saved model configurations in a model-picker combo box: read on a worker, put
// after the box's presets. Shared by the config editor and the predicted-vs-measured panel.
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

#include "store/modelconfigs.h"

class QComboBox;

namespace rl {
class JobTracker;

// Reads the saved configurations of the workspace at `path` on job's worker; `deliver` gets them on
// the GUI thread (none when the workspace cannot be read: the main window reports that).
void loadSavedConfigs(JobTracker* job, const QString& path,
                      std::function<void(const std::vector<store::SavedModelConfig>&)> deliver);

// Replaces the items after the first presetCount with `saved` (name, JSON as item data, when it
// was saved as the tooltip) and returns their names.
QStringList replaceSavedConfigs(QComboBox* box, int presetCount, const std::vector<store::SavedModelConfig>& saved);
} // namespace rl
