#pragma once
// "New collective benchmark": the sweep, the ranks and the launcher, with a live read-only
// preview of the exact ridgeline-cli command that Run will start. With a Settings it opens with
// the configuration last run and stores the one it runs.
#include <QDialog>

#include "gui/runs/benchmarkconfig.h"

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace rl {
class CommandPreview;
class LauncherWidget;
class Settings;

class BenchmarkDialog : public QDialog
{
    Q_OBJECT
public:
    BenchmarkDialog(const QString& cliProgram, const QString& workspace, Settings* settings = nullptr,
                    QWidget* parent = nullptr);

    BenchmarkConfig config() const;
    void setConfig(const BenchmarkConfig& config);
    QString previewText() const;

    void done(int result) override; // an accepted (run) configuration is remembered

private:
    void updatePreview();

    QString m_cli;
    QString m_workspace;
    Settings* m_settings;
    QList<QCheckBox*> m_ops;
    QList<QCheckBox*> m_dtypes;
    QLineEdit* m_minBytes;
    QLineEdit* m_maxBytes;
    QSpinBox* m_factor;
    QComboBox* m_redop;
    QCheckBox* m_inPlace;
    QSpinBox* m_iterations;
    QSpinBox* m_warmup;
    LauncherWidget* m_launch;
    QLineEdit* m_title;
    QLabel* m_sweep;
    QLabel* m_problem;
    CommandPreview* m_preview;
    QDialogButtonBox* m_buttons;
};
} // namespace rl
