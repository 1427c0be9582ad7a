// ridgeline-cli run nccl-tests --op all_reduce[,all_gather...] [-np N | --hostfile F | --launcher T] -- <tool flags>
// ridgeline-cli run hipblaslt|rocblas|cutlass (--shape MxNxK... | --square A:B | --recipe max-achievable --cus N |
//                                              --recipe model --config C --parallel P) [--dtype bf16] -- <tool flags>
// The GPU benchmarks users already have, launched like ridgeline-bench (locally, under mpirun, or a
// launcher template such as srun) with their stdout parsed line by line by the importer's own
// parser: every point is stored and echoed the moment the tool prints it. A tool that exits
// non-zero, reports wrong results (#wrong > 0) or a failure, or prints nothing for --point-timeout
// seconds ends its session failed with the reason; the points it printed stay stored.
#include <cstdlib>
#include <iostream>
#include <memory>

#include "clicommands.h"
#include "runs/launch.h"
#include "importers/cutlassprofiler.h"
#include "importers/gemmcsv.h"
#include "importers/nccltestsstream.h"
#include "launcher.h"
#include "records/wireformat.h"
#include "runsession.h"
#include "runoptions.h"
#include "sbatchrun.h"
#include "runs/runrequest.h"
#include "sizingoptions.h"
#include "toolrun.h"
#include "store/kernelresults.h"
#include "tools/gemmrecipes.h"
#include "tools/gputools.h"
#include "units/units.h"

namespace rl::cli {
namespace {

using runs::RunRequest;

// ------------------------------------------------------------------------------------ nccl-tests
int runNcclTestsOp(const CliContext& ctx, const RunRequest& a, bool dryRun, const tools::FoundTool& tool, const std::string& op)
{
    const std::string program = tools::ncclTestsProgram(op);
    const auto argv = launchArgv(a, withProgram(tool.path(program), a.args));
    if (dryRun) {
        std::cout << displayCommand(argv) << '\n';
        return 0;
    }
    Session s;
    s.kind = kind::Collectives;
    s.tool = tool.flavor;
    s.toolVersion = tool.version;
    s.title = a.title.empty() ? program + ", " + std::to_string(a.launch.np) + (a.launch.np == 1 ? " process" : " processes") : a.title;
    s.params = toolLaunchParams(a, tool);
    RunSession run(ctx, s, argv);
    NcclTestsStream stream(program);
    std::int64_t lineNo = 0;
    std::string wrong;
    FirstFailureLine failure;
    const int timeoutMs = static_cast<int>(a.pointTimeout() * 1000);
    ChildResult child;
    try {
        child = runLocallyOrAsJob(a.launch.sbatch, a.launch.np, program, argv, [&](const std::string& line) {
            for (const auto& p : stream.feed(line, {++lineNo, 0})) {
                if (p.wrong > 0 && wrong.empty())
                    wrong = std::to_string(p.wrong) + " wrong elements at " + units::formatBytes(double(p.bytes)) +
                            (p.inPlace ? " in place" : "") + " (#wrong): the results are not valid";
                run.append(p);
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
    if (const auto rc = endOnToolFailure(run, program, child, timeoutMs, failure))
        return *rc;
    if (!wrong.empty())
        return run.end(SessionStatus::Failed, wrong);
    if (run.points() == 0)
        return run.end(SessionStatus::Failed, program + " printed no result rows");
    if (parsed == SessionStatus::Incomplete)
        return run.end(SessionStatus::Incomplete, "no '# Avg bus bandwidth' footer: the run was cut short");
    return run.end(SessionStatus::Complete, std::to_string(run.points()) + " points");
}

int runNcclTests(const CliContext& ctx, const RunCommandLine& cl)
{
    const RunRequest& a = cl.request;
    for (const auto& op : a.ops)
        if (tools::ncclTestsProgram(op).empty())
            throw UsageError("--op " + op + ": not an nccl-tests collective (all_reduce, reduce_scatter, "
                             "all_gather, broadcast, alltoall, sendrecv, alltoallv, reduce, gather, scatter)");
    const tools::FoundTool tool = locateTool("nccl-tests", a);
    exportEnvironment(a);
    int worst = 0;
    for (const auto& op : a.ops) {
        if (!tool.has(tools::ncclTestsProgram(op)))
            throw std::runtime_error(tools::ncclTestsProgram(op) + " is not in " + tool.folder);
        const int rc = runNcclTestsOp(ctx, a, cl.dryRun, tool, op);
        if (rc == 130)
            return 130; // cancelled: the other ops do not start
        worst = std::max(worst, rc);
    }
    return worst;
}

// ------------------------------------------------------------------------------------ GEMM benches
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

std::vector<tools::GemmShape> shapesOf(const runs::GemmSelection& g, const CliContext& ctx)
{
    std::vector<tools::GemmShape> out = runs::shapesWithoutModel(g);
    if (g.recipe == "model") {
        StepArgs step;
        step.config = g.config;
        step.parallel = g.parallel;
        step.seq = g.seq;
        step.microBatch = g.microBatch;
        const model::ModelConfig c = loadConfigFor(step, ctx);
        for (auto& s : tools::modelStepShapes(c, parallelOf(step, c)))
            out.push_back(std::move(s));
    }
    if (out.empty())
        throw std::invalid_argument("no GEMM shapes: give --shape MxNxK, --square FROM:TO or --recipe");
    return out;
}

// cutlass_profiler's names of the types (library's to_string): f16, bf16, tf32, f32, f64, e4m3, e5m2, s8.
std::string cutlassType(const std::string& dtype)
{
    static const std::vector<std::pair<std::string, std::string>> map{
        {"float32", "f32"}, {"fp32", "f32"}, {"f32", "f32"}, {"float64", "f64"}, {"fp64", "f64"}, {"bf16", "bf16"},
        {"bfloat16", "bf16"}, {"fp16", "f16"}, {"float16", "f16"}, {"half", "f16"}, {"fp8", "e4m3"},
        {"float8_e4m3", "e4m3"}, {"e4m3", "e4m3"}, {"bf8", "e5m2"}, {"float8_e5m2", "e5m2"}, {"e5m2", "e5m2"},
        {"int8", "s8"}, {"tf32", "tf32"}};
    for (const auto& [name, type] : map)
        if (name == dtype)
            return type;
    throw std::invalid_argument("--dtype " + dtype + ": not a CUTLASS GEMM type (fp32, tf32, bf16, fp16, fp8, bf8, int8, fp64)");
}

// One shape: --operation=Gemm with the problem size, operand types and layouts (BLAS N is
// column-major, T row-major); the profiler runs every kernel that fits, each a result.
std::vector<std::string> cutlassArgs(const runs::GemmSelection& g, const tools::GemmShape& s)
{
    const std::string t = cutlassType(g.dtype);
    auto layout = [](const std::string& trans) { return trans == "T" ? std::string(":row") : std::string(":column"); };
    std::string accum = g.computeType;
    if (accum.ends_with("_r"))
        accum.resize(accum.size() - 2); // rocBLAS spelling, the selection's default: f32_r -> f32
    std::vector<std::string> args{"--operation=Gemm", "--m=" + std::to_string(s.m), "--n=" + std::to_string(s.n),
                                  "--k=" + std::to_string(s.k), "--A=" + t + layout(s.transA),
                                  "--B=" + t + layout(s.transB), "--accumulator-type=" + accum};
    if (s.batch > 1)
        args.push_back("--batch_count=" + std::to_string(s.batch));
    if (g.iters > 0)
        args.push_back("--profiling-iterations=" + std::to_string(g.iters));
    if (g.coldIters > 0)
        args.push_back("--warmup-iterations=" + std::to_string(g.coldIters));
    return args;
}

std::vector<std::string> gemmBenchArgs(const std::string& id, const runs::GemmSelection& g, const tools::GemmShape& s,
                                       const std::vector<std::string>& extra)
{
    if (id == "cutlass_profiler") {
        auto args = cutlassArgs(g, s);
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    }
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

int runGemmBench(const CliContext& ctx, const RunCommandLine& cl)
{
    const RunRequest& a = cl.request;
    const runs::GemmSelection& g = a.gemm;
    const std::string id = runs::info(a.kind).program;
    const auto shapes = shapesOf(g, ctx);
    const tools::FoundTool tool = locateTool(id, a);
    std::vector<std::vector<std::string>> commands;
    for (const auto& s : shapes)
        commands.push_back(launchArgv(a, withProgram(tool.path(id), gemmBenchArgs(id, g, s, a.args))));
    if (cl.dryRun) {
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
    s.params = toolLaunchParams(a, tool);
    s.params["dtype"] = g.dtype;
    s.params["recipe"] = g.recipe.empty() ? (g.square.empty() ? "given shapes" : "square") : g.recipe;
    nlohmann::json shapeList = nlohmann::json::array();
    for (const auto& sh : shapes)
        shapeList.push_back({{"m", sh.m}, {"n", sh.n}, {"k", sh.k}, {"batch", sh.batch}, {"trans", sh.transA + sh.transB},
                             {"label", sh.label}});
    s.params["shapes"] = shapeList;
    s.params["expected_points"] = shapes.size();
    RunSession run(ctx, s, commands.front());
    const int timeoutMs = static_cast<int>(a.pointTimeout() * 1000);
    for (std::size_t i = 0; i < commands.size(); ++i) {
        GemmTableStream stream(id == "hipblaslt-bench" ? GemmTableFlavor::HipblasltBench : GemmTableFlavor::RocblasBench);
        CutlassProfilerStream cutlass;
        auto parse = [&](const std::string& line, const SourceLocation& where) {
            return id == "cutlass_profiler" ? cutlass.feed(line, where) : stream.feed(line, where);
        };
        std::int64_t lineNo = 0;
        int before = run.points();
        ChildResult child;
        FirstFailureLine failure;
        try {
            child = runLocallyOrAsJob(a.launch.sbatch, a.launch.np, id, commands[i], [&](const std::string& line) {
                failure.see(line);
                if (auto p = parse(line, {++lineNo, 0}))
                    run.append(*p);
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
        if (!cutlass.incorrect().empty()) // the profiler checked the kernel against a reference and it was wrong
            return run.end(SessionStatus::Failed, "at " + shape + ": cutlass_profiler found a result wrong: " +
                                                      cutlass.incorrect().front());
    }
    // cutlass_profiler prints a result per kernel that fits a shape.
    const std::string shapeCount = std::to_string(shapes.size()) + " shapes";
    return run.end(SessionStatus::Complete, run.points() == static_cast<int>(shapes.size())
                                                ? shapeCount
                                                : std::to_string(run.points()) + " results of " + shapeCount);
}

} // namespace

void addToolRunCommands(CLI::App* run, CliContext& ctx)
{
    addRunSubcommand(run, runs::RunKind::NcclTests,
                     "nccl-tests / rccl-tests collectives (all_reduce_perf, ...), one session per op, stored as the tool prints",
                     [&ctx](const RunCommandLine& cl) { return runNcclTests(ctx, cl); });
    for (runs::RunKind kind : {runs::RunKind::Hipblaslt, runs::RunKind::Rocblas, runs::RunKind::Cutlass})
        addRunSubcommand(run, kind,
                         std::string(runs::info(kind).program) + " over GEMM shapes (one run per shape), stored as it prints",
                         [&ctx](const RunCommandLine& cl) { return runGemmBench(ctx, cl); });
    addStreamToolRunCommands(run, ctx);
}
} // namespace rl::cli
