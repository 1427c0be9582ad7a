// ridgeline-cli run nccl-tests --op all_reduce[,all_gather...] [-np N | --hostfile F | --launcher T] -- <tool flags>
// ridgeline-cli run hipblaslt|rocblas (--shape MxNxK... | --square A:B | --recipe max-achievable --cus N |
//                                      --recipe model --config C --parallel P) [--dtype bf16] -- <tool flags>
// The GPU benchmarks users already have, launched like ridgeline-bench (locally, under mpirun, or a
// launcher template such as srun) with their stdout parsed line by line by the importer's own
// parser: every point is stored and echoed the moment the tool prints it. A tool that exits
// non-zero, reports wrong results (#wrong > 0) or a failure, or prints nothing for --point-timeout
// seconds ends its session failed with the reason; the points it printed stay stored.
#include <cstdlib>
#include <iostream>
#include <memory>

#include "clicommands.h"
#include "collectives/launchcommand.h"
#include "importers/gemmcsv.h"
#include "importers/nccltestsstream.h"
#include "launcher.h"
#include "records/wireformat.h"
#include "runsession.h"
#include "launchoptions.h"
#include "sizingoptions.h"
#include "store/kernelresults.h"
#include "tools/gemmrecipes.h"
#include "tools/gputools.h"
#include "units/units.h"

namespace rl::cli {
namespace {

// A GPU tool runs as one process unless asked for more (nccl-tests' -g drives every GPU of a node).
LaunchArgs oneProcess()
{
    LaunchArgs l;
    l.np = 1;
    return l;
}

struct ToolLaunchArgs
{
    LaunchArgs launch = oneProcess();
    std::string toolDir, title;
    std::vector<std::string> env;
    double pointTimeoutS = 300;
    bool dryRun = false;
    std::vector<std::string> toolArgs;
};

void addToolOptions(CLI::App* cmd, ToolLaunchArgs& a)
{
    addLaunchOptions(cmd, a.launch, "Processes; more than 1 launches under mpirun (nccl-tests built with MPI=1)");
    cmd->add_option("--tool-dir", a.toolDir,
                    "Folder of the tool's programs (default: the folders of `ridgeline-cli tools`, then PATH)");
    cmd->add_option("--env", a.env, "NAME=VALUE set for the tool and kept with the session, e.g. NCCL_ALGO=Ring "
                                    "(repeatable; forwarded with -x under --hostfile)")
        ->allow_extra_args(false);
    cmd->add_option("--point-timeout", a.pointTimeoutS,
                    "Seconds without a new output line after which the tool counts as hung and is stopped")
        ->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--title", a.title, "Session title");
    cmd->add_flag("--dry-run", a.dryRun, "Print the command(s) and exit");
}

tools::FoundTool locate(const std::string& id, const ToolLaunchArgs& a)
{
    tools::ToolSettings settings = tools::ToolSettings::load(tools::ToolSettings::defaultPath());
    if (!a.toolDir.empty())
        settings.folders.insert(settings.folders.begin(), a.toolDir);
    const tools::ToolKind* kind = tools::toolKind(id);
    auto found = tools::findTool(*kind, settings);
    if (!found || (!a.toolDir.empty() && found->folder != a.toolDir && found->folder + "/" != a.toolDir))
        throw std::runtime_error(kind->name + " not found" + (a.toolDir.empty() ? "" : " in " + a.toolDir) +
                                 ": pass --tool-dir (e.g. an nccl-tests build/ folder) or add it with "
                                 "`ridgeline-cli tools --add-folder DIR`");
    if (!kind->collectives && found->versionSource.empty())
        tools::askVersion(*found, settings, 20000); // cheap for the GEMM benches; nccl-tests says it in its header
    return *found;
}

// NAME=VALUE pairs, checked; they are set in our environment (a local launch inherits them).
std::vector<std::pair<std::string, std::string>> environmentOf(const ToolLaunchArgs& a)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& e : a.env) {
        const auto eq = e.find('=');
        if (eq == std::string::npos || eq == 0)
            throw std::invalid_argument("--env '" + e + "': expected NAME=VALUE, e.g. NCCL_ALGO=Ring");
        out.emplace_back(e.substr(0, eq), e.substr(eq + 1));
    }
    return out;
}

// The program with its arguments, launched the way the options ask.
std::vector<std::string> launchArgv(const ToolLaunchArgs& a, const std::string& program,
                                    const std::vector<std::string>& args)
{
    const LaunchArgs& l = a.launch;
    if (l.np == 1 && l.hostfile.empty() && l.templ.empty()) {
        std::vector<std::string> argv{program};
        argv.insert(argv.end(), args.begin(), args.end());
        return argv;
    }
    LaunchSpec spec = launchSpecOf(l);
    if (spec.kind == LaunchSpec::Kind::Hostfile)
        for (const auto& [name, value] : environmentOf(a))
            spec.mpirunArgs.insert(spec.mpirunArgs.end(), {"-x", name});
    spec.bench = program;
    spec.subcommand.clear();
    spec.benchArgs = args;
    return buildLaunchCommand(spec);
}

nlohmann::json launchParams(const ToolLaunchArgs& a, const tools::FoundTool& tool)
{
    nlohmann::json env = nlohmann::json::object();
    for (const auto& [name, value] : environmentOf(a))
        env[name] = value;
    const LaunchArgs& l = a.launch;
    const bool local = l.np == 1 && l.hostfile.empty() && l.templ.empty();
    return {{"launcher", local ? "local" : launcherName(launchSpecOf(l).kind)},
            {"np", l.np}, {"tool_args", a.toolArgs}, {"environment", env}, {"tool_folder", tool.folder}};
}

void exportEnvironment(const ToolLaunchArgs& a)
{
    for (const auto& [name, value] : environmentOf(a))
        setenv(name.c_str(), value.c_str(), 1);
    allowOpenMpiAsRoot();
}

// ------------------------------------------------------------------------------------ nccl-tests
int runNcclTestsOp(const CliContext& ctx, const ToolLaunchArgs& a, const tools::FoundTool& tool, const std::string& op)
{
    const std::string program = tools::ncclTestsProgram(op);
    const auto argv = launchArgv(a, tool.path(program), a.toolArgs);
    if (a.dryRun) {
        std::cout << displayCommand(argv) << '\n';
        return 0;
    }
    Session s;
    s.kind = kind::Collectives;
    s.tool = tool.flavor;
    s.toolVersion = tool.version;
    s.title = a.title.empty() ? program + ", " + std::to_string(a.launch.np) + (a.launch.np == 1 ? " process" : " processes") : a.title;
    s.params = launchParams(a, tool);
    RunSession run(ctx, s, argv);
    NcclTestsStream stream(program);
    std::int64_t lineNo = 0;
    std::string wrong;
    FirstFailureLine failure;
    const int timeoutMs = static_cast<int>(a.pointTimeoutS * 1000);
    ChildResult child;
    try {
        child = runLocallyOrAsJob(a.launch.sbatch, a.launch.np, program, argv, [&](const std::string& line) {
            for (const auto& p : stream.feed(line, {++lineNo, 0})) {
                if (p.wrong > 0 && wrong.empty())
                    wrong = std::to_string(p.wrong) + " wrong elements at " + units::formatBytes(double(p.bytes)) +
                            (p.inPlace ? " in place" : "") + " (#wrong): the results are not valid";
                run.addCollective(p);
            }
            failure.see(line);
        }, timeoutMs, [&](const std::string& job, const std::string& script) { run.noteJob(job, script); },
           [&](const std::string& line) { failure.see(line); });
    } catch (const std::exception& e) {
        return run.end(SessionStatus::Failed, e.what());
    }
    for (const auto& w : stream.warnings())
        std::cerr << program << ": line " << w.where.line << ": " << w.message << '\n';
    // What the tool said about itself (version, hosts, devices, the average bus bandwidth) replaces
    // what we assumed when it started.
    SessionStatus parsed = SessionStatus::Complete;
    const ImportResult whole = stream.finish();
    if (!whole.sessions.empty()) {
        const Session& told = whole.sessions.back().session;
        Session identity = run.session();
        identity.tool = told.tool;
        identity.toolVersion = told.toolVersion.empty() ? tool.version : told.toolVersion;
        if (!told.host.empty())
            identity.host = told.host;
        if (a.title.empty())
            identity.title = told.title;
        run.workspace().setIdentity(run.id(), identity);
        nlohmann::json params = told.params;
        params.update(run.session().params);
        run.setParams(params);
        parsed = told.status;
    }
    if (child.interrupted)
        return run.end(SessionStatus::Cancelled, "cancelled after " + std::to_string(run.points()) + " points");
    if (child.idleTimedOut || child.exitCode != 0)
        return run.end(SessionStatus::Failed, childFailure(program, child, timeoutMs, failure.line));
    if (!failure.line.empty())
        return run.end(SessionStatus::Failed, program + " reported a failure: " + failure.line);
    if (!wrong.empty())
        return run.end(SessionStatus::Failed, wrong);
    if (run.points() == 0)
        return run.end(SessionStatus::Failed, program + " printed no result rows");
    if (parsed == SessionStatus::Incomplete)
        return run.end(SessionStatus::Incomplete, "no '# Avg bus bandwidth' footer: the run was cut short");
    return run.end(SessionStatus::Complete, std::to_string(run.points()) + " points");
}

void addNcclTests(CLI::App* run, CliContext& ctx)
{
    auto* cmd = run->add_subcommand("nccl-tests", "nccl-tests / rccl-tests collectives (all_reduce_perf, ...), "
                                                  "one session per op, stored as the tool prints");
    cmd->alias("rccl-tests");
    auto a = std::make_shared<ToolLaunchArgs>();
    auto ops = std::make_shared<std::vector<std::string>>(std::vector<std::string>{"all_reduce"});
    cmd->add_option("--op", *ops, "Collectives: all_reduce reduce_scatter all_gather broadcast alltoall sendrecv "
                                  "alltoallv (rccl) reduce gather scatter")
        ->delimiter(',')->allow_extra_args(false)->capture_default_str();
    addToolOptions(cmd, *a);
    cmd->add_option("tool_args", a->toolArgs, "The tool's own flags after --, e.g. -b 8 -e 8G -f 2 -g 1 -d bf16");
    cmd->callback([&ctx, a, ops] {
        for (const auto& op : *ops)
            if (tools::ncclTestsProgram(op).empty())
                throw std::invalid_argument("--op " + op + ": not an nccl-tests collective (all_reduce, reduce_scatter, "
                                            "all_gather, broadcast, alltoall, sendrecv, alltoallv, reduce, gather, scatter)");
        const tools::FoundTool tool = locate("nccl-tests", *a);
        exportEnvironment(*a);
        int worst = 0;
        for (const auto& op : *ops) {
            if (!tool.has(tools::ncclTestsProgram(op)))
                throw std::runtime_error(tools::ncclTestsProgram(op) + " is not in " + tool.folder);
            const int rc = runNcclTestsOp(ctx, *a, tool, op);
            if (rc == 130)
                throw ExitCode{130}; // cancelled: the other ops do not start
            worst = std::max(worst, rc);
        }
        if (worst != 0)
            throw ExitCode{worst};
    });
}

// ------------------------------------------------------------------------------------ GEMM benches
struct GemmArgs
{
    std::vector<std::string> shapes;
    std::string square; // "256:16384"
    std::string recipe; // "square", "max-achievable", "model"
    int cus = 0;
    std::string dtype = "bf16", computeType = "f32_r";
    int iters = 0, coldIters = 0;
    StepArgs step; // --config/--parallel/--seq/--micro-batch of the model recipe
};

std::string benchType(const std::string& dtype)
{
    static const std::vector<std::pair<std::string, std::string>> map{
        {"float32", "f32_r"}, {"fp32", "f32_r"}, {"f32", "f32_r"}, {"float64", "f64_r"}, {"fp64", "f64_r"},
        {"bf16", "bf16_r"}, {"bfloat16", "bf16_r"}, {"fp16", "f16_r"}, {"float16", "f16_r"}, {"half", "f16_r"},
        {"fp8", "f8_r"}, {"float8_e4m3", "f8_r"}, {"e4m3", "f8_r"}, {"bf8", "bf8_r"}, {"float8_e5m2", "bf8_r"},
        {"int8", "i8_r"}, {"tf32", "xf32_r"}};
    for (const auto& [name, type] : map)
        if (name == dtype)
            return type;
    if (dtype.ends_with("_r"))
        return dtype;
    throw std::invalid_argument("--dtype " + dtype + ": not a GEMM type (fp32, bf16, fp16, fp8, bf8, int8, fp64, tf32)");
}

std::vector<tools::GemmShape> shapesOf(const GemmArgs& g, const CliContext& ctx)
{
    std::vector<tools::GemmShape> out;
    for (const auto& s : g.shapes)
        out.push_back(tools::parseShape(s));
    if (!g.square.empty() || g.recipe == "square") {
        const std::string range = g.square.empty() ? "256:16384" : g.square;
        const auto colon = range.find(':');
        const auto from = units::parseInt(range.substr(0, colon));
        const auto to = colon == std::string::npos ? from : units::parseInt(range.substr(colon + 1));
        if (!from || !to)
            throw std::invalid_argument("--square '" + range + "': expected FROM:TO, e.g. 256:16384");
        for (auto& s : tools::squareSweep(*from, *to))
            out.push_back(std::move(s));
    }
    if (g.recipe == "max-achievable") {
        if (g.cus < 1)
            throw std::invalid_argument("--recipe max-achievable needs --cus (the GPU's compute units, e.g. 304 for MI300X)");
        for (auto& s : tools::maxAchievableShapes(g.cus))
            out.push_back(std::move(s));
    } else if (g.recipe == "model") {
        if (g.step.config.empty())
            throw std::invalid_argument("--recipe model needs --config (a config.json, a saved configuration or a preset)");
        const model::ModelConfig c = loadConfigFor(g.step, ctx);
        for (auto& s : tools::modelStepShapes(c, parallelOf(g.step, c)))
            out.push_back(std::move(s));
    } else if (!g.recipe.empty() && g.recipe != "square") {
        throw std::invalid_argument("--recipe " + g.recipe + ": expected square, max-achievable or model");
    }
    if (out.empty())
        throw std::invalid_argument("no GEMM shapes: give --shape MxNxK, --square FROM:TO or --recipe");
    return out;
}

std::vector<std::string> gemmBenchArgs(const std::string& id, const GemmArgs& g, const tools::GemmShape& s,
                                       const std::vector<std::string>& extra)
{
    const std::string type = benchType(g.dtype);
    std::vector<std::string> args{"-m", std::to_string(s.m), "-n", std::to_string(s.n), "-k", std::to_string(s.k)};
    if (id == "hipblaslt-bench") {
        args.insert(args.end(), {"--transA", s.transA, "--transB", s.transB, "--a_type", type, "--b_type", type,
                                 "--c_type", type, "--d_type", type, "--compute_type", g.computeType});
    } else {
        args.insert(args.end(), {"-f", "gemm_ex", "--transposeA", s.transA, "--transposeB", s.transB, "--a_type", type,
                                 "--b_type", type, "--c_type", type, "--d_type", type, "--compute_type", g.computeType});
    }
    if (s.batch > 1)
        args.insert(args.end(), {"--batch_count", std::to_string(s.batch)});
    if (g.iters > 0)
        args.insert(args.end(), {"-i", std::to_string(g.iters)});
    if (g.coldIters > 0)
        args.insert(args.end(), {"-j", std::to_string(g.coldIters)});
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

int runGemmBench(const CliContext& ctx, const std::string& id, const ToolLaunchArgs& a, const GemmArgs& g)
{
    const auto shapes = shapesOf(g, ctx);
    const tools::FoundTool tool = locate(id, a);
    std::vector<std::vector<std::string>> commands;
    for (const auto& s : shapes)
        commands.push_back(launchArgv(a, tool.path(id), gemmBenchArgs(id, g, s, a.toolArgs)));
    if (a.dryRun) {
        for (const auto& c : commands)
            std::cout << displayCommand(c) << '\n';
        return 0;
    }
    exportEnvironment(a);
    Session s;
    s.kind = kind::Gemm;
    s.tool = id;
    s.toolVersion = tool.version;
    s.title = a.title.empty() ? id + " " + g.dtype + ", " + std::to_string(shapes.size()) + " shapes" : a.title;
    s.params = launchParams(a, tool);
    s.params["dtype"] = g.dtype;
    s.params["recipe"] = g.recipe.empty() ? (g.square.empty() ? "given shapes" : "square") : g.recipe;
    nlohmann::json shapeList = nlohmann::json::array();
    for (const auto& sh : shapes)
        shapeList.push_back({{"m", sh.m}, {"n", sh.n}, {"k", sh.k}, {"batch", sh.batch}, {"trans", sh.transA + sh.transB},
                             {"label", sh.label}});
    s.params["shapes"] = shapeList;
    s.params["expected_points"] = shapes.size();
    RunSession run(ctx, s, commands.front());
    const int timeoutMs = static_cast<int>(a.pointTimeoutS * 1000);
    for (std::size_t i = 0; i < commands.size(); ++i) {
        GemmTableStream stream(id == "hipblaslt-bench" ? GemmTableFlavor::HipblasltBench : GemmTableFlavor::RocblasBench);
        std::int64_t lineNo = 0;
        int before = run.points();
        ChildResult child;
        FirstFailureLine failure;
        try {
            child = runLocallyOrAsJob(a.launch.sbatch, a.launch.np, id, commands[i], [&](const std::string& line) {
                failure.see(line);
                if (auto p = stream.feed(line, {++lineNo, 0})) {
                    run.store([&](store::Database& db) { store::insertGemm(db, run.id(), *p); });
                    run.emit(wire::toJson(*p));
                }
            }, timeoutMs, [&](const std::string& job, const std::string& script) { run.noteJob(job, script); },
               [&](const std::string& line) { failure.see(line); });
        } catch (const std::exception& e) {
            return run.end(SessionStatus::Failed, e.what());
        }
        const std::string shape = std::to_string(shapes[i].m) + "x" + std::to_string(shapes[i].n) + "x" +
                                  std::to_string(shapes[i].k);
        if (child.interrupted)
            return run.end(SessionStatus::Cancelled, "cancelled after " + std::to_string(run.points()) + " of " +
                                                         std::to_string(shapes.size()) + " shapes");
        if (child.idleTimedOut || child.exitCode != 0)
            return run.end(SessionStatus::Failed, "at " + shape + ": " + childFailure(id, child, timeoutMs, failure.line));
        if (run.points() == before)
            return run.end(SessionStatus::Failed, "at " + shape + ": " + id + " printed no result row");
    }
    return run.end(SessionStatus::Complete, std::to_string(run.points()) + " shapes");
}

void addGemmBench(CLI::App* run, CliContext& ctx, const std::string& name, const std::string& id)
{
    auto* cmd = run->add_subcommand(name, id + " over GEMM shapes (one run per shape), stored as it prints");
    auto a = std::make_shared<ToolLaunchArgs>();
    auto g = std::make_shared<GemmArgs>();
    cmd->add_option("--shape", g->shapes, "MxNxK or MxNxKxTT (transA transB), repeatable or comma-separated")
        ->delimiter(',')->allow_extra_args(false);
    cmd->add_option("--square", g->square, "M = N = K over powers of two FROM:TO, e.g. 256:16384");
    cmd->add_option("--recipe", g->recipe,
                    "square (256..16384), max-achievable (AMD's MAF shapes for --cus) or model (the GEMMs of "
                    "--config's training step under --parallel)");
    cmd->add_option("--cus", g->cus, "Compute units, for --recipe max-achievable (MI300X: 304, MI325X: 304, MI355X: 256)");
    cmd->add_option("--dtype", g->dtype, "Input type: bf16, fp16, fp8, bf8, fp32, int8, ...")->capture_default_str();
    cmd->add_option("--compute-type", g->computeType, "The bench's compute type")->capture_default_str();
    cmd->add_option("--iters", g->iters, "Timed iterations (-i); default: the tool's");
    cmd->add_option("--cold-iters", g->coldIters, "Warm-up iterations (-j); default: the tool's");
    cmd->add_option("--config", g->step.config, "Model for --recipe model: config.json, saved config or preset");
    cmd->add_option("--parallel", g->step.parallel, "Layout for --recipe model, e.g. tp=8,pp=1,dp=16")->capture_default_str();
    cmd->add_option("--seq", g->step.seq, "Sequence length for --recipe model")->capture_default_str();
    cmd->add_option("--micro-batch", g->step.microBatch, "Micro-batch for --recipe model")->capture_default_str();
    addToolOptions(cmd, *a);
    cmd->add_option("tool_args", a->toolArgs, "More flags for " + id + " after --");
    cmd->callback([&ctx, a, g, id] {
        const int rc = runGemmBench(ctx, id, *a, *g);
        if (rc != 0)
            throw ExitCode{rc};
    });
}

} // namespace

void addToolRunCommands(CLI::App* run, CliContext& ctx)
{
    addNcclTests(run, ctx);
    addGemmBench(run, ctx, "hipblaslt", "hipblaslt-bench");
    addGemmBench(run, ctx, "rocblas", "rocblas-bench");
}
} // namespace rl::cli
