#pragma once
// What the "New collective benchmark" dialog asks for, and the ridgeline-cli command it becomes.
// Kept apart from the dialog so the command lines are testable without widgets.
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <cstdint>

namespace rl {

struct BenchmarkConfig
{
    enum class Launcher { LocalMpirun, Hostfile, Template };

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
    int np = 2;
    Launcher launcher = Launcher::LocalMpirun;
    QString hostfile;
    QString mpirun;        // the mpirun program; empty: mpirun on PATH
    QString mpirunOptions; // extra mpirun arguments, whitespace separated (e.g. --oversubscribe)
    QString launchTemplate = QStringLiteral("srun -N {nodes} --ntasks-per-node {ppn} {bench}");
    int nodes = 1;
    int ppn = 2;
    QString title;

    // Empty when valid, else what is wrong (for the dialog's message line).
    QString validate() const;
    // Message sizes of the sweep: minBytes, x factor, ... up to maxBytes. Empty when invalid.
    std::vector<std::int64_t> sizes() const;
    // Points the runner will report: ops x sizes x dtypes (x 2 with in-place: both variants).
    int expectedPoints() const;

    // Arguments of `ridgeline-bench collectives` (after the subcommand, which ridgeline-cli adds).
    QStringList runnerArguments() const;
    // Arguments of ridgeline-cli (without the program itself).
    QStringList cliArguments(const QString& workspace) const;

    // What the dialog remembers between runs (through Settings). Bump kJsonVersion when a field
    // changes meaning: fromJson() then returns the defaults rather than misreading an old config.
    static constexpr int kJsonVersion = 1;
    QJsonObject toJson() const;
    // Missing or mistyped fields keep their defaults; another version gives the defaults.
    static BenchmarkConfig fromJson(const QJsonObject& json);
};

// A copy-pasteable shell form of a command line (single quotes where needed).
QString shellJoin(const QString& program, const QStringList& arguments);
} // namespace rl
