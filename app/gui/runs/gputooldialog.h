#pragma once
// "New GPU tool benchmark": the benchmark tools users already have (nccl-tests / rccl-tests,
// hipblaslt-bench, rocblas-bench) run through `ridgeline-cli run nccl-tests|hipblaslt|rocblas`,
// which stores and echoes every point as the tool prints it (RunController reads that stream).
// The tool's location and version come from the tools registry (tools.json, shared with
// `ridgeline-cli tools`); a missing tool's folder can be added here.
#include <QDialog>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include "gui/runs/launcherwidget.h"
#include "runs/runrequest.h"

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
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

struct GpuToolConfig
{
    QString tool = QStringLiteral("nccl-tests"); // the registry id: nccl-tests, hipblaslt-bench, rocblas-bench
    // nccl-tests / rccl-tests: the tool's own flags
    QStringList ops{QStringLiteral("all_reduce")};
    QString minBytes = QStringLiteral("8");    // -b
    QString maxBytes = QStringLiteral("128M"); // -e
    bool useIncrement = false;                 // -i instead of -f
    int factor = 2;                            // -f
    QString increment = QStringLiteral("1M");  // -i
    int gpus = 1;                              // -g
    int iters = 20;                            // -n
    int warmup = 5;                            // -w
    QString dtype = QStringLiteral("float");   // -d
    QString redop = QStringLiteral("sum");     // -o
    bool check = true;                         // -c
    bool blocking = false;                     // -z
    int graph = 0;                             // -G (CUDA/HIP graph launches; 0 = off)
    // hipblaslt-bench / rocblas-bench
    enum class Recipe { Shapes, Square, MaxAchievable, Model };
    QString gemmDtype = QStringLiteral("bf16");
    Recipe recipe = Recipe::Square;
    QString shapes = QStringLiteral("4096x4096x4096"); // MxNxK[xTT], comma / space / line separated
    QString squareFrom = QStringLiteral("256"), squareTo = QStringLiteral("16384");
    int cus = 304;
    QString modelConfig = QStringLiteral("llama-3-8b");
    QString parallel = QStringLiteral("tp=1,pp=1,dp=8");
    int gemmIters = 0, coldIters = 0; // 0: the tool's default
    // both
    QString environment; // NAME=VALUE per line (# starts a comment)
    QString extraArgs;   // more flags for the tool, whitespace separated
    LaunchSettings launch = [] {
        LaunchSettings l;
        l.mode = LaunchSettings::Mode::Local;
        l.np = 1;
        return l;
    }();
    int pointTimeout = 300; // seconds without output after which the tool counts as hung
    QString title;

    bool isNcclTests() const { return tool == QLatin1String("nccl-tests"); }
    runs::RunKind kind() const;
    QString subcommand() const; // of `ridgeline-cli run`
    // Empty when valid, else what is wrong (for the dialog's message line).
    QString validate() const;
    QStringList environmentList() const; // NAME=VALUE, in order
    QStringList shapeList() const;
    // Points the CLI will report: ops x sizes x 2 (out-of-place and in-place) for nccl-tests, one
    // per shape for the GEMM benches; 0 when not known beforehand (the model recipe: the CLI says).
    int expectedPoints() const;
    // The run the form asks for; after --db, its arguments are what the preview shows and Run starts.
    runs::RunRequest request() const;
    QStringList cliArguments(const QString& workspace) const;

    static constexpr int kJsonVersion = 1;
    QJsonObject toJson() const;
    static GpuToolConfig fromJson(const QJsonObject& json); // another version: the defaults
};

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
