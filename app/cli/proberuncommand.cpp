// ridgeline-cli run probe --probe gemm|membw|attention|collectives|step [launch options] [--env N=V]
//                         -- <the probe subcommand's options>
// ridgeline-probe (app/probe: Python + PyTorch, CUDA, ROCm or the CPU) launched like any run - here,
// under mpirun or a launcher template, in a Slurm job - with its JSON lines stored as they arrive
// (runAndStore). GEMM, memory-bandwidth and collective points go to their tables; attention rates,
// step times and what the probe skipped (and why) are kept in the session's parameters. A `step`
// run's profiler trace is imported as a trace session of its own, named in the step session.
#include <filesystem>
#include <iostream>
#include <unistd.h>

#include "clicommands.h"
#include "runoptions.h"
#include "records/keptrecords.h"
#include "runs/runrequest.h"
#include "runsession.h"
#include "store/fileimport.h"

namespace rl::cli {
namespace {
namespace fs = std::filesystem;
using runs::RunRequest;


// Where a step's trace goes when the user names none: a folder of its own, removed once imported.
// Only for launches whose processes share this machine's /tmp.
struct TraceFile
{
    fs::path dir;
    std::string path;
    explicit TraceFile(const RunRequest& r)
    {
        const bool here = r.launch.mode == runs::Launch::Mode::Local || r.launch.mode == runs::Launch::Mode::LocalMpirun;
        if (r.probe != "step" || runs::optionValue(r.args, "--trace") || !here || r.launch.sbatch.use)
            return;
        std::string tmpl = (fs::temp_directory_path() / "ridgeline-probe-XXXXXX").string();
        if (mkdtemp(tmpl.data()) == nullptr)
            return;
        dir = tmpl;
        path = (dir / "step.trace.json").string();
    }
    ~TraceFile()
    {
        std::error_code ec;
        if (!dir.empty())
            fs::remove_all(dir, ec);
    }
};

// Keeps a record the store has no table for in the session's parameters (records/keptrecords.h).
void keep(RunSession& run, const wire::RawRecord& raw)
{
    nlohmann::json params = run.session().params;
    keepRecord(params, raw);
    run.setParams(params);
}

int runProbe(const CliContext& ctx, const RunCommandLine& cl)
{
    const RunRequest& r = cl.request;
    TraceFile trace(r);
    std::vector<std::string> command{r.program.empty() ? findSibling("ridgeline-probe", "probe") : r.program, r.probe};
    command.insert(command.end(), r.args.begin(), r.args.end());
    if (!runs::optionValue(r.args, "--point-timeout"))
        command.insert(command.end(), {"--point-timeout", std::to_string(static_cast<int>(r.pointTimeout()))});
    if (!trace.path.empty())
        command.insert(command.end(), {"--trace", trace.path});
    const auto argv = launchArgv(r, command);
    if (cl.dryRun) {
        std::cout << displayCommand(argv) << '\n';
        return 0;
    }
    exportEnvironment(r);
    Session s;
    s.kind = runs::probeSessionKind(r.probe);
    s.tool = "ridgeline-probe";
    s.toolVersion = RIDGELINE_VERSION;
    s.title = r.title.empty() ? "PyTorch " + r.probe + ", " + std::to_string(r.launch.np) +
                                    (r.launch.np == 1 ? " process" : " processes")
                              : r.title;
    s.params = {{"launcher", runs::modeName(r.launch.mode)}, {"np", r.launch.np}, {"probe", r.probe},
                {"probe_args", r.args}, {"request", runs::toJson(r.canonical())}};
    const auto onRaw = [&](RunSession& run, const wire::RawRecord& raw) {
        if (raw.record == "skipped") {
            std::cerr << "ridgeline-probe: skipped " << raw.object.value("what", std::string()) << ": "
                      << raw.object.value("reason", std::string()) << '\n';
            keep(run, raw);
        } else if (raw.record == "step_summary") {
            nlohmann::json params = run.session().params;
            keepRecord(params, raw);
            const std::string file = raw.object.value("trace", std::string());
            if (!file.empty()) {
                // The trace as a session of its own: predicted vs measured reads it like any trace.
                const auto outcome = store::importIntoWorkspace(run.workspace(), file);
                if (outcome.ok && !outcome.sessionIds.empty()) {
                    params["trace_session"] = outcome.sessionIds.front();
                    run.emit({{"record", "trace_session"}, {"trace_session_id", outcome.sessionIds.front()}});
                } else {
                    params["trace_error"] = outcome.error;
                    std::cerr << "ridgeline-cli: the step's trace did not import: " << outcome.error << '\n';
                }
                if (!trace.path.empty())
                    params["step_summary"].erase("trace"); // a temporary file, gone once imported
            }
            run.setParams(params);
        } else if (!keptRecordKey(raw.record).empty()) {
            keep(run, raw);
        } else {
            return;
        }
        run.emit(raw.object);
    };
    return runAndStore(ctx, std::move(s), argv, r.launch.sbatch, r.launch.np, r.pointTimeout(), onRaw);
}
} // namespace

void addProbeRunCommand(CLI::App* run, CliContext& ctx)
{
    addRunSubcommand(run, runs::RunKind::Probe,
                     "ridgeline-probe (PyTorch): GEMM, memory bandwidth, attention, collectives or a training step "
                     "on this node's GPU (or CPU), stored as it runs",
                     [&ctx](const RunCommandLine& cl) { return runProbe(ctx, cl); });
}
} // namespace rl::cli
