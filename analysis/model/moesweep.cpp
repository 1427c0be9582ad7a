#include "model/moesweep.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include <csv.h>

#include "kernels/sizelist.h"

namespace rl::model {

const char* toString(SweepHold h)
{
    switch (h) {
    case SweepHold::ActiveParams: return "active-params";
    case SweepHold::TotalParams: return "total-params";
    case SweepHold::FlopsPerToken: return "flops";
    case SweepHold::None: return "none";
    }
    return "none";
}

MoeSweepRow evaluateMoeConfig(const ModelConfig& c, const ParallelConfig& p, const InferenceOptions& decode,
                              const DeviceRates& rates, const GemmTiming& timing, const CollectiveTimeSource& coll)
{
    MoeSweepRow row;
    row.experts = c.moe.experts;
    row.topK = c.moe.topK;
    row.sharedExperts = c.moe.sharedExperts;
    row.expertWidth = c.moe.expertWidth;
    const auto params = countParams(c);
    const auto fwd = forwardFlopsPerToken(c, {p.seqLen, true});
    row.totalParams = params.total();
    row.activeParams = params.active();
    row.flopsPerToken = fwd.forward();
    const auto step = estimateStep(c, params, fwd, p, rates, timing, coll);
    row.memoryPerGpuBytes = step.memory.total();
    row.fits = step.fitsMemory();
    row.stepSeconds = step.stepSeconds;
    row.tokensPerSecond = step.tokensPerSecond;
    row.mfu = step.mfu;
    row.decodeSecondsPerToken = decodeStep(c, params, decode, rates, timing).secondsPerToken;
    return row;
}

namespace {
// Per MoE layer: matrices·d·width per expert; the held quantity as a function of the width.
int solveWidth(const ModelConfig& base, SweepHold hold, double target, int E, int k, int S, int multiple)
{
    const double m = base.mlp == MlpType::SwiGlu ? 3 : 2, d = base.dModel;
    double w = 0;
    switch (hold) {
    case SweepHold::ActiveParams: w = target / (m * d * (k + S)); break;
    case SweepHold::TotalParams: w = target / (m * d * (E + S)); break;
    case SweepHold::FlopsPerToken: w = (target - 2 * d * E) / (2 * m * d * (k + S)); break;
    case SweepHold::None: break;
    }
    const long long r = std::llround(w / multiple) * multiple;
    return int(std::max<long long>(multiple, r));
}

double heldValue(const ModelConfig& b, SweepHold hold)
{
    const double m = b.mlp == MlpType::SwiGlu ? 3 : 2, d = b.dModel;
    const double fe = b.moe.expertWidth, fs = b.sharedWidth();
    const double k = b.moe.topK, E = b.moe.experts, S = b.moe.sharedExperts;
    switch (hold) {
    case SweepHold::ActiveParams: return m * d * (k * fe + S * fs);
    case SweepHold::TotalParams: return m * d * (E * fe + S * fs);
    case SweepHold::FlopsPerToken: return 2 * m * d * (k * fe + S * fs) + 2 * d * E;
    case SweepHold::None: return 0;
    }
    return 0;
}
} // namespace

double sweepHeldValue(const MoeSweepSpec& spec) { return heldValue(spec.base, spec.hold); }

std::vector<ModelConfig> moeSweepShapes(const MoeSweepSpec& spec)
{
    if (!spec.base.isMoe())
        throw std::invalid_argument("MoE sweep needs a MoE base config (experts, top-k, expert width)");
    const double held = heldValue(spec.base, spec.hold);
    const std::vector<int> widths = spec.hold == SweepHold::None ? spec.expertWidths : std::vector<int>{0};
    std::vector<ModelConfig> shapes;
    shapes.reserve(spec.experts.size() * spec.topK.size() * spec.sharedExperts.size() * widths.size());
    ModelConfig work = spec.base;
    for (int E : spec.experts)
        for (int k : spec.topK)
            for (int S : spec.sharedExperts)
                for (int w : widths) {
                    if (k > E || E <= 0 || k <= 0 || S < 0)
                        continue;
                    work.moe.experts = E;
                    work.moe.topK = k;
                    work.moe.sharedExperts = S;
                    work.moe.expertWidth = spec.hold == SweepHold::None
                                               ? w
                                               : solveWidth(spec.base, spec.hold, held, E, k, S, spec.widthMultiple);
                    work.moe.sharedWidth = work.moe.expertWidth;
                    if (work.moe.expertWidth <= 0)
                        continue;
                    shapes.push_back(work);
                }
    return shapes;
}

MoeSweepResult runMoeSweep(const MoeSweepSpec& spec, const DeviceRates& rates, const CollectiveTimeSource& coll,
                           const SweepProgress& progress)
{
    MoeSweepResult result;
    const auto shapes = moeSweepShapes(spec);
    result.heldValue = heldValue(spec.base, spec.hold);
    result.deviceMemoryBytes = rates.hbmCapacityBytes;
    const std::size_t total = shapes.size();
    result.rows.reserve(total);
    ParallelConfig par = spec.parallel;
    std::size_t done = 0;
    for (const auto& work : shapes) {
        ++done;
        if (progress && done % 4096 == 0 && !progress(done, total)) {
            result.cancelled = true;
            return result;
        }
        par.ep = std::gcd(spec.parallel.ep, work.moe.experts); // EP must divide the expert count
        if (par.dp % par.ep != 0)
            par.ep = 1;
        result.rows.push_back(evaluateMoeConfig(work, par, spec.decode, rates, spec.timing, coll));
    }
    if (progress)
        progress(total, total);
    markParetoFront(result.rows);
    return result;
}

void markParetoFront(std::vector<MoeSweepRow>& rows)
{
    std::vector<std::size_t> idx(rows.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::sort(idx.begin(), idx.end(), [&rows](std::size_t a, std::size_t b) {
        if (rows[a].tokensPerSecond != rows[b].tokensPerSecond)
            return rows[a].tokensPerSecond > rows[b].tokensPerSecond;
        return rows[a].decodeSecondsPerToken < rows[b].decodeSecondsPerToken;
    });
    double bestLatency = INFINITY, bestThroughput = -1;
    for (std::size_t i : idx) {
        auto& r = rows[i];
        if (!r.fits) {
            r.pareto = false; // out of memory: no trade-off to offer, and it must not hide one that fits
            continue;
        }
        if (r.decodeSecondsPerToken < bestLatency) {
            r.pareto = true;
            bestLatency = r.decodeSecondsPerToken;
            bestThroughput = r.tokensPerSecond;
        } else {
            // Exact duplicates of a front point are not dominated either.
            r.pareto = r.decodeSecondsPerToken == bestLatency && r.tokensPerSecond == bestThroughput;
        }
    }
}

namespace {
void csvField(std::string& line, const std::string& field)
{
    std::string buf(field.size() * 2 + 2, '\0');
    const std::size_t n = csv_write(buf.data(), buf.size(), field.data(), field.size());
    if (!line.empty())
        line += ',';
    line.append(buf.data(), std::min(n, buf.size()));
}

std::string num(double v)
{
    char b[32];
    std::snprintf(b, sizeof b, "%.6g", v);
    return b;
}
} // namespace

bool allDenseShapes(const std::vector<MoeSweepRow>& rows)
{
    return !rows.empty() && std::all_of(rows.begin(), rows.end(), [](const MoeSweepRow& r) { return r.isDenseShape(); });
}

std::string toCsv(const MoeSweepResult& r)
{
    // The rows of a dense shape search (plan/shapesearch.h) say their own dimensions instead.
    const bool dense = allDenseShapes(r.rows);
    std::string out;
    std::string line;
    const auto shape = dense ? std::vector<const char*>{"hidden", "ffn_width", "layers", "heads", "kv_heads"}
                             : std::vector<const char*>{"experts", "top_k", "shared_experts", "expert_width"};
    for (const char* h : shape)
        csvField(line, h);
    for (const char* h : {"total_params", "active_params", "fwd_flops_per_token", "memory_per_gpu_GB", "step_time_s",
                          "tokens_per_s", "mfu_percent", "decode_ms_per_token", "fits_device", "pareto"})
        csvField(line, h);
    out += line + "\r\n";
    for (const auto& row : r.rows) {
        line.clear();
        const auto cells = dense ? std::vector<int>{row.dModel, row.ffnWidth, row.layers, row.heads, row.kvHeads}
                                 : std::vector<int>{row.experts, row.topK, row.sharedExperts, row.expertWidth};
        for (int v : cells)
            csvField(line, std::to_string(v));
        csvField(line, num(row.totalParams));
        csvField(line, num(row.activeParams));
        csvField(line, num(row.flopsPerToken));
        csvField(line, num(row.memoryPerGpuBytes / 1e9));
        csvField(line, num(row.stepSeconds));
        csvField(line, num(row.tokensPerSecond));
        csvField(line, num(row.mfu * 100));
        csvField(line, num(row.decodeSecondsPerToken * 1e3));
        csvField(line, row.fits ? "yes" : "no");
        csvField(line, row.pareto ? "yes" : "no");
        out += line + "\r\n";
    }
    return out;
}
std::vector<int> parseSweepValues(std::string_view text, const std::string& what)
{
    std::vector<std::int64_t> values;
    try {
        values = kernels::parseIntList(text, 100'000);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(what + ": " + e.what());
    }
    if (values.empty())
        throw std::invalid_argument(what + ": no values");
    std::vector<int> out;
    out.reserve(values.size());
    for (auto v : values) {
        if (v < 0 || v > 1'000'000)
            throw std::invalid_argument(what + ": " + std::to_string(v) + " is outside 0..1000000");
        out.push_back(static_cast<int>(v));
    }
    return out;
}
} // namespace rl::model
