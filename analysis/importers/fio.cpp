// fio JSON output (fio --output-format=json, also json+): one "storage" session per file.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <stdexcept>

#include "importers/fiojson.h"
#include "importers/formats.h"
#include "records/wireformat.h"
#include "units/units.h"

namespace rl {
namespace {
using nlohmann::json;

// Option values are strings in fio's JSON ("numjobs":"2"); job options override global ones.
std::string option(const json& job, const json& global, const char* key)
{
    for (const json* scope : {&job, &global})
        if (scope->is_object())
            if (auto it = scope->find(key); it != scope->end())
                return it->is_string() ? it->get<std::string>() : it->dump();
    return {};
}

bool flagOn(const std::string& v) { return !v.empty() && v != "0" && v != "false"; }

// fio's "bs" is one size or "read,write[,trim]"; sizes use base 1024 (fio's kb_base default).
std::int64_t blockSize(const std::string& bs, bool write)
{
    if (bs.empty())
        return 4096; // fio's default
    const auto comma = bs.find(',');
    std::string part = comma == std::string::npos ? bs : write ? bs.substr(comma + 1) : bs.substr(0, comma);
    if (const auto second = part.find(','); second != std::string::npos)
        part = part.substr(0, second);
    if (part.empty())
        part = bs.substr(0, comma);
    return units::parseBytes(part).value_or(0);
}

int sniff(std::string_view head, std::string_view)
{
    return head.find("\"fio version\"") != std::string_view::npos ? 95 : 0;
}

ImportResult parse(ImportInput& input, const ImportOptions& options)
{
    ImportResult result;
    ProgressTicker ticker(input, options);
    std::ostringstream text;
    text << input.stream.rdbuf();
    if (!ticker.tick()) {
        result.cancelled = true;
        return result;
    }
    std::string content = text.str();
    // fio prints notes ("fio: ...") before the JSON object when stdout and stderr are merged.
    const auto brace = content.find('{');
    if (brace == std::string::npos) {
        result.ok = false;
        result.error = "no JSON object";
        return result;
    }
    if (brace > 0)
        result.warnings.push_back({{1, 0}, "skipped " + std::to_string(brace) + " bytes before the JSON object"});
    const json doc = json::parse(content.begin() + static_cast<std::ptrdiff_t>(brace), content.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        result.ok = false;
        result.error = "not valid JSON (fio output cut short?)";
        return result;
    }
    std::vector<std::string> notes;
    SessionData s;
    try {
        s.storage = fioStoragePoints(doc, &notes);
    } catch (const std::exception& e) {
        result.ok = false;
        result.error = e.what();
        return result;
    }
    for (const auto& n : notes)
        result.warnings.push_back({{0, 0}, n});
    s.session.kind = kind::Storage;
    s.session.tool = "fio";
    const std::string version = doc.value("fio version", std::string{});
    s.session.toolVersion = version.starts_with("fio-") ? version.substr(4) : version;
    s.session.created = doc.value("time", std::string{});
    if (!s.session.created.empty())
        s.session.params[kCreatedFromParam] = "fio's time";
    s.session.title = std::filesystem::path(input.path).filename().string() + " (fio)";
    json jobs = json::array();
    for (const auto& j : doc.at("jobs"))
        jobs.push_back({{"jobname", j.value("jobname", std::string{})}, {"groupid", wire::integerField<int>(j, "groupid", 0)},
                        {"options", j.value("job options", json::object())}});
    s.session.params = {{"global_options", doc.value("global options", json::object())}, {"jobs", jobs},
                        {"bandwidth", "fio bw_bytes (B/s) as GB/s = 1e9 B/s"}};
    if (s.storage.empty()) {
        result.ok = false;
        result.error = "no job moved any bytes";
        return result;
    }
    result.sessions.push_back(std::move(s));
    return result;
}
} // namespace

std::vector<StoragePoint> fioStoragePoints(const json& doc, std::vector<std::string>* notes)
{
    const auto jobsIt = doc.find("jobs");
    if (jobsIt == doc.end() || !jobsIt->is_array())
        throw std::runtime_error("no \"jobs\" array (not fio JSON output)");
    const json global = doc.value("global options", json::object());
    auto note = [&](std::string n) {
        if (notes && std::find(notes->begin(), notes->end(), n) == notes->end())
            notes->push_back(std::move(n));
    };
    // Entries per (group, job name): one entry for numjobs > 1 means group_reporting merged them.
    std::map<std::pair<int, std::string>, int> entries;
    for (const auto& j : *jobsIt) {
        if (!j.is_object())
            throw std::runtime_error("a \"jobs\" entry is not an object");
        ++entries[{wire::integerField<int>(j, "groupid", 0), j.value("jobname", std::string{})}];
    }

    struct Group
    {
        std::vector<const json*> jobs;
        StoragePoint point;
        std::vector<std::int64_t> bytes;
        std::vector<double> seconds;
        double totalBytes = 0;
        int ranks = 0;
    };
    std::map<std::pair<int, std::string>, Group> groups; // (groupid, op)
    std::vector<std::pair<int, std::string>> order;
    for (const auto& j : *jobsIt) {
        const json& opts = j.contains("job options") ? j["job options"] : json::object();
        const std::string name = j.value("jobname", std::string{});
        if (const int err = wire::integerField<int>(j, "error", 0); err != 0)
            note("job " + name + " ended with error " + std::to_string(err) + "; its figures are kept");
        const std::string rw = option(opts, global, "rw").empty() ? option(opts, global, "readwrite") : option(opts, global, "rw");
        if (rw.find("rand") != std::string::npos)
            note("job " + name + " uses random access (" + rw + "); stored as its read/write bandwidth");
        const int numjobs = std::clamp(std::atoi(option(opts, global, "numjobs").c_str()), 1, 1 << 20);
        const int groupid = wire::integerField<int>(j, "groupid", 0);
        const bool merged = numjobs > 1 && entries[{groupid, name}] == 1;
        for (const char* op : {"read", "write"}) {
            const auto dir = j.find(op);
            if (dir == j.end() || !dir->is_object())
                continue;
            const auto bytes = wire::integerField<std::int64_t>(*dir, "io_bytes", 0);
            if (bytes <= 0)
                continue;
            const std::pair<int, std::string> key{groupid, op};
            auto [it, fresh] = groups.try_emplace(key);
            if (fresh)
                order.push_back(key);
            Group& g = it->second;
            StoragePoint& p = g.point;
            const int ranks = merged ? numjobs : 1;
            p.op = op;
            p.blockBytes = blockSize(option(opts, global, "bs").empty() ? option(opts, global, "blocksize")
                                                                          : option(opts, global, "bs"),
                                     std::string_view(op) == "write");
            p.direct = flagOn(option(opts, global, "direct"));
            p.fsync = std::string_view(op) == "write" &&
                      (flagOn(option(opts, global, "end_fsync")) || flagOn(option(opts, global, "fsync")) ||
                       flagOn(option(opts, global, "fsync_on_close")));
            p.access = option(opts, global, "filename").empty() || numjobs == 1 ? storage_access::FilePerProcess
                                                                               : storage_access::SharedFile;
            const double seconds = dir->value("runtime", 0.0) / 1e3; // ms
            g.ranks += ranks;
            g.totalBytes += double(bytes);
            g.bytes.push_back(bytes / ranks);
            g.seconds.push_back(seconds);
            if (!merged)
                p.rankGBs.push_back(dir->value("bw_bytes", 0.0) / 1e9);
            else
                note("job " + name + " was reported with group_reporting: per-job bandwidths are not in the output");
        }
    }
    std::vector<StoragePoint> out;
    for (const auto& key : order) {
        Group& g = groups[key];
        StoragePoint p = g.point;
        p.nranks = g.ranks;
        const double total = g.totalBytes;
        const auto slowest = std::max_element(g.seconds.begin(), g.seconds.end());
        p.timeS = *slowest;
        p.fileBytes = *std::max_element(g.bytes.begin(), g.bytes.end());
        p.aggregateGBs = p.timeS > 0 ? total / p.timeS / 1e9 : 0;
        if (!p.rankGBs.empty()) {
            p.slowestRank = static_cast<int>(slowest - g.seconds.begin());
            p.minRankGBs = *std::min_element(p.rankGBs.begin(), p.rankGBs.end());
            p.maxRankGBs = *std::max_element(p.rankGBs.begin(), p.rankGBs.end());
            double sum = 0;
            for (double v : p.rankGBs)
                sum += v;
            p.meanRankGBs = sum / double(p.rankGBs.size());
        }
        out.push_back(std::move(p));
    }
    return out;
}

ImporterInfo fioImporter() { return {"fio", "fio JSON output", sniff, parse}; }
} // namespace rl
