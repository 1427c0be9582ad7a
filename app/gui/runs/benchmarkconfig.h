#pragma once
// What the "New collective benchmark" dialog asks for: the sweep as typed, and the runs::RunRequest
// it makes (whose arguments are the command the dialog previews and starts). Kept apart from the
// dialog so the command lines are testable without widgets.
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <cstdint>

#include "gui/runs/launchsettings.h"
#include "runs/runrequest.h"

namespace rl {

struct BenchmarkConfig
{
    QStringList ops{QStringLiteral("all_reduce")};
    QString minBytes = QStringLiteral("8");    // human units as in nccl-tests -b: 8, 1K, 256M
    QString maxBytes = QStringLiteral("128M"); // -e
    int factor = 2;                           // -f
    QStringList dtypes{QStringLiteral("float32")};
    QString redop = QStringLiteral("sum");
    bool inPlace = false;
    // 0 / -1: chosen per size by the runner's time budget, as IMB does (many calls for small
    // messages, few for large); a fixed -n 20 left the latency regime wrong by up to 15x.
    int iterations = 0;
    int warmup = -1;
    LaunchSettings launch; // local mpirun, a hostfile or a template; optionally as a Slurm batch job
    QString title;

    // Empty when valid, else what is wrong (for the dialog's message line).
    QString validate() const;
    // Message sizes of the sweep: minBytes, x factor, ... up to maxBytes. Empty when invalid.
    std::vector<std::int64_t> sizes() const;
    // Points the runner will report (runs::RunRequest::expectedPoints: the runner's own planning).
    int expectedPoints() const;

    // Arguments of `ridgeline-bench collectives` (after the subcommand, which ridgeline-cli adds).
    QStringList runnerArguments() const;
    // The run it asks for; its toCliArgs() after --db are the arguments of ridgeline-cli.
    runs::RunRequest request() const;
    QStringList cliArguments(const QString& workspace) const;

    // What the dialog remembers between runs (through Settings). Bump kJsonVersion when a field
    // changes meaning: fromJson() then returns the defaults rather than misreading an old config.
    static constexpr int kJsonVersion = 2; // 2: the launch in "launch"; 1 is still read
    QJsonObject toJson() const;
    // Missing or mistyped fields keep their defaults; another version gives the defaults.
    static BenchmarkConfig fromJson(const QJsonObject& json);
};

// A copy-pasteable shell form of a command line (single quotes where needed).
QString shellJoin(const QString& program, const QStringList& arguments);
// `ridgeline-cli --db WORKSPACE` + the request's arguments.
QStringList cliArguments(const QString& workspace, const runs::RunRequest& request);
} // namespace rl
