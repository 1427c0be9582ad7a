#include "model/measuredrun.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <optional>

#include "store/traceresults.h"
#include "store/workspace.h"
#include "units/units.h"

namespace rl::model {
namespace {
std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool contains(const std::string& haystack, std::string_view needle)
{
    return haystack.find(needle) != std::string::npos;
}

int intOf(const nlohmann::json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<int>() : 0;
}

std::string stringOf(const nlohmann::json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}
} // namespace

std::string deviceInText(std::string_view text)
{
    // Longest first, so "MI300X" is not read as "MI300" and "H100" not inside "GH100".
    static constexpr std::array<std::string_view, 10> names{"MI355X", "MI325X", "MI300X", "MI300A", "H200", "H100",
                                                            "B200", "GB200", "A100", "MI250X"};
    const std::string t = lower(text);
    std::string best;
    for (auto name : names) {
        const std::string n = lower(name);
        for (std::size_t at = t.find(n); at != std::string::npos; at = t.find(n, at + 1)) {
            // Not a digit or letter just after it ("h1000" is not an H100), nor a letter just before.
            const bool endOk = at + n.size() >= t.size() || !std::isalnum(static_cast<unsigned char>(t[at + n.size()]));
            if (endOk && name.size() > best.size())
                best = std::string(name);
        }
    }
    return best;
}

std::string deviceFromKernelNames(const std::vector<std::string>& names, std::string* evidence)
{
    std::string vendor;
    for (const auto& name : names) {
        const std::string n = lower(name);
        std::string found;
        if (contains(n, "sm90") || contains(n, "hopper"))
            found = "H100";
        else if (contains(n, "sm100"))
            found = "B200";
        else if (contains(n, "sm80") || contains(n, "ampere"))
            found = "A100";
        else if (contains(n, "gfx942"))
            found = "MI300X";
        else if (contains(n, "gfx950"))
            found = "MI355X";
        if (!found.empty()) {
            if (evidence)
                *evidence = name;
            return found; // a generation beats a vendor
        }
        if (vendor.empty()) {
            if (contains(n, "cutlass") || contains(n, "nvjet") || contains(n, "ncclkernel") || contains(n, "nccldevkernel"))
                vendor = "NVIDIA";
            else if (n.starts_with("cijk_") || contains(n, "rccl") || contains(n, "ck::") || contains(n, "ck_tile") ||
                     contains(n, "gfx9") || contains(n, "rocm"))
                vendor = "AMD";
            if (!vendor.empty() && evidence)
                *evidence = name;
        }
    }
    return vendor;
}

std::string matchHardwareProfile(const std::string& device, const std::vector<std::string>& profileIds)
{
    if (device.empty())
        return {};
    // A vendor alone: its current flagship training part, the profile a user would pick first.
    const std::string want = device == "NVIDIA" ? "h100" : device == "AMD" ? "mi300x" : lower(device);
    for (const auto& id : profileIds)
        if (lower(id) == want)
            return id;
    for (const auto& id : profileIds) // "h100" -> "h100-sxm", "a100" -> "a100-80gb"
        if (lower(id).starts_with(want + "-"))
            return id;
    return {};
}

namespace {
// "step_trace.json" of "/root/out/step_trace.json.gz" or of "step_trace.json.gz (rank 0)".
std::string traceFileStem(std::string name)
{
    if (const auto space = name.find(" ("); space != std::string::npos)
        name.erase(space);
    if (const auto slash = name.find_last_of('/'); slash != std::string::npos)
        name.erase(0, slash + 1);
    if (name.ends_with(".gz"))
        name.erase(name.size() - 3);
    return name;
}

// The ridgeline-probe step session whose profiled steps this trace is: the one that names it
// (`run probe` stores the trace's session id), else the newest whose --trace file is the trace's.
std::optional<Session> probeStepOf(store::Workspace& ws, const Session& trace)
{
    std::optional<Session> byFile;
    const std::string stem = traceFileStem(trace.title);
    for (auto& s : ws.sessions()) { // newest first
        if (s.kind != kind::Step || s.tool != "ridgeline-probe")
            continue;
        if (intOf(s.params, "trace_session") == trace.id)
            return s;
        const std::string file = s.params.value("trace", std::string());
        if (!byFile && !file.empty() && !stem.empty() && traceFileStem(file) == stem)
            byFile = s;
    }
    return byFile;
}

// What the probe's step session states: one process (dp=1), its micro-batch and sequence, the
// model's shape and the device's name.
void takeProbeStep(MeasuredRun& run, const Session& step)
{
    const std::string from = "ridgeline-probe step, session " + std::to_string(step.id);
    run.worldSize = run.dp = run.tp = run.pp = run.cp = 1;
    run.microBatch = run.globalBatch = intOf(step.params, "batch");
    run.seqLen = intOf(step.params, "seq");
    if (const auto model = step.params.find("model"); model != step.params.end() && model->is_object()) {
        run.layers = intOf(*model, "layers");
        run.hidden = intOf(*model, "hidden");
        run.heads = intOf(*model, "heads");
    }
    if (auto d = deviceInText(step.params.value("device_name", std::string())); !d.empty())
        run.device = d, run.deviceFrom = from + " (device name)";
    run.from = from;
}
} // namespace

MeasuredRun storedMeasuredRun(store::Workspace& ws, const Session& s)
{
    MeasuredRun run = measuredRunOf(s);
    if (s.kind == kind::Trace) {
        if (const auto step = probeStepOf(ws, s)) {
            takeProbeStep(run, *step);
            return run;
        }
        std::vector<std::string> names;
        for (const auto& k : store::kernelStats(ws.database(), s.id, -1, 200))
            names.push_back(k.name);
        takeDeviceFromKernelNames(run, names);
    }
    return run;
}

bool readMegatronArgument(std::string_view line, MeasuredRun& run)
{
    const std::string l(line);
    // "using world size: 16, data-parallel size: 2, context-parallel size: 1, tensor-model-parallel
    // size: 8, pipeline-model-parallel size: 1"
    if (const auto at = l.find("using world size:"); at != std::string::npos) {
        const auto number = [&l](std::string_view key) {
            const auto k = l.find(key);
            if (k == std::string::npos)
                return 0;
            return std::atoi(l.c_str() + k + key.size());
        };
        run.worldSize = number("world size:");
        run.dp = number("data-parallel size:");
        run.cp = number("context-parallel size:");
        run.tp = number("tensor-model-parallel size:");
        run.pp = number("pipeline-model-parallel size:");
        run.from = "Megatron-LM arguments";
        return true;
    }
    // "  micro_batch_size ................................ 2"
    const auto dots = l.find(" ...");
    if (dots == std::string::npos)
        return false;
    std::string key = l.substr(0, dots);
    key.erase(0, key.find_first_not_of(' '));
    const auto lastSpace = l.find_last_of(' ');
    const auto value = units::parseInt(std::string_view(l).substr(lastSpace + 1));
    if (!value || *value <= 0 || *value > 100'000'000)
        return false;
    const int v = static_cast<int>(*value);
    if (key == "micro_batch_size")
        run.microBatch = v;
    else if (key == "global_batch_size")
        run.globalBatch = v;
    else if (key == "seq_length")
        run.seqLen = v;
    else if (key == "tensor_model_parallel_size" && run.tp == 0)
        run.tp = v;
    else if (key == "pipeline_model_parallel_size" && run.pp == 0)
        run.pp = v;
    else if (key == "context_parallel_size" && run.cp == 0)
        run.cp = v;
    else if (key == "data_parallel_size" && run.dp == 0)
        run.dp = v;
    else if (key == "world_size" && run.worldSize == 0)
        run.worldSize = v;
    else if (key == "num_layers")
        run.layers = v;
    else if (key == "hidden_size")
        run.hidden = v;
    else if (key == "num_attention_heads")
        run.heads = v;
    else
        return false;
    run.from = "Megatron-LM arguments";
    return true;
}

nlohmann::json toJson(const MeasuredRun& r)
{
    nlohmann::json j = nlohmann::json::object();
    const auto put = [&j](const char* key, int v) {
        if (v > 0)
            j[key] = v;
    };
    put("world_size", r.worldSize);
    put("dp", r.dp);
    put("tp", r.tp);
    put("pp", r.pp);
    put("cp", r.cp);
    put("micro_batch", r.microBatch);
    put("global_batch", r.globalBatch);
    put("seq_length", r.seqLen);
    put("num_layers", r.layers);
    put("hidden_size", r.hidden);
    put("num_attention_heads", r.heads);
    if (!r.device.empty())
        j["device"] = r.device, j["device_from"] = r.deviceFrom;
    if (!r.from.empty())
        j["from"] = r.from;
    return j;
}

void takeDeviceFromKernelNames(MeasuredRun& run, const std::vector<std::string>& kernelNames)
{
    std::string evidence;
    if (auto device = deviceFromKernelNames(kernelNames, &evidence); !device.empty())
        run.device = device, run.deviceFrom = "kernel names (" + evidence.substr(0, 40) + ")";
}

MeasuredRun measuredRunOf(const Session& s)
{
    MeasuredRun r;
    const auto it = s.params.find("run");
    if (it != s.params.end() && it->is_object()) {
        const auto& j = *it;
        r.worldSize = intOf(j, "world_size");
        r.dp = intOf(j, "dp");
        r.tp = intOf(j, "tp");
        r.pp = intOf(j, "pp");
        r.cp = intOf(j, "cp");
        r.microBatch = intOf(j, "micro_batch");
        r.globalBatch = intOf(j, "global_batch");
        r.seqLen = intOf(j, "seq_length");
        r.layers = intOf(j, "num_layers");
        r.hidden = intOf(j, "hidden_size");
        r.heads = intOf(j, "num_attention_heads");
        r.device = stringOf(j, "device");
        r.deviceFrom = stringOf(j, "device_from");
        r.from = stringOf(j, "from");
    }
    if (r.seqLen == 0)
        r.seqLen = intOf(s.params, "seq_length"); // logs imported before "run" was stored
    if (r.worldSize == 0)
        r.worldSize = intOf(s.params, "world_size"); // a trace's distributedInfo
    if (r.device.empty()) // the file name often says it: "megatron_16xH100.log", "rank0_mi300x.json"
        if (auto d = deviceInText(s.title); !d.empty())
            r.device = d, r.deviceFrom = "session title";
    return r;
}

std::string modelMismatch(const MeasuredRun& run, const ModelConfig& c)
{
    if (run.layers <= 0 && run.hidden <= 0 && run.heads <= 0)
        return "the session does not say which model it ran (no layer count, hidden size or attention heads), so "
               "a step of " + c.name + " may not be what it measured";
    const struct
    {
        int run, model;
        const char* what;
    } facts[] = {{run.layers, c.layers, "layers"}, {run.hidden, c.dModel, "hidden size"}, {run.heads, c.heads, "attention heads"}};
    for (const auto& f : facts)
        if (f.run > 0 && f.run != f.model)
            return "the run is another model: " + std::string(f.what) + " " + std::to_string(f.run) + ", " + c.name +
                   " has " + std::to_string(f.model);
    return {};
}

std::string parallelSpec(const ParallelConfig& p)
{
    std::string out;
    const auto add = [&out](const char* name, int v, bool always = false) {
        if (v > 1 || always)
            out += (out.empty() ? "" : ",") + std::string(name) + "=" + std::to_string(v);
    };
    add("dp", p.dp, true);
    add("tp", p.tp);
    add("pp", p.pp);
    add("ep", p.ep);
    add("cp", p.cp);
    return out;
}

RunInputs applyMeasuredRun(const MeasuredRun& run, ParallelConfig base, const std::string& hardware,
                           const std::vector<std::string>& profileIds, UserSet user)
{
    RunInputs in;
    in.parallel = base;
    auto& p = in.parallel;
    const std::string from = run.from.empty() ? std::string("the measurement") : run.from;
    const bool degrees = run.dp > 0 || run.tp > 0 || run.pp > 0 || run.cp > 0;
    if (degrees && !user.layout) {
        p.tp = run.tp > 0 ? run.tp : 1;
        p.pp = run.pp > 0 ? run.pp : 1;
        p.cp = run.cp > 0 ? run.cp : 1;
        // Megatron prints dp; otherwise it follows from the world size.
        p.dp = run.dp > 0 ? run.dp : run.worldSize > 0 ? std::max(1, run.worldSize / (p.tp * p.pp * p.cp)) : 1;
        p.ep = 1;
        in.taken.push_back("layout " + parallelSpec(p) + " (" + from + ")");
    } else if (run.worldSize > 0 && !user.layout) {
        p.dp = run.worldSize, p.tp = p.pp = p.cp = p.ep = 1;
        in.taken.push_back("layout " + parallelSpec(p) + " (" + std::to_string(run.worldSize) +
                           " ranks, all assumed data-parallel)");
    } else {
        in.assumed.push_back("layout " + parallelSpec(p) + (user.layout ? " (given)" : ""));
    }
    if (run.microBatch > 0 && !user.microBatch) {
        p.microBatch = run.microBatch;
        in.taken.push_back("micro-batch " + std::to_string(p.microBatch) + " (" + from + ")");
    } else {
        in.assumed.push_back("micro-batch " + std::to_string(p.microBatch) + (user.microBatch ? " (given)" : ""));
    }
    if (run.globalBatch > 0 && p.microBatch > 0 && p.dp > 0 && !user.microBatch) {
        p.microBatches = std::max(1, run.globalBatch / (p.microBatch * p.dp));
        in.taken.push_back("global batch " + std::to_string(run.globalBatch) + " = " + std::to_string(p.microBatches) +
                           " micro-batches of " + std::to_string(p.microBatch) + " per data-parallel rank (" + from + ")");
    } else {
        in.assumed.push_back(std::to_string(p.effectiveMicroBatches()) + " micro-batch(es) per step");
    }
    if (run.seqLen > 0 && !user.seqLen) {
        p.seqLen = run.seqLen;
        in.taken.push_back("sequence length " + std::to_string(p.seqLen) + " (" + from + ")");
    } else {
        in.assumed.push_back("sequence length " + std::to_string(p.seqLen) + (user.seqLen ? " (given)" : ""));
    }
    const std::string matched = user.hardware ? std::string() : matchHardwareProfile(run.device, profileIds);
    if (!matched.empty()) {
        in.hardware = matched;
        in.taken.push_back("hardware " + matched + " (" + run.device + " from the " + run.deviceFrom + ")");
    } else {
        in.assumed.push_back("hardware " + hardware + (user.hardware ? " (given)" : ""));
    }
    in.assumed.push_back("ZeRO stage " + std::to_string(p.zeroStage));
    return in;
}
} // namespace rl::model
