#include "trace/traceimport.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "io/inputfile.h"
#include "trace/kinetoreader.h"
#include "trace/traceanalysis.h"

namespace rl::trace {
namespace fs = std::filesystem;

int sniffKineto(std::string_view head, std::string_view fileName)
{
    if (head.find("\"traceEvents\"") != std::string_view::npos)
        return 90;
    const std::size_t first = head.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && head[first] == '[' && head.find("\"ph\"") != std::string_view::npos &&
        head.find("\"ts\"") != std::string_view::npos)
        return 60;
    if (fileName.find(".pt.trace.json") != std::string_view::npos)
        return 50; // Kineto's file naming; content decides when it is not a trace
    return 0;
}

bool readKinetoInput(ImportInput& input, const ImportOptions& options, TraceData& data, ImportResult& result)
{
    ProgressTicker ticker(input, options);
    data.path = input.path;
    try {
        if (!readKinetoTrace(input.stream, data, [&ticker] { return ticker.tick(); })) {
            result.cancelled = true;
            return false;
        }
    } catch (const TraceError& e) {
        result.ok = false;
        result.errorAt = {0, e.byteOffset()};
        // Stream errors already name the file; say it once.
        std::string message = e.what();
        for (std::size_t p; (p = message.find(input.path + ": ")) != std::string::npos;)
            message.erase(p, input.path.size() + 2);
        result.error = input.path + ": byte " + std::to_string(e.byteOffset()) + ": " + message;
        return false;
    }
    return true;
}

namespace {
void addAnalysis(SessionData& s, const TraceData& data, const KernelClassifier& classifier, ImportResult& result)
{
    TraceAnalysis a = analyzeTrace(data, classifier);
    for (auto& n : a.notes)
        result.warnings.push_back({{}, fs::path(data.path).filename().string() + ": " + n});
    std::move(a.steps.begin(), a.steps.end(), std::back_inserter(s.steps));
    std::move(a.kernels.begin(), a.kernels.end(), std::back_inserter(s.kernelStats));
    std::move(a.collectives.begin(), a.collectives.end(), std::back_inserter(s.traceCollectives));
    std::move(a.timeline.begin(), a.timeline.end(), std::back_inserter(s.timeline));
}

nlohmann::json rankFacts(const TraceData& d)
{
    nlohmann::json devices = nlohmann::json::array();
    for (const auto& p : d.deviceProperties)
        if (p.is_object())
            devices.push_back({{"name", p.value("name", "")}, {"totalGlobalMem", p.value("totalGlobalMem", 0LL)},
                               {"numSms", p.value("numSms", 0)}});
    return {{"rank", d.rank},
            {"file", d.path},
            {"events", d.eventCount},
            // CPU-side events (operators, runtime calls) other than ProfilerStep#N: a CPU-only
            // trace's op count, which a probe step's summary states for the same file.
            {"cpu_events", d.cpuEventCount},
            {"gpu_events", static_cast<std::int64_t>(d.gpu.size())},
            {"flow_events", d.flowEventCount},
            {"steps", static_cast<std::int64_t>(d.steps.size())},
            {"schema", d.schemaEra},
            {"rocm", d.rocm},
            {"devices", devices}};
}

Session makeSession(const TraceData& first, const std::string& title)
{
    Session s;
    s.kind = kind::Trace;
    s.title = title;
    s.created = nowIso8601();
    // No host: Kineto writes none (deviceProperties name GPUs, distributedInfo ranks).
    s.tool = "pytorch-profiler";
    s.toolVersion = first.schemaEra == "2021" ? "kineto (2021 schema)" : "kineto";
    s.params["world_size"] = first.worldSize;
    s.params["backend"] = first.backend;
    s.params["nccl_version"] = first.ncclVersion;
    s.params["rocm"] = first.rocm;
    s.params["base_time_ns"] = first.baseTimeNs;
    s.params["ranks"] = nlohmann::json::array();
    return s;
}
} // namespace

ImportResult importKineto(ImportInput& input, const ImportOptions& options, const KernelClassifier& classifier)
{
    ImportResult result;
    TraceData data;
    if (!readKinetoInput(input, options, data, result))
        return result;
    SessionData s;
    s.session = makeSession(data, fs::path(input.path).filename().string() + " (rank " + std::to_string(data.rank) + ")");
    s.session.params["ranks"].push_back(rankFacts(data));
    s.session.params["kernel_rules"] = classifier.toJson();
    addAnalysis(s, data, classifier, result);
    result.sessions.push_back(std::move(s));
    return result;
}

ImportResult importKinetoFolder(const std::string& dir, const ImportOptions& options, const KernelClassifier& classifier)
{
    ImportResult result;
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        if (e.is_regular_file() && !name.starts_with(".") && (name.ends_with(".json") || name.ends_with(".json.gz")))
            files.push_back(e.path().string());
    }
    if (ec || files.empty()) {
        result.ok = false;
        result.error = dir + ": " + (ec ? ec.message() : std::string("no .json or .json.gz trace files"));
        return result;
    }
    std::sort(files.begin(), files.end());
    std::int64_t totalBytes = 0, doneBytes = 0;
    for (const auto& f : files)
        totalBytes += static_cast<std::int64_t>(fs::file_size(f, ec));
    SessionData s;
    std::set<int> ranks;
    for (const auto& f : files) {
        io::InputFile file(f);
        ImportInput input{f, file.stream(), [&file] { return file.bytesReadOnDisk(); }, file.sizeOnDisk()};
        ImportOptions perFile;
        if (options.progress)
            perFile.progress = [&](std::int64_t done, std::int64_t) { return options.progress(doneBytes + done, totalBytes); };
        TraceData data;
        if (!readKinetoInput(input, perFile, data, result))
            return result;
        doneBytes += file.sizeOnDisk();
        if (!ranks.insert(data.rank).second) {
            const int replacement = *ranks.rbegin() + 1;
            result.warnings.push_back({{}, f + ": rank " + std::to_string(data.rank) +
                                               " already imported from another file; stored as rank " +
                                               std::to_string(replacement)});
            data.rank = replacement;
            ranks.insert(replacement);
        }
        if (s.session.title.empty())
            s.session = makeSession(data, fs::path(dir).filename().string() + " (" + std::to_string(files.size()) + " ranks)");
        s.session.params["ranks"].push_back(rankFacts(data));
        addAnalysis(s, data, classifier, result);
    }
    s.session.params["kernel_rules"] = classifier.toJson();
    result.format = "kineto";
    result.sessions.push_back(std::move(s));
    return result;
}
} // namespace rl::trace
