// Line parsers for training logs; the files that read whole logs are importers/trainlog*.cpp.
#include "trace/trainlogparse.h"

#include <charconv>
#include <cmath>
#include <ctime>

#include "io/linereader.h"
#include "trace/trainloganalysis.h"
#include "units/units.h"

namespace rl::trace {
namespace {
// Accepts "1.234E+00", "3,456", "nan", "39.56%", "40.12GiB(50.76%)" (leading number only).
std::optional<double> number(std::string_view v)
{
    v = io::trim(v);
    std::string clean;
    for (char c : v) {
        if (c == ',')
            continue;
        if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+' || c == 'e' ||
              c == 'E' || c == 'n' || c == 'a' || c == 'N' || c == 'i' || c == 'f' || c == 'I'))
            break;
        clean += c;
    }
    if (clean == "nan" || clean == "NaN" || clean == "-nan")
        return std::nan("");
    double d = 0;
    const auto r = std::from_chars(clean.data(), clean.data() + clean.size(), d);
    if (r.ec != std::errc() || r.ptr == clean.data())
        return std::nullopt;
    return d;
}
} // namespace

std::string stripAnsi(std::string_view line)
{
    std::string out;
    out.reserve(line.size());
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
            i += 2;
            while (i < line.size() && !std::isalpha(static_cast<unsigned char>(line[i])))
                ++i;
            continue;
        }
        out += line[i];
    }
    return out;
}

std::optional<double> findTimestamp(std::string_view line)
{
    const std::size_t limit = std::min<std::size_t>(line.size(), 96);
    for (std::size_t i = 0; i + 19 <= limit; ++i) {
        const std::string_view t = line.substr(i, 19);
        auto d = [&](std::size_t k) { return std::isdigit(static_cast<unsigned char>(t[k])) != 0; };
        if (!(d(0) && d(1) && d(2) && d(3) && t[4] == '-' && d(5) && d(6) && t[7] == '-' && d(8) && d(9) &&
              (t[10] == ' ' || t[10] == 'T') && d(11) && d(12) && t[13] == ':' && d(14) && d(15) && t[16] == ':' &&
              d(17) && d(18)))
            continue;
        std::tm tm{};
        auto n = [&](std::size_t a, std::size_t len) {
            int v = 0;
            std::from_chars(t.data() + a, t.data() + a + len, v);
            return v;
        };
        tm.tm_year = n(0, 4) - 1900;
        tm.tm_mon = n(5, 2) - 1;
        tm.tm_mday = n(8, 2);
        tm.tm_hour = n(11, 2);
        tm.tm_min = n(14, 2);
        tm.tm_sec = n(17, 2);
        double secs = static_cast<double>(timegm(&tm));
        // fractional part: ",508" (Python logging) or ".508"
        std::size_t j = i + 19;
        if (j < line.size() && (line[j] == ',' || line[j] == '.')) {
            double scale = 0.1;
            for (++j; j < line.size() && std::isdigit(static_cast<unsigned char>(line[j])); ++j, scale /= 10)
                secs += (line[j] - '0') * scale;
        }
        return secs;
    }
    return std::nullopt;
}

std::optional<TrainStep> parseMegatronLine(std::string_view line, std::string* tool, double* globalBatchOut)
{
    const std::size_t it = line.find("iteration ");
    if (it == std::string_view::npos || line.find(" | ") == std::string_view::npos)
        return std::nullopt;
    std::string_view rest = line.substr(it + 10);
    const std::size_t slash = rest.find('/');
    if (slash == std::string_view::npos)
        return std::nullopt;
    const auto stepNo = units::parseInt(io::trim(rest.substr(0, slash)));
    if (!stepNo)
        return std::nullopt;
    TrainStep s;
    s.step = *stepNo;
    if (auto ts = findTimestamp(line.substr(0, it)))
        s.wallTimeS = *ts;
    bool deepspeed = false;
    double globalBatch = kNoValue, seqLen = kNoValue, samplesPerSec = kNoValue;
    std::size_t pos = rest.find('|');
    while (pos != std::string_view::npos) {
        const std::size_t next = rest.find('|', pos + 1);
        const std::string_view field = rest.substr(pos + 1, next == std::string_view::npos ? std::string_view::npos
                                                                                             : next - pos - 1);
        pos = next;
        const std::size_t colon = field.rfind(':');
        if (colon == std::string_view::npos)
            continue;
        const std::string_view key = io::trim(field.substr(0, colon));
        const auto v = number(field.substr(colon + 1));
        if (!v)
            continue;
        if (key == "elapsed time per iteration (ms)")
            s.stepTimeMs = *v;
        else if (key == "lm loss" || (key == "loss" && std::isnan(s.loss)))
            s.loss = *v;
        else if (key == "learning rate")
            s.learningRate = *v;
        else if (key == "grad norm")
            s.gradNorm = *v;
        else if (key == "number of skipped iterations")
            s.skippedIterations = units::wholeNumber(*v).value_or(0);
        else if (key == "number of nan iterations")
            s.nanIterations = units::wholeNumber(*v).value_or(0);
        else if (key == "throughput per GPU (TFLOP/s/GPU)" || key == "TFLOPs")
            s.tflopsPerGpu = *v;
        else if (key == "tokens per gpu per second (tgs)")
            s.tokensPerSec = *v;
        else if (key == "global batch size")
            globalBatch = *v;
        else if (key == "actual seqlen")
            seqLen = *v, deepspeed = true;
        else if (key == "samples per second")
            samplesPerSec = *v, deepspeed = true;
        else if (key == "consumed tokens")
            deepspeed = true;
    }
    if (std::isnan(s.tokensPerSec) && !std::isnan(samplesPerSec) && !std::isnan(seqLen))
        s.tokensPerSec = samplesPerSec * seqLen;
    if (globalBatchOut)
        *globalBatchOut = globalBatch;
    if (tool)
        *tool = deepspeed ? "megatron-deepspeed" : "megatron-lm";
    if (std::isnan(s.stepTimeMs) && std::isnan(s.loss))
        return std::nullopt;
    return s;
}

std::optional<TrainStep> parseTorchtitanLine(std::string_view raw)
{
    const std::string line = stripAnsi(raw);
    const std::size_t at = line.find("step:");
    if (at == std::string::npos || line.find("loss:") == std::string::npos)
        return std::nullopt;
    TrainStep s;
    if (auto ts = findTimestamp(std::string_view(line).substr(0, at)))
        s.wallTimeS = *ts;
    const auto tokens = io::splitWhitespace(std::string_view(line).substr(at));
    bool haveStep = false;
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
        std::string_view key = tokens[i];
        if (!key.ends_with(':'))
            continue;
        key.remove_suffix(1);
        const auto v = number(tokens[i + 1]);
        if (!v)
            continue;
        if (key == "step") {
            if (auto n = units::wholeNumber(*v)) // "step: 1e99" is no step
                s.step = *n, haveStep = true;
        }
        else if (key == "loss")
            s.loss = *v;
        else if (key == "grad_norm")
            s.gradNorm = *v;
        else if (key == "tps" || key == "wps")
            s.tokensPerSec = *v;
        else if (key == "tflops")
            s.tflopsPerGpu = *v;
        else if (key == "mfu")
            s.mfu = *v / 100.0;
        else if (key == "lr")
            s.learningRate = *v;
    }
    if (!haveStep)
        return std::nullopt;
    if (std::isnan(s.loss) && line.find("loss: nan") != std::string::npos)
        s.nanIterations = 1;
    return s;
}

void finishTrainLogSession(SessionData& s)
{
    const TrainLogSummary sum = analyzeTrainLog(s.trainSteps, s.trainEvents);
    auto& p = s.session.params;
    p["steps_logged"] = static_cast<std::int64_t>(s.trainSteps.size());
    p["median_step_ms"] = std::isnan(sum.medianStepMs) ? nlohmann::json() : nlohmann::json(sum.medianStepMs);
    p["wall_s"] = sum.wallS;
    p["productive_s"] = sum.productiveS;
    p["goodput"] = sum.goodput;
    p["wall_from_timestamps"] = sum.wallFromTimestamps;
    p["restarts"] = sum.restarts;
    p["stalls"] = sum.stalls;
    p["gaps"] = sum.gaps;
    p["skipped_iterations"] = sum.skippedIterations;
    p["redone_iterations"] = sum.redoneIterations;
}
} // namespace rl::trace
