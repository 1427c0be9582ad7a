#pragma once
// The training-stack picker (model/framework.h) the Sizing, MoE explorer, Report and Plan forms
// share: one list, one tooltip, each item's data the name ridgeline-cli's --framework takes.
#include <QString>

#include "model/framework.h"

class QComboBox;

namespace rl {
QComboBox* newFrameworkCombo(const QString& objectName);
model::Framework frameworkOf(const QComboBox* box);
void setFramework(QComboBox* box, model::Framework f);
} // namespace rl
