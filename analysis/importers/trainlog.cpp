// Training logs: Megatron-LM, Megatron-DeepSpeed and torchtitan console output.
#include <cmath>
#include <filesystem>

#include "importers/figurecheck.h"
#include "importers/formats.h"
#include "io/linereader.h"
#include "model/measuredrun.h"
#include "trace/trainlogparse.h"
#include "units/units.h"

namespace rl {
namespace trace {
int sniffTrainLog(std::string_view head, std::string_view)
{
    if (head.find("elapsed time per iteration (ms)") != std::string_view::npos)
        return 90;
    if (head.find("step:") != std::string_view::npos && head.find("loss:") != std::string_view::npos &&
        (head.find("tps:") != std::string_view::npos || head.find("wps:") != std::string_view::npos))
        return 90;
    if (head.find("[titan]") != std::string_view::npos || head.find("torchtitan") != std::string_view::npos)
        return 40;
    return 0;
}

ImportResult importTrainLog(ImportInput& input, const ImportOptions& options)
{
    ImportResult result;
    ProgressTicker ticker(input, options);
    io::LineReader reader(input.stream);
    SessionData s;
    std::string line, tool;
    double seqLength = kNoValue;
    int titanRank = -1;
    model::MeasuredRun run; // the layout and batch the log states, for predicted vs measured
    std::optional<double> firstStamp; // the first step's timestamp: when the run was
    try {
        while (reader.next(line)) {
            if (!ticker.tick()) {
                result.cancelled = true;
                return result;
            }
            // Megatron's argument dump and its "using world size: ..." line come before the steps.
            if (s.trainSteps.empty())
                model::readMegatronArgument(line, run);
            // Megatron's argument dump: "  seq_length ...................................... 4096"
            if (const auto p = line.find("seq_length ."); p != std::string::npos && std::isnan(seqLength)) {
                const std::string tail = line.substr(p); // the views below point into it
                const auto parts = io::splitWhitespace(tail);
                if (!parts.empty())
                    if (auto v = units::parseDouble(parts.back()))
                        seqLength = *v;
                continue;
            }
            std::string lineTool;
            double globalBatch = kNoValue;
            std::optional<TrainStep> step = parseMegatronLine(line, &lineTool, &globalBatch);
            if (step) {
                if (std::isnan(step->tokensPerSec) && !std::isnan(globalBatch) && !std::isnan(seqLength) &&
                    step->stepTimeMs > 0)
                    step->tokensPerSec = globalBatch * seqLength / (step->stepTimeMs / 1e3); // whole job
            } else if ((step = parseTorchtitanLine(line))) {
                lineTool = "torchtitan";
                // Every rank may print the same line: keep one rank's.
                if (const auto r = line.find("[rank"); r != std::string::npos && r < 8) {
                    const int rank = std::atoi(line.c_str() + r + 5);
                    if (titanRank < 0)
                        titanRank = rank;
                    if (rank != titanRank)
                        continue;
                } else if (!s.trainSteps.empty() && s.trainSteps.back().step == step->step &&
                           (s.trainSteps.back().wallTimeS == step->wallTimeS ||
                            (std::isnan(step->wallTimeS) && std::isnan(s.trainSteps.back().wallTimeS)))) {
                    continue;
                }
            }
            if (!step || !figuresInRange(*step, reader.location(), result.warnings))
                continue;
            step->line = reader.location().line;
            if (!firstStamp)
                firstStamp = findTimestamp(line);
            if (tool.empty() || tool == "megatron-lm")
                tool = lineTool;
            s.trainSteps.push_back(*step);
        }
    } catch (const std::exception& e) {
        result.ok = false;
        result.errorAt = {reader.location().line, reader.bytesRead()};
        result.error = e.what();
        return result;
    }
    if (s.trainSteps.empty())
        return result; // the registry reports "no results found"
    s.session.kind = kind::TrainingLog;
    s.session.tool = tool;
    s.session.title = std::filesystem::path(input.path).filename().string() + " (" + tool + ")";
    s.session.created = nowIso8601();
    if (firstStamp) {
        s.session.created = iso8601(static_cast<std::time_t>(*firstStamp));
        s.session.params[kCreatedFromParam] = "the log's first step timestamp";
    }
    s.session.params["tokens_per_sec_scope"] = tool == "megatron-lm" ? "job" : "per_gpu";
    if (!std::isnan(seqLength))
        s.session.params["seq_length"] = seqLength;
    const std::string fileName = std::filesystem::path(input.path).filename().string();
    if (run.device = model::deviceInText(fileName); !run.device.empty())
        run.deviceFrom = "file name";
    if (const auto j = model::toJson(run); !j.empty())
        s.session.params["run"] = j;
    finishTrainLogSession(s);
    result.sessions.push_back(std::move(s));
    return result;
}
} // namespace trace

ImporterInfo trainLogImporter()
{
    return {"trainlog", "Training log (Megatron-LM, Megatron-DeepSpeed, torchtitan)", trace::sniffTrainLog,
            trace::importTrainLog};
}
} // namespace rl
