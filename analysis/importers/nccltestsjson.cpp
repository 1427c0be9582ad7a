// nccl-tests -J/--output_file JSON (src/util.cu, JSON_FILE_VERSION 2): {"version", "start_time", "args",
// "env", "nccl_version", "config": {..., "devices": [...]}, "results": [{"size", "count", "type",
// "redop", "root" (a padded string), "out_of_place"/"in_place": {"time"|"cpu_time", "alg_bw",
// "bus_bw", "nwrong"}, ...}], "out_of_bounds", "average_bus_bandwidth", "errors", "end_time"}.
// The files are small (one table), so nlohmann reads them whole.
#include <iterator>

#include <nlohmann/json.hpp>

#include "importers/collectiveimport.h"
#include "importers/figurecheck.h"
#include "importers/formats.h"
#include "io/linereader.h"
#include "records/wireformat.h"
#include "units/units.h"

namespace rl {
namespace {
using nlohmann::json;

int sniff(std::string_view head, std::string_view)
{
    const auto body = io::trim(head);
    if (!body.starts_with('{'))
        return 0;
    if (body.find("\"start_time\"") != std::string_view::npos && body.find("\"args\"") != std::string_view::npos &&
        body.find("_perf") != std::string_view::npos)
        return 95;
    if (body.find("\"nccl_version\"") != std::string_view::npos && body.find("\"results\"") != std::string_view::npos)
        return 90;
    return 0;
}

// A run killed mid-write leaves the results list open: cut after the last complete row and close
// the document so the finished rows are kept.
std::optional<std::string> repairTruncated(const std::string& text)
{
    const auto at = text.rfind("\"experiment_name\":");
    if (at == std::string::npos)
        return std::nullopt;
    const auto close = text.find('}', at);
    if (close == std::string::npos)
        return std::nullopt;
    return text.substr(0, close + 1) + "]}";
}

double number(const json& j, const char* key)
{
    if (!j.is_object() || !j.contains(key))
        return 0;
    const json& v = j[key];
    return v.is_number() ? v.get<double>() : 0; // "nan" is written as a string
}

ImportResult parse(ImportInput& input, const ImportOptions& options)
{
    ImportResult result;
    ProgressTicker ticker(input, options);
    std::string text{std::istreambuf_iterator<char>(input.stream), std::istreambuf_iterator<char>()};
    if (!ticker.tick()) {
        result.cancelled = true;
        return result;
    }
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        const SourceLocation where = locationOfByte(text, e.byte > 0 ? e.byte - 1 : 0);
        auto repaired = repairTruncated(text);
        json fixed = repaired ? json::parse(*repaired, nullptr, false) : json(json::value_t::discarded);
        if (fixed.is_discarded() || !fixed.is_object()) {
            result.ok = false;
            result.errorAt = where;
            result.error = std::string("invalid JSON: ") + e.what();
            return result;
        }
        result.warnings.push_back({where, "JSON ends early (truncated run?); kept the complete result rows"});
        doc = std::move(fixed);
    }
    if (!doc.is_object() || !doc.contains("results") || !doc["results"].is_array()) {
        result.ok = false;
        result.error = "not an nccl-tests JSON report (no \"results\" list)";
        return result;
    }
    Session s;
    s.kind = kind::Collectives;
    s.tool = "nccl-tests";
    s.created = doc.value("start_time", nowIso8601());
    if (doc.contains("start_time"))
        s.params[kCreatedFromParam] = "the report's start_time";
    std::string program;
    if (doc.contains("args") && doc["args"].is_array()) {
        for (const auto& a : doc["args"])
            if (a.is_string())
                s.commandLine += (s.commandLine.empty() ? "" : " ") + a.get<std::string>();
        if (!doc["args"].empty() && doc["args"][0].is_string())
            program = importers::baseName(doc["args"][0].get<std::string>());
    }
    if (program.ends_with("_mpi"))
        program.resize(program.size() - 4);
    const auto op = collectiveOpFromString(program);
    if (!op) {
        result.ok = false;
        result.error = "cannot tell the collective: args[0] is '" + program + "', not an nccl-tests program";
        return result;
    }
    nlohmann::json& p = s.params;
    int nranks = 0;
    std::vector<std::string> hosts, devices;
    if (doc.contains("config") && doc["config"].is_object()) {
        const json& c = doc["config"];
        for (auto key : {"nthreads", "ngpus", "minimum_bytes", "maximum_bytes", "step_factor", "step_bytes",
                         "warmup_iters", "iterations", "validation", "graph"})
            if (c.contains(key))
                p[key] = c[key];
        if (c.contains("devices") && c["devices"].is_array()) {
            nranks = static_cast<int>(c["devices"].size());
            for (const auto& d : c["devices"]) {
                const std::string h = d.value("hostname", std::string{});
                const std::string dev = d.value("device_info", std::string{});
                if (!h.empty() && std::find(hosts.begin(), hosts.end(), h) == hosts.end())
                    hosts.push_back(h);
                if (!dev.empty() && std::find(devices.begin(), devices.end(), dev) == devices.end())
                    devices.push_back(dev);
            }
        }
    }
    if (doc.contains("nccl_version") && doc["nccl_version"].is_number_integer()) {
        const int code = doc["nccl_version"].get<int>();
        p["nccl_version"] = std::to_string(code / 10000) + "." + std::to_string(code / 100 % 100) + "." +
                            std::to_string(code % 100);
    }
    // The communication library's environment ("env": ["NAME=VALUE", ...]) for the session's
    // provenance; PATH and the like say nothing about the numbers and stay out.
    if (doc.contains("env") && doc["env"].is_array()) {
        nlohmann::json env = nlohmann::json::object();
        for (const auto& e : doc["env"]) {
            if (!e.is_string())
                continue;
            const std::string kv = e.get<std::string>();
            const auto eq = kv.find('=');
            if (eq == std::string::npos)
                continue;
            const std::string name = kv.substr(0, eq);
            if (importers::isProvenanceVariable(name))
                env[name] = kv.substr(eq + 1);
        }
        if (!env.empty())
            p["environment"] = env;
    }
    if (nranks == 0)
        result.warnings.push_back({{}, "no \"devices\" in the report: rank count unknown, nranks left 0"});
    for (const auto& h : hosts)
        s.host += (s.host.empty() ? "" : ",") + h;
    p["nranks"] = nranks;
    p["hosts"] = hosts;
    p["devices"] = devices;
    if (doc.contains("average_bus_bandwidth") && doc["average_bus_bandwidth"].is_object())
        p["avg_busbw_gbs"] = number(doc["average_bus_bandwidth"], "bandwidth");
    p["convention"] = "nccl-tests PERFORMANCE.md (JSON report); algbw and busbw recomputed from size and time";
    for (const auto& d : devices)
        if (d.find("AMD") != std::string::npos)
            s.tool = "rccl-tests";
    SessionData data;
    std::size_t index = 0;
    for (const auto& row : doc["results"]) {
        ++index;
        if (!ticker.tick()) {
            result.cancelled = true;
            return result;
        }
        if (!row.is_object() || !row.contains("size") || !row["size"].is_number()) {
            result.warnings.push_back({{}, "results[" + std::to_string(index - 1) + "] has no size; skipped"});
            continue;
        }
        const std::string dtype = canonicalDtype(row.value("type", std::string{}));
        std::string redop = row.value("redop", std::string{});
        if (redop == "none")
            redop.clear();
        std::int64_t bytes = 0;
        try {
            bytes = wire::integerField<std::int64_t>(row, "size");
        } catch (const std::invalid_argument& e) {
            result.warnings.push_back({{}, "results[" + std::to_string(index - 1) + "]: " + e.what() + "; skipped"});
            continue;
        }
        std::vector<CollectivePoint> halves;
        for (const bool inPlace : {false, true}) {
            const char* key = inPlace ? "in_place" : "out_of_place";
            if (!row.contains(key) || !row[key].is_object())
                continue;
            const json& r = row[key];
            const double t = r.contains("time") ? number(r, "time") : number(r, "cpu_time");
            CollectivePoint pt = importers::makePoint(*op, nranks, dtype, redop, bytes, t);
            pt.count = row.value("count", pt.count);
            pt.inPlace = inPlace;
            if (hasRoot(*op))
                pt.root = units::parseInt(row.value("root", std::string("0"))).value_or(0);
            pt.wrong = r.contains("nwrong") && r["nwrong"].is_number()
                           ? units::wholeNumber(r["nwrong"].get<double>()).value_or(-1) // -1: unknown
                           : -1;
            if (nranks == 0) {
                pt.algbwGBs = number(r, "alg_bw");
                pt.busbwGBs = number(r, "bus_bw");
            }
            halves.push_back(pt);
        }
        // As in the text format, one bad half makes the whole result row suspect.
        std::string problem;
        for (const auto& pt : halves)
            if (problem.empty())
                problem = figureProblem(pt);
        if (!problem.empty()) {
            result.warnings.push_back({{}, "results[" + std::to_string(index - 1) + "]: " + problem + "; skipped"});
            continue;
        }
        data.collectives.insert(data.collectives.end(), halves.begin(), halves.end());
    }
    s.title = program + " " + std::to_string(nranks) + " ranks" + (hosts.size() == 1 ? " on " + hosts[0] : "") +
              " (" + s.tool + " JSON)";
    data.session = std::move(s);
    if (!data.collectives.empty())
        result.sessions.push_back(std::move(data));
    return result;
}
} // namespace

ImporterInfo ncclTestsJsonImporter()
{
    return {"nccl-tests-json", "nccl-tests JSON report (-J)", sniff, parse};
}
} // namespace rl
