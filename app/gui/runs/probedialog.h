#pragma once
// "New PyTorch probe run": ridgeline-probe (GEMM, memory bandwidth, attention, collectives or a
// training step through PyTorch, on any GPU node or the CPU) as a form over a runs::RunRequest of
// kind Probe. The request's arguments are the command the preview shows and Run starts; what the
// form gets wrong is said by RunRequest::validate(), as the CLI would say it. On opening, the
// dialog asks the probe (in the background) which PyTorch and device it finds here.
#include <QDialog>
#include <QString>

#include "runs/runrequest.h"

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace rl {
class CommandPreview;
class LauncherWidget;
struct LaunchSettings;
class Settings;

class ProbeDialog : public QDialog
{
    Q_OBJECT
public:
    ProbeDialog(const QString& cliProgram, const QString& workspace, Settings* settings = nullptr,
                QWidget* parent = nullptr);
    ~ProbeDialog() override;

    runs::RunRequest request() const;
    void setRequest(const runs::RunRequest& request);
    // How the probe is launched, e.g. what the GPU tool dialog had chosen when it offered the probe.
    void setLaunch(const LaunchSettings& launch);
    QStringList cliArguments() const;
    QString previewText() const;
    QString problem() const;       // why Run is disabled; empty when it is not
    QString pytorchStatus() const; // what the probe found here (PyTorch, device), or why it could not run

    // $RIDGELINE_PROBE, else ridgeline-probe next to the GUI (installed), in the build tree, or on PATH.
    static QString findProbe();
    // The probe subcommand's options a new form starts with.
    static QString defaultOptions(const QString& probe);

    void done(int result) override; // an accepted (run) request is remembered

signals:
    void pytorchChecked(); // pytorchStatus() is final

private:
    void checkPytorch();
    void updatePreview();

    QString m_cli;
    QString m_workspace;
    Settings* m_settings;
    QComboBox* m_what;
    QLineEdit* m_options;
    QComboBox* m_device;
    QLabel* m_torch;
    LauncherWidget* m_launch;
    QPlainTextEdit* m_environment;
    QSpinBox* m_pointTimeout;
    QLineEdit* m_title;
    QLabel* m_problem;
    CommandPreview* m_preview;
    QDialogButtonBox* m_buttons;
    QString m_lastDefault; // the options text the last probe choice filled in
};
} // namespace rl
