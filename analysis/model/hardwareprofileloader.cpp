#include "model/hardwareprofileloader.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include "io/resourcedirs.h"
#include "io/userpaths.h"
#include "records/wireformat.h"

namespace rl {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
const std::set<std::string> kDtypes{"fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "fp6", "fp4", "int8", "float64", "float32"};

[[noreturn]] void fail(const std::string& origin, const std::string& field, const std::string& why)
{
    throw ProfileError(origin + ": field '" + field + "': " + why);
}

// {"value": number > 0, "source": "URL or document"}; {"value": null, "note": why} = not published.
std::optional<Sourced> sourced(const json& j, const std::string& origin, const std::string& field, bool required)
{
    if (!j.is_object()) {
        if (j.is_null() && !required)
            return std::nullopt;
        fail(origin, field, "expected an object {\"value\": number, \"source\": text}");
    }
    if (j.contains("value") && j["value"].is_null()) {
        if (!j.contains("note") || !j["note"].is_string() || j["note"].get<std::string>().empty())
            fail(origin, field, "a figure that is not published needs a \"note\" saying so");
        return std::nullopt;
    }
    if (!j.contains("value") || !j["value"].is_number())
        fail(origin, field + ".value", "missing or not a number");
    const double v = j["value"].get<double>();
    if (!(v > 0))
        fail(origin, field + ".value", "must be > 0");
    if (!j.contains("source") || !j["source"].is_string() || j["source"].get<std::string>().size() < 8)
        fail(origin, field + ".source", "missing (every number needs its URL or document)");
    return Sourced{v, j["source"].get<std::string>()};
}

json toJson(const Sourced& s) { return {{"value", s.value}, {"source", s.source}}; }

// {"512": 497, "1024": 574, ...}: sequence length -> TFLOP/s, at least one point, ascending.
std::vector<std::pair<double, double>> seqCurve(const json& j, const std::string& origin, const std::string& field)
{
    if (!j.is_object() || j.empty())
        fail(origin, field, "expected an object {\"<sequence length>\": TFLOP/s, ...}");
    std::vector<std::pair<double, double>> out;
    for (const auto& [seq, v] : j.items()) {
        char* end = nullptr;
        const double s = std::strtod(seq.c_str(), &end);
        if (seq.empty() || *end != '\0' || !(s > 0))
            fail(origin, field + "." + seq, "the key must be a sequence length in tokens");
        if (!v.is_number() || !(v.get<double>() > 0))
            fail(origin, field + "." + seq, "expected TFLOP/s > 0");
        out.emplace_back(s, v.get<double>());
    }
    std::sort(out.begin(), out.end());
    return out;
}

void readAttentionKernels(const json& j, const std::string& origin, HardwareProfile& hw)
{
    if (!j.contains("attention_kernels"))
        return;
    if (!j["attention_kernels"].is_object())
        fail(origin, "attention_kernels", "expected an object keyed by kernel name");
    for (const auto& [name, entry] : j["attention_kernels"].items()) {
        // One head dim: an object; several: an array of them.
        const json sets = entry.is_array() ? entry : json::array({entry});
        if (sets.empty())
            fail(origin, "attention_kernels." + name, "expected an object or a non-empty array of them");
        AttentionKernel kernel;
        for (std::size_t i = 0; i < sets.size(); ++i) {
            const json& k = sets[i];
            const std::string field = "attention_kernels." + name + (entry.is_array() ? "[" + std::to_string(i) + "]" : "");
            if (!k.is_object())
                fail(origin, field, "expected an object");
            AttentionKernelRates r;
            r.name = name;
            r.headDim = wire::integerField<int>(k, "head_dim", 128);
            if (!k.contains("forward") || !k.contains("backward"))
                fail(origin, field, "needs \"forward\" and \"backward\" rates by sequence length");
            r.forward = seqCurve(k["forward"], origin, field + ".forward");
            r.backward = seqCurve(k["backward"], origin, field + ".backward");
            if (k.contains("forward_causal"))
                r.forwardCausal = seqCurve(k["forward_causal"], origin, field + ".forward_causal");
            r.source = k.value("source", std::string{});
            if (r.source.size() < 8)
                fail(origin, field + ".source", "missing (every number needs its URL or document)");
            for (const auto& other : kernel)
                if (other.headDim == r.headDim)
                    fail(origin, field + ".head_dim", "head dim " + std::to_string(r.headDim) + " is listed twice");
            kernel.push_back(std::move(r));
        }
        std::sort(kernel.begin(), kernel.end(), [](const auto& a, const auto& b) { return a.headDim < b.headDim; });
        hw.attentionKernels[name] = std::move(kernel);
    }
}
} // namespace

HardwareProfile hardwareProfileFromJson(const json& j, const std::string& origin)
{
    if (!j.is_object())
        throw ProfileError(origin + ": not a JSON object");
    HardwareProfile hw;
    for (const char* key : {"id", "name", "vendor"}) {
        if (!j.contains(key) || !j[key].is_string() || j[key].get<std::string>().empty())
            fail(origin, key, "missing");
    }
    hw.id = j["id"].get<std::string>();
    hw.name = j["name"].get<std::string>();
    hw.vendor = j["vendor"].get<std::string>();
    hw.measured = j.value("measured", false);
    hw.gpusPerNode = wire::integerField<int>(j, "gpus_per_node", 8);
    hw.notes = j.value("notes", std::string{});
    hw.intraNodeTopology = j.value("intra_node_topology", std::string{});
    // Units live in the key names; a bare "peak" or "hbm_bandwidth" would be ambiguous.
    for (const char* bad : {"peak", "peak_flops", "hbm_bandwidth", "hbm_capacity", "bandwidth"})
        if (j.contains(bad))
            fail(origin, bad, "no unit in the key name (use peak_tflops, hbm_bandwidth_gbs, hbm_capacity_gb)");
    auto readMap = [&](const char* key, std::map<std::string, Sourced>& out, bool required) {
        if (!j.contains(key)) {
            if (required)
                fail(origin, key, "missing");
            return;
        }
        if (!j[key].is_object())
            fail(origin, key, "expected an object keyed by dtype");
        for (const auto& [dtype, v] : j[key].items()) {
            if (!kDtypes.count(dtype))
                fail(origin, std::string(key) + "." + dtype, "unknown dtype (fp64, fp32, tf32, bf16, fp16, fp8, fp6, fp4, int8)");
            if (auto s = sourced(v, origin, std::string(key) + "." + dtype, false))
                out[dtype] = *s;
        }
    };
    readMap("peak_tflops", hw.peakTflops, true);
    if (hw.peakTflops.empty())
        fail(origin, "peak_tflops", "no dtype with a published figure");
    readMap("max_achievable_tflops", hw.maxAchievableTflops, false);
    auto one = [&](const char* key, Sourced& out, bool required) {
        if (!j.contains(key)) {
            if (required)
                fail(origin, key, "missing");
            return;
        }
        if (auto s = sourced(j[key], origin, key, false))
            out = *s;
    };
    one("hbm_capacity_gb", hw.hbmCapacityGB, !hw.measured);
    one("hbm_bandwidth_gbs", hw.hbmBandwidthGBs, !hw.measured);
    one("compute_units", hw.computeUnits, !hw.measured);
    one("intra_node_link_gbs", hw.intraNodeLinkGBs, false);
    one("in_switch_reduction", hw.inSwitchReduction, false);
    one("nic_gbs_per_gpu", hw.nicGBsPerGpu, false);
    one("scale_up_gpus", hw.scaleUpGpus, false);
    one("nics_per_node", hw.nicsPerNode, false);
    one("nic_line_rate_gbps", hw.nicLineRateGbps, false);
    one("gpus_per_nic", hw.gpusPerNic, false);
    // Per-GPU scale-out bandwidth follows from the NIC: line rate (bits) / 8 / GPUs sharing it.
    if (hw.nicGBsPerGpu.value <= 0 && hw.nicLineRateGbps.value > 0) {
        const double share = hw.gpusPerNic.value > 0 ? hw.gpusPerNic.value : 1.0;
        hw.nicGBsPerGpu = {hw.nicLineRateGbps.value / 8 / share,
                           "derived: nic_line_rate_gbps / 8 / gpus_per_nic (" + hw.nicLineRateGbps.source + ")"};
    }
    for (const auto& [dtype, ach] : hw.maxAchievableTflops) {
        auto peak = hw.peakTflops.find(dtype);
        if (peak != hw.peakTflops.end() && ach.value > peak->second.value)
            fail(origin, "max_achievable_tflops." + dtype, "above the peak for that dtype");
    }
    readAttentionKernels(j, origin, hw);
    if (j.contains("memory_levels")) {
        if (!j["memory_levels"].is_array())
            fail(origin, "memory_levels", "expected an array");
        int i = 0;
        for (const auto& m : j["memory_levels"]) {
            const std::string field = "memory_levels[" + std::to_string(i++) + "]";
            MemoryLevel level;
            level.name = m.value("name", std::string{});
            if (level.name.empty())
                fail(origin, field + ".name", "missing");
            if (!m.contains("bandwidth_gbs") || !m["bandwidth_gbs"].is_number() || !(m["bandwidth_gbs"].get<double>() > 0))
                fail(origin, field + ".bandwidth_gbs", "missing or not a positive number (GB/s)");
            level.bandwidthGBs = m["bandwidth_gbs"].get<double>();
            level.capacityBytes = m.value("capacity_bytes", 0.0);
            level.source = m.value("source", std::string{});
            if (level.source.size() < 8)
                fail(origin, field + ".source", "missing");
            hw.memoryLevels.push_back(level);
        }
    }
    return hw;
}

HardwareProfile loadHardwareProfile(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
        throw ProfileError(path + ": cannot open");
    const json j = json::parse(in, nullptr, false);
    if (j.is_discarded())
        throw ProfileError(path + ": not valid JSON");
    return hardwareProfileFromJson(j, path);
}

std::vector<HardwareProfile> loadHardwareProfiles(const std::string& dir)
{
    std::vector<HardwareProfile> out;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.is_regular_file() && e.path().extension() == ".json")
            out.push_back(loadHardwareProfile(e.path().string()));
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    return out;
}

std::string hardwareProfileDir()
{
    return io::findResourceDir("hardware").string();
}

json toJson(const HardwareProfile& hw)
{
    json j{{"id", hw.id}, {"name", hw.name}, {"vendor", hw.vendor}, {"measured", hw.measured},
           {"gpus_per_node", hw.gpusPerNode}, {"notes", hw.notes}};
    for (const auto& [k, v] : hw.peakTflops)
        j["peak_tflops"][k] = toJson(v);
    for (const auto& [k, v] : hw.maxAchievableTflops)
        j["max_achievable_tflops"][k] = toJson(v);
    auto put = [&](const char* key, const Sourced& s) {
        if (s.value > 0)
            j[key] = toJson(s);
    };
    put("hbm_capacity_gb", hw.hbmCapacityGB);
    put("hbm_bandwidth_gbs", hw.hbmBandwidthGBs);
    put("compute_units", hw.computeUnits);
    put("intra_node_link_gbs", hw.intraNodeLinkGBs);
    put("in_switch_reduction", hw.inSwitchReduction);
    if (!hw.nicGBsPerGpu.source.starts_with("derived:"))
        put("nic_gbs_per_gpu", hw.nicGBsPerGpu);
    put("scale_up_gpus", hw.scaleUpGpus);
    put("nics_per_node", hw.nicsPerNode);
    put("nic_line_rate_gbps", hw.nicLineRateGbps);
    put("gpus_per_nic", hw.gpusPerNic);
    if (!hw.intraNodeTopology.empty())
        j["intra_node_topology"] = hw.intraNodeTopology;
    auto curve = [](const std::vector<std::pair<double, double>>& c) {
        json o = json::object();
        for (const auto& [seq, tflops] : c)
            o[std::to_string(static_cast<long long>(seq))] = tflops;
        return o;
    };
    for (const auto& [name, kernel] : hw.attentionKernels) {
        json sets = json::array();
        for (const auto& k : kernel) {
            json out;
            out["head_dim"] = k.headDim;
            out["forward"] = curve(k.forward);
            if (!k.forwardCausal.empty())
                out["forward_causal"] = curve(k.forwardCausal);
            out["backward"] = curve(k.backward);
            out["source"] = k.source;
            sets.push_back(std::move(out));
        }
        j["attention_kernels"][name] = sets.size() == 1 ? sets[0] : sets; // the form it is read in
    }
    j["memory_levels"] = json::array();
    for (const auto& m : hw.memoryLevels)
        j["memory_levels"].push_back(
            {{"name", m.name}, {"bandwidth_gbs", m.bandwidthGBs}, {"capacity_bytes", m.capacityBytes}, {"source", m.source}});
    return j;
}

std::string profileDtype(const std::string& d)
{
    static const std::map<std::string, std::string> names = {
        {"float64", "fp64"}, {"double", "fp64"}, {"f64_r", "fp64"}, {"fp64", "fp64"},
        {"float32", "fp32"}, {"float", "fp32"},  {"f32_r", "fp32"}, {"fp32", "fp32"},
        {"tf32", "tf32"},    {"xf32", "tf32"},   {"bfloat16", "bf16"}, {"bf16_r", "bf16"},
        {"bf16", "bf16"},    {"float16", "fp16"}, {"half", "fp16"},  {"f16_r", "fp16"},
        {"fp16", "fp16"},    {"float8", "fp8"},  {"fp8", "fp8"},    {"f8_r", "fp8"},
        {"float8_e4m3", "fp8"}, {"float8_e4m3fn", "fp8"}, // ridgeline-probe's torch.float8_e4m3fn
        {"int8", "int8"},    {"i8_r", "int8"}};
    const auto it = names.find(d);
    return it == names.end() ? d : it->second;
}

std::string userHardwareProfileDir()
{
    return (fs::path(io::userDataDir()) / "hardware").string();
}

std::vector<HardwareProfile> availableHardwareProfiles()
{
    std::vector<HardwareProfile> all = loadHardwareProfiles(hardwareProfileDir());
    std::error_code ec;
    if (fs::is_directory(userHardwareProfileDir(), ec))
        for (auto& mine : loadHardwareProfiles(userHardwareProfileDir())) {
            auto it = std::find_if(all.begin(), all.end(), [&](const HardwareProfile& p) { return p.id == mine.id; });
            if (it != all.end())
                *it = std::move(mine);
            else
                all.push_back(std::move(mine));
        }
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    return all;
}

std::string saveUserHardwareProfile(const HardwareProfile& hw)
{
    const bool idOk = !hw.id.empty() && std::all_of(hw.id.begin(), hw.id.end(), [](unsigned char c) {
        return std::isalnum(c) || c == '-' || c == '_' || c == '.';
    }) && hw.id[0] != '.';
    if (!idOk)
        throw ProfileError("profile id '" + hw.id + "': use letters, digits, '-', '_' and '.'");
    const json j = toJson(hw);
    hardwareProfileFromJson(j, hw.id); // the schema's checks, exactly as loading will apply them
    const fs::path dir = userHardwareProfileDir();
    std::error_code ec;
    fs::create_directories(dir, ec);
    const fs::path path = dir / (hw.id + ".json");
    const fs::path tmp = dir / (hw.id + ".json.part");
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << j.dump(2) << '\n';
        if (!out.flush())
            throw ProfileError(tmp.string() + ": cannot write");
    }
    fs::rename(tmp, path, ec);
    if (ec)
        throw ProfileError(path.string() + ": " + ec.message());
    return path.string();
}

namespace {
fs::path userProfilePath(const std::string& id)
{
    const fs::path path = fs::path(userHardwareProfileDir()) / (id + ".json");
    std::error_code ec;
    if (id.empty() || id.find('/') != std::string::npos || !fs::is_regular_file(path, ec))
        throw ProfileError("'" + id + "' is not one of your profiles (" + userHardwareProfileDir() +
                           "); shipped profiles cannot be changed, copy one instead");
    return path;
}
} // namespace

std::string deleteUserHardwareProfile(const std::string& id)
{
    const fs::path path = userProfilePath(id);
    std::error_code ec;
    fs::remove(path, ec);
    if (ec)
        throw ProfileError(path.string() + ": " + ec.message());
    return path.string();
}

std::string renameUserHardwareProfile(const std::string& from, const std::string& to)
{
    const fs::path old = userProfilePath(from);
    for (const auto& hw : availableHardwareProfiles())
        if (hw.id == to)
            throw ProfileError("a profile '" + to + "' exists already: choose another id");
    HardwareProfile hw = loadHardwareProfile(old.string());
    hw.id = to;
    const std::string path = saveUserHardwareProfile(hw); // checks the id; the old file stays on failure
    std::error_code ec;
    fs::remove(old, ec);
    if (ec)
        throw ProfileError(old.string() + ": " + ec.message());
    return path;
}

HardwareProfile findHardwareProfile(const std::string& idOrPath)
{
    std::error_code ec;
    if (fs::is_regular_file(idOrPath, ec))
        return loadHardwareProfile(idOrPath);
    const auto all = availableHardwareProfiles();
    for (const auto& p : all)
        if (p.id == idOrPath)
            return p;
    std::string known;
    for (const auto& p : all)
        known += (known.empty() ? "" : ", ") + p.id;
    throw ProfileError("no hardware profile '" + idOrPath + "' (known: " + (known.empty() ? "none" : known) +
                       "): use one of these ids, or the path of a profile file (shipped ones are in " +
                       hardwareProfileDir() + ", yours in " + userHardwareProfileDir() + ")");
}
} // namespace rl
