#pragma once
// The launcher form shared by the benchmark dialogs and Preferences: how a benchmark's processes
// are started (launchsettings.h), with the Slurm batch job fields where the dialog offers them.
#include <QGroupBox>
#include <QList>
#include <QString>

#include "gui/runs/launchsettings.h"

class QCheckBox;
class QComboBox;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QWidget;

namespace rl {
class Settings;

class LauncherWidget : public QGroupBox
{
    Q_OBJECT
public:
    // `modes`: the launchers offered, in this order; `sbatch`: offer the Slurm batch job fields.
    LauncherWidget(const QList<LaunchSettings::Mode>& modes, bool sbatch, Settings* settings = nullptr,
                   QWidget* parent = nullptr);

    LaunchSettings launch() const;
    void setLaunch(const LaunchSettings& launch);

signals:
    void changed();

private:
    void updateEnabled();

    Settings* m_settings;
    QList<LaunchSettings::Mode> m_modes;
    QComboBox* m_launcher;
    QSpinBox* m_np;
    QLineEdit* m_hostfile;
    QWidget* m_browse;
    QLineEdit* m_mpirun;
    QLineEdit* m_mpirunOptions;
    QLineEdit* m_template;
    QSpinBox* m_nodes;
    QSpinBox* m_ppn;
    QCheckBox* m_sbatch = nullptr;
    QPlainTextEdit* m_sbatchOptions = nullptr;
    QLineEdit* m_sbatchDir = nullptr;
    QWidget* m_browseSbatchDir = nullptr;
};
} // namespace rl
