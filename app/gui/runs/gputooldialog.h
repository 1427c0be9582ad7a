#pragma once
// "New GPU tool benchmark": the benchmark tools users already have (nccl-tests / rccl-tests,
// hipblaslt-bench, rocblas-bench) run through `ridgeline-cli run nccl-tests|hipblaslt|rocblas`,
// which stores and echoes every point as the tool prints it (RunController reads that stream).
// The tool's location and version come from the tools registry (tools.json, shared with
// `ridgeline-cli tools`); a missing tool's folder can be added here.
#include <QDialog>
#include <QList>
#include <QString>
#include <QStringList>

#include "gui/runs/gputoolconfig.h"
#include "gui/runs/launcherwidget.h"

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QStackedWidget;

namespace rl {
class CommandPreview;
class ProbeOffer;
class Settings;

class GpuToolDialog : public QDialog
{
    Q_OBJECT
public:
    // The result when the user took the PyTorch probe instead (the line at the top): the caller
    // opens the probe dialog with config().launch.
    static constexpr int ProbeRequested = 2;

    GpuToolDialog(const QString& cliProgram, const QString& workspace, Settings* settings = nullptr,
                  QWidget* parent = nullptr);

    GpuToolConfig config() const;
    void setConfig(const GpuToolConfig& config);
    QString previewText() const;
    QString problem() const; // why Run is disabled; empty when it is not
    // Adds a folder to the tools registry (tools.json) and looks for the tools again; what the
    // "Add folder…" button does after its folder dialog. Returns an error message or empty.
    QString addToolFolder(const QString& folder);

    void done(int result) override; // an accepted (run) configuration is remembered

private:
    // The form's parts, in the order the constructor lays them out.
    QGroupBox* buildToolBox();         // the tool and where it was found
    QWidget* buildNcclPage();          // nccl-tests / rccl-tests flags
    QWidget* buildGemmPage();          // hipblaslt-bench / rocblas-bench shapes
    QFormLayout* buildCommonFields();  // environment, tool flags, launch, point timeout, title
    void refreshTool();
    void askVersion();
    void updatePreview();

    QString m_cli;
    QString m_workspace;
    Settings* m_settings;
    bool m_toolFound = false;
    QString m_toolError;
    ProbeOffer* m_probe;
    QStringList m_availableOps; // empty: not known (tool not found)
    // tool
    QComboBox* m_tool;
    QLabel* m_toolLocation;
    QPushButton* m_addFolder;
    QPushButton* m_askVersion;
    QStackedWidget* m_pages;
    // nccl-tests
    QList<QCheckBox*> m_ops;
    QLineEdit* m_minBytes;
    QLineEdit* m_maxBytes;
    QComboBox* m_stepMode;
    QSpinBox* m_factor;
    QLineEdit* m_increment;
    QSpinBox* m_gpus;
    QSpinBox* m_iters;
    QSpinBox* m_warmup;
    QComboBox* m_dtype;
    QComboBox* m_redop;
    QCheckBox* m_check;
    QCheckBox* m_blocking;
    QSpinBox* m_graph;
    // GEMM
    QComboBox* m_gemmDtype;
    QComboBox* m_recipe;
    QLineEdit* m_shapes;
    QLineEdit* m_squareFrom;
    QLineEdit* m_squareTo;
    QSpinBox* m_cus;
    QComboBox* m_modelConfig;
    QLineEdit* m_parallel;
    QSpinBox* m_gemmIters;
    QSpinBox* m_coldIters;
    // both
    QPlainTextEdit* m_environment;
    QLineEdit* m_extraArgs;
    LauncherWidget* m_launch;
    QSpinBox* m_pointTimeout;
    QLineEdit* m_title;
    QLabel* m_summary;
    QLabel* m_problem;
    CommandPreview* m_preview;
    QDialogButtonBox* m_buttons;
};
} // namespace rl
