#include "model/validation.h"
#include "model/sizingrequest.h"

#include "model/attentionkernel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "fits/median.h"

#include "io/resourcedirs.h"
#include "model/calibration.h"
#include "model/hardwareprofileloader.h"
#include "model/sizingreport.h"
#include "units/units.h"

namespace rl::model {
namespace {
using nlohmann::json;

[[noreturn]] void fail(const std::string& where, const std::string& why) { throw std::runtime_error(where + ": " + why); }

int intField(const json& j, const char* key, int fallback, const std::string& where)
{
    auto it = j.find(key);
    if (it == j.end())
        return fallback;
    if (!it->is_number_integer() || it->get<long long>() < 0)
        fail(where, std::string("field '") + key + "' must be a non-negative integer");
    return int(it->get<long long>());
}

// Narayanan et al. 2021, eq. (3): FLOPs of one iteration with full recompute (what their
// "achieved teraFLOP/s per GPU" counts): 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)).
double narayananFlops(const ModelConfig& c, double batch, double seq)
{
    const double h = c.dModel, l = c.layers, V = c.vocab;
    return 96 * batch * seq * l * h * h * (1 + seq / (6 * h) + V / (16 * l * h));
}
} // namespace

json readValidationFile(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
        fail(path, "cannot open");
    return json::parse(in, nullptr, false);
}

std::vector<ValidationRun> loadValidationRuns(const std::string& path)
{
    return validationRunsOf(readValidationFile(path), path);
}

void appendBundledRuns(std::vector<ValidationRun>& runs)
{
    for (const auto& table : {validationTablePath(), holdoutTablePath()})
        for (auto& r : loadValidationRuns(table))
            runs.push_back(std::move(r));
}

std::vector<ValidationRun> validationRunsOf(const json& root, const std::string& path)
{
    if (root.is_discarded() || !root.is_object() || !root.contains("runs") || !root["runs"].is_array())
        fail(path, "expected an object with a \"runs\" array");
    std::vector<ValidationRun> out;
    int i = 0;
    for (const auto& j : root["runs"]) {
        const std::string where = path + ": runs[" + std::to_string(i++) + "]";
        ValidationRun r;
        r.id = j.value("id", std::string{});
        r.source = j.value("source", std::string{});
        r.hardware = j.value("hardware", std::string{});
        r.dtype = j.value("dtype", std::string("bf16"));
        r.set = j.value("set", std::string("table"));
        r.framework = j.value("framework", std::string("megatron"));
        if (r.id.empty() || r.source.size() < 20 || r.hardware.empty())
            fail(where, "needs id, hardware and a source (paper, table, row)");
        if (!j.contains("model") || !j["model"].is_object())
            fail(where, "needs a model");
        json m = j["model"];
        m["ridgeline_model"] = 1;
        r.model = fromJson(m, where + ".model");
        r.model.name = r.id;
        ParallelConfig& p = r.parallel;
        const auto framework = parseFramework(r.framework);
        if (!framework)
            fail(where, "unknown framework \"" + r.framework + "\" (known: " + frameworkNames() + ")");
        p.framework = *framework;
        p.tp = std::max(1, intField(j, "tp", 1, where));
        p.pp = std::max(1, intField(j, "pp", 1, where));
        p.dp = std::max(1, intField(j, "dp", 1, where));
        p.cp = std::max(1, intField(j, "cp", 1, where));
        p.ep = std::max(1, intField(j, "ep", 1, where));
        p.etp = intField(j, "etp", 0, where);
        p.vpp = std::max(1, intField(j, "vpp", 1, where));
        p.firstStageLayers = intField(j, "first_stage_layers", 0, where);
        p.lastStageLayers = intField(j, "last_stage_layers", 0, where);
        p.microBatch = std::max(1, intField(j, "micro_batch", 1, where));
        p.seqLen = intField(j, "seq", 2048, where);
        p.zeroStage = intField(j, "zero", 0, where);
        r.globalBatch = intField(j, "global_batch", 0, where);
        if (r.globalBatch <= 0 || r.globalBatch % (p.dp * p.microBatch) != 0)
            fail(where, "global_batch must be a positive multiple of dp x micro_batch");
        p.microBatches = r.globalBatch / (p.dp * p.microBatch);
        p.recompute = recomputeFromString(j.value("recompute", std::string("none")));
        p.sequenceParallel = j.value("sp", false);
        p.flashAttention = j.value("flash", true);
        r.attentionKernel = j.value("attention_kernel", std::string{});
        p.dropout = j.value("dropout", false);
        p.gradDtype = j.value("grad_dtype", std::string{});
        if (!p.gradDtype.empty() && !isGradientDtype(p.gradDtype))
            fail(where, "grad_dtype must be \"fp32\", \"bf16\" or \"fp16\", not \"" + p.gradDtype + "\"");
        p.gradAccumulationFusion = j.value("grad_accumulation_fusion", true);
        if (j.contains("dp_overlap") && j["dp_overlap"].is_number())
            p.dpOverlap = j["dp_overlap"].get<double>();
        p.epOverlap = j.value("ep_overlap", false);
        const std::string dispatcher = j.value("ep_dispatcher", std::string("alltoall"));
        if (dispatcher != "alltoall" && dispatcher != "flex")
            fail(where, "ep_dispatcher must be \"alltoall\" or \"flex\", not \"" + dispatcher + "\"");
        p.flexDispatch = dispatcher == "flex";
        if (j.contains("tp_overlap") && j["tp_overlap"].is_number())
            p.tpOverlap = j["tp_overlap"].get<double>();
        p.dtype = r.dtype;
        const json& meas = j.value("measured", json::object());
        if (meas.contains("step_seconds") && meas["step_seconds"].is_number()) {
            r.measuredStepSeconds = meas["step_seconds"].get<double>();
            r.measuredHow = "step time";
        } else if (meas.contains("tflops_per_gpu") && meas["tflops_per_gpu"].is_number()) {
            const double rate = meas["tflops_per_gpu"].get<double>() * 1e12 * p.worldSize();
            const std::string formula = meas.value("flops", std::string("narayanan21"));
            if (formula == "narayanan21") {
                r.measuredStepSeconds = narayananFlops(r.model, r.globalBatch, p.seqLen) / rate;
                r.measuredHow = "published TFLOP/s per GPU x GPUs over the paper's FLOPs per iteration (eq. 3)";
            } else if (formula == "6nd_attention") {
                // Model FLOPs as our own count (forward x 3, causal attention): MFU-style tables.
                const auto fwd = forwardFlopsPerToken(r.model, {p.seqLen, true});
                r.measuredStepSeconds = 3 * fwd.forward() * double(r.globalBatch) * p.seqLen / rate;
                r.measuredHow = "published model TFLOP/s per GPU over the model FLOPs of the step";
            } else {
                fail(where, "unknown measured.flops '" + formula + "'");
            }
        } else if (meas.contains("tokens_per_second_per_gpu") && meas["tokens_per_second_per_gpu"].is_number()) {
            r.measuredStepSeconds = double(r.globalBatch) * p.seqLen /
                                    (meas["tokens_per_second_per_gpu"].get<double>() * p.worldSize());
            r.measuredHow = "global batch x sequence over published tokens/s per GPU x GPUs";
        }
        if (meas.value("out_of_memory", false)) {
            r.ranOutOfMemory = true;
            r.measuredStepSeconds = 0;
            r.measuredHow = "ran out of memory";
        } else if (!(r.measuredStepSeconds > 0)) {
            fail(where, "needs measured.step_seconds, tflops_per_gpu, tokens_per_second_per_gpu or out_of_memory");
        }
        out.push_back(std::move(r));
    }
    return out;
}

std::string validationTablePath()
{
    return (io::findResourceDir("validation") / "published_runs.json").string();
}

std::string holdoutTablePath()
{
    return (io::findResourceDir("validation") / "holdout_runs.json").string();
}

ValidationSummary runValidation(const std::vector<ValidationRun>& runs)
{
    ValidationSummary s;
    std::vector<double> abs;
    double signedSum = 0;
    for (const auto& run : runs) {
        ValidationRow row;
        row.run = run;
        try {
            SizingRequest req;
            req.model = run.model;
            req.hardware = loadHardwareProfile((std::filesystem::path(hardwareProfileDir()) / (run.hardware + ".json")).string());
            req.layout = run.parallel;
            req.layout.dtype = run.dtype;
            const bool measuredKernel = run.parallel.flashAttention && req.hardware.attentionKernels.count(run.attentionKernel) > 0;
            req.attentionKernel = measuredKernel ? run.attentionKernel : std::string();
            // Uncalibrated: the same assembly `size` and the GUI use, with nothing measured chosen.
            const auto sized = evaluate(req, Calibration{});
            const auto& rates = sized.rates;
            const auto& rep = sized.report;
            row.attentionBasis = attentionBasis(rates, run.model, run.parallel);
            if (run.parallel.flashAttention && !measuredKernel && !run.attentionKernel.empty())
                row.attentionBasis += "; the recipe's " + run.attentionKernel + " has no measured rates for " + run.hardware;
            row.predictedStepSeconds = rep.step.stepSeconds;
            row.error = run.ranOutOfMemory ? 0.0 : row.predictedStepSeconds / run.measuredStepSeconds - 1;
            // The hardware rate the prediction implies (recompute included), against the ceiling.
            row.predictedTflopsPerGpu = rep.step.hfu * rates.peakFlops / 1e12;
            row.maxAchievableTflops = rates.maxAchievableFlops / 1e12;
            row.aboveMaxAchievable = row.predictedTflopsPerGpu > row.maxAchievableTflops * (1 + 1e-9);
            row.step = rep.step;
            row.rates = rates;
        } catch (const std::exception& e) {
            row.refused = true;
            row.why = e.what();
        }
        if (row.refused) {
            ++s.refused;
        } else if (run.ranOutOfMemory) {
            ++s.outOfMemory;
        } else {
            const double a = std::abs(row.error);
            abs.push_back(a);
            signedSum += row.error;
            if (a > s.maxAbsError) {
                s.maxAbsError = a;
                s.worstRow = run.id;
            }
            s.aboveMaxAchievable += row.aboveMaxAchievable;
        }
        s.rows.push_back(std::move(row));
    }
    if (!abs.empty()) {
        s.medianAbsError = fits::median(abs);
        s.meanSignedError = signedSum / double(abs.size());
    }
    return s;
}

namespace {
struct BandRow
{
    bool moe;
    std::string device;
    Framework framework;
    double error;
};

const std::vector<BandRow>& bandRows()
{
    static const std::vector<BandRow> rows = [] {
        std::vector<BandRow> out;
        for (const auto& path : {validationTablePath(), holdoutTablePath()}) {
            try {
                for (const auto& row : runValidation(loadValidationRuns(path)).rows)
                    if (!row.refused)
                        out.push_back({row.run.model.isMoe(), row.run.hardware, row.run.parallel.framework, row.error});
            } catch (const std::exception&) {
                // A missing table leaves its rows out; describe() says when nothing is left.
            }
        }
        return out;
    }();
    return rows;
}
} // namespace

ErrorBand modelErrorBand(bool moe, const std::string& device, std::optional<Framework> framework)
{
    ErrorBand band;
    band.moe = moe;
    band.asked = device;
    band.askedFramework = framework;
    const auto& all = bandRows();
    // The framework narrows first (its stack's costs are what the rows test), then the device.
    for (const auto& r : all)
        band.askedFrameworkRows += r.moe == moe && framework && r.framework == *framework;
    if (band.askedFrameworkRows >= kMinDeviceRows)
        band.framework = framework;
    auto inFramework = [&](const BandRow& r) { return !band.framework || r.framework == *band.framework; };
    for (const auto& r : all)
        band.askedRows += r.moe == moe && inFramework(r) && !device.empty() && r.device == device;
    const bool ownDevice = band.askedRows >= kMinDeviceRows;
    if (ownDevice)
        band.device = device;
    std::vector<double> abs;
    double signedSum = 0;
    for (const auto& r : all)
        if (r.moe == moe && inFramework(r) && (!ownDevice || r.device == device)) {
            abs.push_back(std::fabs(r.error));
            signedSum += r.error;
        }
    band.rows = int(abs.size());
    band.bias = abs.empty() ? 0 : signedSum / double(abs.size());
    band.median = fits::median(abs);
    band.max = abs.empty() ? 0 : *std::max_element(abs.begin(), abs.end());
    return band;
}

std::string describe(const ErrorBand& band)
{
    if (band.rows == 0)
        return "unknown (validation tables missing)";
    std::string s = "median " + units::formatPercent(band.median, 0) + ", max " + units::formatPercent(band.max, 0) +
                    " over " + std::to_string(band.rows) + " published " + (band.moe ? "MoE" : "dense") + " runs";
    if (band.framework)
        s += std::string(" of ") + displayName(*band.framework);
    if (!band.device.empty())
        s += " on " + band.device;
    else if (!band.asked.empty())
        s += band.askedRows == 0 ? ", none on " + band.asked
                                 : ", " + std::to_string(band.askedRows) + " of them on " + band.asked;
    // Too few runs of the asked stack for a band of its own: the band is every stack's, and says so.
    if (band.askedFramework && !band.framework)
        s += band.askedFrameworkRows == 0
                 ? std::string(", none run with ") + displayName(*band.askedFramework)
                 : ", " + std::to_string(band.askedFrameworkRows) + " run with " + displayName(*band.askedFramework);
    return s;
}

std::string describeBias(const ErrorBand& band)
{
    if (band.rows == 0)
        return "unknown (validation tables missing)";
    // Negative: the predicted step was shorter than the measured one.
    return units::formatPercent(band.bias, 0, true) + (band.bias < 0 ? " (optimistic)" : " (pessimistic)");
}

} // namespace rl::model
