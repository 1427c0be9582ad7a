#pragma once
// What the "New GPU tool benchmark" dialog asks for: the tool's flags as typed (nccl-tests' sizes,
// a GEMM bench's shapes), the launch, and the runs::RunRequest they make, whose arguments are the
// command the dialog previews and starts. Kept apart from the dialog, as BenchmarkConfig is, so the
// command lines and the remembered JSON are testable without widgets.
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include "gui/runs/launchsettings.h"
#include "runs/runrequest.h"

namespace rl {

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
} // namespace rl
