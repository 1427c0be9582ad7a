#include "runs/runrequest.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "collectives/collectivesweep.h"
#include "collectives/timingpolicy.h"
#include "records/session.h"
#include "tools/gemmrecipes.h"
#include "units/units.h"

namespace rl::runs {

const std::vector<RunKindInfo>& runKinds()
{
    static const std::vector<RunKindInfo> all{
        {RunKind::Collectives, "collectives", kind::Collectives, "collectives", true, false, false, false},
        {RunKind::Pairs, "pairs", kind::Pairs, "pairs", true, false, false, false},
        {RunKind::Io, "io", kind::Storage, "io", true, false, false, false},
        {RunKind::PeakFlops, "peakflops", kind::PeakFlops, "peakflops", false, true, false, false},
        {RunKind::MemBw, "membw", kind::MemBandwidth, "membw", false, true, false, false},
        {RunKind::Gemm, "gemm", kind::Gemm, "gemm", false, true, false, false},
        {RunKind::NcclTests, "nccl-tests", kind::Collectives, "nccl-tests", false, false, true, false},
        {RunKind::Hipblaslt, "hipblaslt", kind::Gemm, "hipblaslt-bench", false, false, true, true},
        {RunKind::Rocblas, "rocblas", kind::Gemm, "rocblas-bench", false, false, true, true},
        {RunKind::Probe, "probe", kind::Gemm, "ridgeline-probe", false, false, true, false},
        {RunKind::Cutlass, "cutlass", kind::Gemm, "cutlass_profiler", false, false, true, true},
        {RunKind::BabelStream, "babelstream", kind::MemBandwidth, "babelstream", false, false, true, false},
        {RunKind::Nvbandwidth, "nvbandwidth", kind::CopyBandwidth, "nvbandwidth", false, false, true, false},
    };
    return all;
}

const RunKindInfo& info(RunKind k)
{
    for (const auto& i : runKinds())
        if (i.kind == k)
            return i;
    return runKinds().front();
}

const RunKindInfo* runKindNamed(std::string_view subcommand)
{
    for (const auto& i : runKinds())
        if (subcommand == i.subcommand || (i.kind == RunKind::NcclTests && subcommand == "rccl-tests"))
            return &i;
    return nullptr;
}

const RunKindInfo* runKindOfTool(std::string_view toolId)
{
    for (const auto& i : runKinds())
        if (i.gpuTool && toolId == i.program)
            return &i;
    return nullptr;
}

const char* programOption(RunKind kind)
{
    if (kind == RunKind::Probe)
        return "--probe-program";
    return info(kind).gpuTool ? "--tool-dir" : "--bench";
}

const std::vector<std::string>& probeSubcommands()
{
    static const std::vector<std::string> all{"gemm", "membw", "attention", "collectives", "step"};
    return all;
}

std::string probeSessionKind(const std::string& probe)
{
    if (probe == "membw")
        return kind::MemBandwidth;
    if (probe == "collectives")
        return kind::Collectives;
    return probe; // gemm; attention and step: kinds of their own
}

std::optional<std::string> optionValue(const std::vector<std::string>& args, const std::string& name)
{
    std::optional<std::string> value;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == name && i + 1 < args.size())
            value = args[i + 1];
        else if (args[i].rfind(name + "=", 0) == 0)
            value = args[i].substr(name.size() + 1);
    }
    return value;
}

RunRequest RunRequest::defaults(RunKind kind)
{
    RunRequest r;
    r.kind = kind;
    if (!info(kind).benchMpi) {
        r.launch.mode = Launch::Mode::Local;
        r.launch.np = 1;
    }
    return r;
}

namespace {
bool isEnvEntry(const std::string& e)
{
    const auto eq = e.find('=');
    if (eq == std::string::npos || eq == 0)
        return false;
    return std::all_of(e.begin(), e.begin() + static_cast<std::ptrdiff_t>(eq), [](char c) {
               return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
           }) &&
           !(e[0] >= '0' && e[0] <= '9');
}

std::optional<std::int64_t> bytesOf(const std::vector<std::string>& args, std::initializer_list<const char*> names,
                                    std::int64_t otherwise)
{
    for (const char* n : names)
        if (auto v = optionValue(args, n))
            return units::parseBytes(*v);
    return otherwise;
}

// Sizes from -b to -e by -f (times) or -i (plus), as nccl-tests and ridgeline-bench walk them.
std::int64_t sizeCount(std::int64_t lo, std::int64_t hi, std::int64_t factor, std::int64_t step)
{
    if (lo <= 0 || hi < lo)
        return 0;
    if (step > 0)
        return (hi - lo) / step + 1;
    if (factor < 2)
        return 0;
    std::int64_t n = 0;
    for (std::int64_t s = lo; s <= hi && n < 100000; s *= factor) {
        ++n;
        if (s > INT64_MAX / factor)
            break;
    }
    return n;
}

// "FROM:TO" (or one number) of --square; nullopt unless 1 <= FROM <= TO.
std::optional<std::pair<std::int64_t, std::int64_t>> squareRange(const std::string& text)
{
    const auto colon = text.find(':');
    const auto from = units::parseInt(text.substr(0, colon));
    const auto to = colon == std::string::npos ? from : units::parseInt(text.substr(colon + 1));
    if (!from || !to || *from < 1 || *to < *from)
        return std::nullopt;
    return std::pair{*from, *to};
}

std::string gemmProblem(const GemmSelection& g)
{
    // The shapes, the --square range and max-achievable's --cus: checked where they are listed.
    try {
        shapesWithoutModel(g);
    } catch (const std::exception& e) {
        return e.what();
    }
    if (!g.recipe.empty() && g.recipe != "square" && g.recipe != "max-achievable" && g.recipe != "model")
        return "--recipe " + g.recipe + ": expected square, max-achievable or model";
    if (g.recipe == "model" && g.config.empty())
        return "--recipe model needs --config (a config.json, a saved configuration or a preset)";
    if (g.recipe == "model" && g.parallel.find('=') == std::string::npos)
        return "--parallel '" + g.parallel + "': give the layout, e.g. tp=8,pp=1,dp=16";
    if (g.shapes.empty() && g.square.empty() && g.recipe.empty())
        return "no GEMM shapes: give --shape MxNxK, --square FROM:TO or --recipe";
    if (g.dtype.empty())
        return "choose a GEMM data type (--dtype)";
    return {};
}

} // namespace

std::vector<tools::GemmShape> shapesWithoutModel(const GemmSelection& g)
{
    std::vector<tools::GemmShape> out;
    for (const auto& s : g.shapes)
        out.push_back(tools::parseShape(s));
    if (!g.square.empty() || g.recipe == "square") {
        const std::string text = g.square.empty() ? "256:16384" : g.square;
        const auto range = squareRange(text);
        if (!range)
            throw std::invalid_argument("--square '" + text + "': expected FROM:TO with 1 <= FROM <= TO, e.g. 256:16384");
        for (auto& s : tools::squareSweep(range->first, range->second))
            out.push_back(std::move(s));
    }
    if (g.recipe == "max-achievable") {
        if (g.cus < 1)
            throw std::invalid_argument("--recipe max-achievable needs --cus (the GPU's compute units, e.g. 304 for MI300X)");
        for (auto& s : tools::maxAchievableShapes(g.cus))
            out.push_back(std::move(s));
    }
    return out;
}

std::string RunRequest::validate() const
{
    const RunKindInfo& k = info(kind);
    if (k.benchMpi || k.gpuTool) {
        if (k.benchMpi && launch.mode == Launch::Mode::Local)
            return std::string("ridgeline-bench ") + k.program + " runs under MPI: choose mpirun, a hostfile or a "
                                                                 "launcher template";
        if (std::string l = launch.validate(); !l.empty())
            return l;
    }
    if (pointTimeoutS && (!std::isfinite(*pointTimeoutS) || *pointTimeoutS < 0))
        return "the point timeout must be 0 (never) or more seconds";
    if (k.gpuTool && pointTimeoutS && *pointTimeoutS <= 0)
        return "the point timeout must be at least one second";
    for (const auto& e : env)
        if (!isEnvEntry(e))
            return "environment entry '" + e + "' is not NAME=VALUE (e.g. NCCL_ALGO=Ring)";
    if (kind == RunKind::NcclTests) {
        if (ops.empty())
            return "choose at least one operation (--op)";
        const auto lo = bytesOf(args, {"-b", "--minbytes"}, 32 << 20), hi = bytesOf(args, {"-e", "--maxbytes"}, 32 << 20);
        if (!lo || *lo <= 0)
            return "-b " + optionValue(args, "-b").value_or("") + ": not a size such as 8, 1K or 256M";
        if (!hi || *hi <= 0)
            return "-e " + optionValue(args, "-e").value_or("") + ": not a size such as 8, 1K or 256M";
        if (*hi < *lo)
            return "the maximum size (-e) is below the minimum size (-b)";
    }
    if (k.gemmShapes)
        if (std::string g = gemmProblem(gemm); !g.empty())
            return g;
    if (kind == RunKind::Nvbandwidth)
        for (const auto& a : args)
            if (a == "-j" || a == "--json")
                return "nvbandwidth -j: Ridgeline reads its text output as it prints; leave -j out (a saved -j file "
                       "imports with `ridgeline-cli import`)";
    if (kind == RunKind::Probe) {
        const auto& subs = probeSubcommands();
        if (std::find(subs.begin(), subs.end(), probe) == subs.end())
            return "--probe '" + probe + "': expected gemm, membw, attention, collectives or step";
    }
    return {};
}

double RunRequest::pointTimeout() const
{
    if (pointTimeoutS)
        return *pointTimeoutS;
    const RunKindInfo& k = info(kind);
    if (kind == RunKind::Probe)
        return 600; // the probe's own default
    if (k.gpuTool)
        return 300;
    switch (kind) {
    case RunKind::Io: return 600;
    case RunKind::Pairs: return 60;
    case RunKind::Collectives: {
        double perPoint = TimingPolicy{}.secondsPerPoint;
        if (const auto v = optionValue(args, "--time-per-size")) {
            try {
                perPoint = std::stod(*v);
            } catch (const std::exception&) {
                // the runner says what is wrong with it
            }
        }
        return std::max(60.0, std::isfinite(perPoint) ? 20 * perPoint : 60.0);
    }
    default: return 0;
    }
}

std::vector<std::pair<std::string, std::string>> RunRequest::environment() const
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& e : env) {
        if (!isEnvEntry(e))
            throw std::invalid_argument("--env '" + e + "': expected NAME=VALUE, e.g. NCCL_ALGO=Ring");
        const auto eq = e.find('=');
        out.emplace_back(e.substr(0, eq), e.substr(eq + 1));
    }
    return out;
}

int RunRequest::expectedPoints() const
{
    if (!validate().empty())
        return 0;
    if (kind == RunKind::NcclTests) {
        const auto lo = bytesOf(args, {"-b", "--minbytes"}, 32 << 20), hi = bytesOf(args, {"-e", "--maxbytes"}, 32 << 20);
        const auto step = bytesOf(args, {"-i", "--stepbytes"}, 0);
        const auto factor = units::parseInt(optionValue(args, "-f").value_or("2"));
        const std::int64_t n = sizeCount(lo.value_or(0), hi.value_or(0), factor.value_or(0), step.value_or(0));
        return static_cast<int>(std::min<std::int64_t>(static_cast<std::int64_t>(ops.size()) * n * 2, 1 << 30));
    }
    if (info(kind).gemmShapes)
        // The model recipe's GEMMs: the CLI lists them when it starts.
        return gemm.recipe == "model" ? 0 : static_cast<int>(shapesWithoutModel(gemm).size());
    if (kind != RunKind::Collectives)
        return 0; // ridgeline-bench's header says, once it runs
    // The runner's own planning, over the options the request passes it.
    try {
        SweepParams p;
        if (auto v = optionValue(args, "--ops"))
            p.ops = parseOpList(*v);
        if (auto v = optionValue(args, "-d"))
            p.dtypes = parseDtypeList(*v);
        if (auto v = optionValue(args, "-o"))
            p.redops = parseRedopList(*v);
        if (auto v = optionValue(args, "--inplace"))
            p.inPlace = parseInPlace(*v);
        const auto lo = bytesOf(args, {"-b", "--minbytes"}, p.minBytes), hi = bytesOf(args, {"-e", "--maxbytes"}, p.maxBytes);
        const auto step = bytesOf(args, {"-i", "--stepbytes"}, 0);
        if (!lo || !hi || !step)
            return 0;
        p.minBytes = *lo;
        p.maxBytes = *hi;
        p.stepBytes = *step;
        if (auto v = optionValue(args, "-f"))
            p.stepFactor = static_cast<int>(units::parseInt(*v).value_or(0));
        if (std::find(p.ops.begin(), p.ops.end(), CollectiveOp::AllToAllV) != p.ops.end())
            return 0; // its routing decides; the runner's header says
        return static_cast<int>(planSweep(p, std::max(1, launch.np)).size());
    } catch (const std::exception&) {
        return 0; // the runner rejects it, with the reason
    }
}

RunRequest RunRequest::canonical() const
{
    const RunKindInfo& k = info(kind);
    RunRequest c = defaults(kind);
    c.title = title;
    c.args = args;
    c.program = program;
    c.pointTimeoutS = pointTimeoutS;
    if (k.benchMpi || k.gpuTool) {
        c.launch = launch.canonical();
        // A tool's one process under local mpirun is one process here: the CLI starts it so.
        if (k.gpuTool && c.launch.mode == Launch::Mode::LocalMpirun && c.launch.np == 1) {
            Launch local;
            local.mode = Launch::Mode::Local;
            local.np = 1;
            local.sbatch = c.launch.sbatch;
            c.launch = local;
        }
    } else {
        c.pointTimeoutS.reset(); // kernel runs have none
    }
    if (k.gpuTool)
        c.env = env;
    if (kind == RunKind::NcclTests)
        c.ops = ops;
    if (kind == RunKind::Probe)
        c.probe = probe;
    if (k.gemmShapes) {
        c.gemm = gemm;
        if (gemm.recipe != "model") { // the model recipe's fields mean nothing to the other recipes
            c.gemm.config.clear();
            c.gemm.parallel = GemmSelection{}.parallel;
            c.gemm.seq = GemmSelection{}.seq;
            c.gemm.microBatch = GemmSelection{}.microBatch;
        }
        if (gemm.recipe != "max-achievable")
            c.gemm.cus = 0;
    }
    return c;
}

std::vector<std::string> RunRequest::toCliArgs() const
{
    const RunKindInfo& k = info(kind);
    const RunRequest r = canonical();
    std::vector<std::string> out{"run", k.subcommand};
    const auto add = [&out](std::initializer_list<std::string> items) { out.insert(out.end(), items); };
    if (kind == RunKind::Probe)
        add({"--probe", r.probe});
    if (kind == RunKind::NcclTests) {
        std::string list;
        for (const auto& op : r.ops)
            list += (list.empty() ? "" : ",") + op;
        add({"--op", list});
    }
    if (k.gemmShapes) {
        const GemmSelection& g = r.gemm;
        if (!g.shapes.empty()) {
            std::string list;
            for (const auto& s : g.shapes)
                list += (list.empty() ? "" : ",") + s;
            add({"--shape", list});
        }
        if (!g.square.empty())
            add({"--square", g.square});
        if (!g.recipe.empty())
            add({"--recipe", g.recipe});
        if (g.cus > 0)
            add({"--cus", std::to_string(g.cus)});
        if (g.recipe == "model")
            add({"--config", g.config, "--parallel", g.parallel, "--seq", std::to_string(g.seq), "--micro-batch",
                 std::to_string(g.microBatch)});
        add({"--dtype", g.dtype});
        if (g.computeType != GemmSelection{}.computeType)
            add({"--compute-type", g.computeType});
        if (g.iters > 0)
            add({"--iters", std::to_string(g.iters)});
        if (g.coldIters > 0)
            add({"--cold-iters", std::to_string(g.coldIters)});
    }
    if (k.benchMpi || k.gpuTool) {
        const Launch& l = r.launch;
        if (l.mode != Launch::Mode::Local)
            add({"--np", std::to_string(l.np)});
        if (l.mode == Launch::Mode::Template)
            add({"--launcher", l.templ, "--nodes", std::to_string(l.nodes), "--ppn", std::to_string(l.ppn)});
        if (!l.hostfile.empty())
            add({"--hostfile", l.hostfile});
        if (l.mode == Launch::Mode::LocalMpirun || l.mode == Launch::Mode::Hostfile) {
            if (l.mpirun != Launch{}.mpirun)
                add({"--mpirun", l.mpirun});
            for (const auto& a : l.mpirunArgs)
                out.push_back("--mpirun-arg=" + a); // one token: the value starts with -
        }
        if (l.sbatch.use) {
            out.push_back("--sbatch");
            for (const auto& o : l.sbatch.options)
                out.push_back("--sbatch-option=" + o);
            if (!l.sbatch.dir.empty())
                add({"--sbatch-dir", l.sbatch.dir});
        }
    }
    if (!r.program.empty())
        add({programOption(kind), r.program});
    for (const auto& e : r.env)
        add({"--env", e});
    if (r.pointTimeoutS) {
        std::ostringstream s;
        s << *r.pointTimeoutS;
        add({"--point-timeout", s.str()});
    }
    if (!r.title.empty())
        add({"--title", r.title});
    if (!r.args.empty()) {
        out.push_back("--");
        out.insert(out.end(), r.args.begin(), r.args.end());
    }
    return out;
}

nlohmann::json toJson(const RunRequest& r)
{
    nlohmann::json j{{"kind", info(r.kind).subcommand},
                     {"launch", toJson(r.launch)},
                     {"program", r.program},
                     {"env", r.env},
                     {"point_timeout_s", r.pointTimeoutS ? nlohmann::json(*r.pointTimeoutS) : nlohmann::json()},
                     {"title", r.title},
                     {"args", r.args}};
    // Only what the kind uses: a collectives session's stored request showed a GEMM selection it
    // never had. The reader takes a missing field from the kind's defaults.
    if (r.kind == RunKind::NcclTests)
        j["ops"] = r.ops;
    if (r.kind == RunKind::Probe)
        j["probe"] = r.probe;
    if (info(r.kind).gemmShapes) {
        const GemmSelection& g = r.gemm;
        j["gemm"] = {{"shapes", g.shapes}, {"square", g.square}, {"recipe", g.recipe}, {"cus", g.cus},
                     {"dtype", g.dtype}, {"compute_type", g.computeType}, {"iters", g.iters},
                     {"cold_iters", g.coldIters}, {"config", g.config}, {"parallel", g.parallel}, {"seq", g.seq},
                     {"micro_batch", g.microBatch}};
    }
    return j;
}

RunRequest runRequestFromJson(const nlohmann::json& j)
{
    const std::string kindName = j.is_object() && j.contains("kind") && j["kind"].is_string() ? j["kind"].get<std::string>()
                                                                                              : std::string();
    const RunKindInfo* k = runKindNamed(kindName);
    if (!k)
        throw std::invalid_argument("run request: unknown kind '" + kindName + "'");
    RunRequest r = RunRequest::defaults(k->kind);
    if (j.contains("launch"))
        r.launch = launchFromJson(j["launch"], r.launch);
    readJson(j, "program", r.program);
    readJson(j, "env", r.env);
    if (j.contains("point_timeout_s") && j["point_timeout_s"].is_number())
        r.pointTimeoutS = j["point_timeout_s"].get<double>();
    readJson(j, "title", r.title);
    readJson(j, "ops", r.ops);
    readJson(j, "probe", r.probe);
    if (j.contains("gemm")) {
        const auto& g = j["gemm"];
        readJson(g, "shapes", r.gemm.shapes);
        readJson(g, "square", r.gemm.square);
        readJson(g, "recipe", r.gemm.recipe);
        readJson(g, "cus", r.gemm.cus);
        readJson(g, "dtype", r.gemm.dtype);
        readJson(g, "compute_type", r.gemm.computeType);
        readJson(g, "iters", r.gemm.iters);
        readJson(g, "cold_iters", r.gemm.coldIters);
        readJson(g, "config", r.gemm.config);
        readJson(g, "parallel", r.gemm.parallel);
        readJson(g, "seq", r.gemm.seq);
        readJson(g, "micro_batch", r.gemm.microBatch);
    }
    readJson(j, "args", r.args);
    return r;
}
} // namespace rl::runs
