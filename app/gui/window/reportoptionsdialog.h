#pragma once
// File > Report…'s "Report options" for the cluster template: the hardware profile whose ceilings
// the percentages and the roofline show, and a model sized on it in a parallel layout with a
// training recipe and attention kernel (what `ridgeline-cli report --hardware --model --parallel`
// and `size`'s recipe options take). All optional: no model, no sizing section. The last choices
// come back from Settings.
#include <QDialog>

#include "report/reportsizing.h"

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace rl {
class JobTracker;
class RecipeFields;
class Settings;

class ReportOptionsDialog : public QDialog
{
    Q_OBJECT
public:
    // workspace: where the saved model configs are listed from (read on a worker).
    ReportOptionsDialog(Settings* settings, const QString& workspace, QWidget* parent = nullptr);

    // What the worker sizes: empty hardware / model where "none" is chosen.
    report::SizingChoice choice() const;
    void accept() override; // remembers the choices in Settings

private:
    Settings* m_settings;
    QComboBox* m_hardware;
    QComboBox* m_model;
    QLineEdit* m_parallel;
    QSpinBox* m_seqLen;
    RecipeFields* m_recipe;
    QComboBox* m_attention;
    QString m_chosenAttention; // what the user picked (or Settings had), kept across profile changes
    JobTracker* m_job;
};
} // namespace rl
