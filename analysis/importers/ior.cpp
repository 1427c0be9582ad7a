// IOR's text output (IOR 3.x and 4.x): the "Summary of all tests:" table, one row per operation and
// test, columns found by their header names (they moved between versions: 4.x added Stonewall).
// One "storage" session per file; bandwidths are IOR's MiB/s, stored as GB/s (1e9 B/s).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "importers/figurecheck.h"
#include "importers/formats.h"
#include "io/linereader.h"
#include "units/units.h"

namespace rl {
namespace {
constexpr double kMiB = 1024.0 * 1024.0;

int sniff(std::string_view head, std::string_view)
{
    return head.find(": MPI Coordinated Test of Parallel I/O") != std::string_view::npos ? 95 : 0;
}

bool hasToken(const std::vector<std::string_view>& words, std::initializer_list<std::string_view> any)
{
    return std::any_of(words.begin(), words.end(), [&](std::string_view w) {
        return std::find(any.begin(), any.end(), w) != any.end();
    });
}

ImportResult parse(ImportInput& input, const ImportOptions& options)
{
    ImportResult result;
    ProgressTicker ticker(input, options);
    io::LineReader reader(input.stream);
    std::string line;
    std::string version, commandLine, began, machine;
    nlohmann::json optionsBlock = nlohmann::json::object();
    bool inOptions = false, inSummary = false, sawSummary = false;
    std::map<std::string, std::size_t> column;
    SessionData s;
    while (reader.next(line)) {
        if (!ticker.tick()) {
            result.cancelled = true;
            return result;
        }
        const auto text = io::trim(line);
        if (const auto at = text.find(": MPI Coordinated Test of Parallel I/O"); at != std::string_view::npos) {
            const auto name = text.substr(0, at);
            version = std::string(name.starts_with("IOR-") ? name.substr(4) : name);
            continue;
        }
        const auto colon = text.find(':');
        const auto key = colon == std::string_view::npos ? std::string_view{} : io::trim(text.substr(0, colon));
        const auto value = colon == std::string_view::npos ? std::string_view{} : io::trim(text.substr(colon + 1));
        if (key == "Command line")
            commandLine = std::string(value);
        else if (key == "Began")
            began = std::string(value);
        else if (key == "Machine")
            machine = std::string(value);
        if (text == "Options:") {
            inOptions = true;
            continue;
        }
        if (inOptions) {
            if (text.empty() || text == "Results:")
                inOptions = false;
            else if (!key.empty())
                optionsBlock[std::string(key)] = std::string(value);
            continue;
        }
        if (text == "Summary of all tests:") {
            inSummary = sawSummary = true;
            column.clear();
            continue;
        }
        if (!inSummary)
            continue;
        const auto words = io::splitWhitespace(text);
        if (words.empty()) {
            inSummary = false;
            continue;
        }
        if (words.front() == "Operation") {
            for (std::size_t i = 0; i < words.size(); ++i)
                column[std::string(words[i])] = i;
            continue;
        }
        if (words.front() != "write" && words.front() != "read") {
            inSummary = words.front() == "Finished" ? false : inSummary;
            continue;
        }
        auto number = [&](const char* name) -> std::optional<double> {
            const auto it = column.find(name);
            if (it == column.end() || it->second >= words.size())
                return std::nullopt;
            return units::parseDouble(words[it->second]);
        };
        const auto mean = number("Mean(MiB)"), tasks = number("#Tasks"), blk = number("blksiz"), xfer = number("xsize");
        const auto whole = [](std::optional<double> v, double most) {
            return v && std::isfinite(*v) && *v >= 0 && *v <= most && *v == std::floor(*v);
        };
        if (!mean || !whole(tasks, 1e7) || !whole(blk, 1e12) || !whole(xfer, 1e12) ||
            !whole(number("segcnt").value_or(1), 1e6) || !whole(number("reps").value_or(1), 1e7) || !std::isfinite(*mean)) {
            result.warnings.push_back({reader.location(), "summary row without Mean(MiB), #Tasks, blksiz or xsize: skipped"});
            continue;
        }
        StoragePoint p;
        p.op = std::string(words.front());
        p.nranks = static_cast<int>(*tasks);
        p.fileBytes = static_cast<std::int64_t>(*blk * number("segcnt").value_or(1));
        p.blockBytes = static_cast<std::int64_t>(*xfer);
        p.access = number("fPP").value_or(0) != 0 ? storage_access::FilePerProcess : storage_access::SharedFile;
        p.aggregateGBs = *mean * kMiB / 1e9;
        p.timeS = number("Mean(s)").value_or(0);
        p.repeats = static_cast<int>(number("reps").value_or(1));
        if (figuresInRange(p, reader.location(), result.warnings))
            s.storage.push_back(p);
    }
    if (!sawSummary || s.storage.empty()) {
        result.ok = false;
        result.error = sawSummary ? "the summary has no write or read rows"
                                  : "no \"Summary of all tests:\" (IOR run cut short?)";
        return result;
    }
    // -e: fsync after the write phase; -B or --posix.odirect: O_DIRECT. Only the command line says.
    const auto args = io::splitWhitespace(commandLine);
    const bool fsync = hasToken(args, {"-e", "--fsync"}) || optionsBlock.value("fsync", std::string{}) == "1";
    const bool direct = hasToken(args, {"-B", "--posix.odirect", "--useO_DIRECT"});
    for (auto& p : s.storage) {
        p.fsync = fsync && p.op == "write";
        p.direct = direct;
    }
    s.session.kind = kind::Storage;
    s.session.tool = "ior";
    s.session.toolVersion = version;
    s.session.commandLine = commandLine;
    s.session.host = machine.starts_with("Linux ") ? machine.substr(6) : machine;
    s.session.title = std::filesystem::path(input.path).filename().string() + " (IOR " + version + ")";
    s.session.params = {{"options", optionsBlock}, {"began", began},
                        {"bandwidth", "IOR Mean(MiB) per second as GB/s = 1e9 B/s; Min/Max are over repetitions"}};
    result.sessions.push_back(std::move(s));
    return result;
}
} // namespace

ImporterInfo iorImporter() { return {"ior", "IOR output", sniff, parse}; }
} // namespace rl
