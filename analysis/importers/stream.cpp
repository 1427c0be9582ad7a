// STREAM 5.x output (stream.c): "Array size = N (elements)", "This system uses 8 bytes per array
// element.", "Number of Threads counted = T", then "Function    Best Rate MB/s  Avg time ..." and
// one line per kernel. Several runs in one file become several sessions.
#include <filesystem>

#include "importers/figurecheck.h"
#include "importers/formats.h"
#include "io/linereader.h"
#include "units/units.h"

namespace rl {
namespace {
int sniff(std::string_view head, std::string_view)
{
    if (head.find("HPC Challenge") != std::string_view::npos)
        return 0; // hpcc embeds STREAM's text; its own importer reads it
    if (head.find("STREAM version $Revision:") != std::string_view::npos)
        return 95;
    if (head.find("Function    Best Rate MB/s") != std::string_view::npos)
        return 80;
    return 0;
}

int arraysOf(std::string_view kernel) { return kernel == "copy" || kernel == "scale" ? 2 : 3; }

ImportResult parse(ImportInput& input, const ImportOptions& options)
{
    ImportResult result;
    ProgressTicker ticker(input, options);
    io::LineReader reader(input.stream);
    std::string line;
    SessionData* current = nullptr;
    std::int64_t arraySize = 0;
    int elementBytes = 8;
    int threads = 1;
    bool inTable = false;
    auto startSession = [&] {
        result.sessions.emplace_back();
        current = &result.sessions.back();
        current->session.kind = kind::MemBandwidth;
        current->session.tool = "stream";
        current->session.title = std::filesystem::path(input.path).filename().string();
        current->session.params["byte_counting"] = "STREAM: copy/scale 2 arrays, add/triad 3 arrays; MB = 1e6 B";
    };
    while (reader.next(line)) {
        if (!ticker.tick()) {
            result.cancelled = true;
            return result;
        }
        const auto text = io::trim(io::stripLauncherPrefix(line));
        const auto words = io::splitWhitespace(text);
        if (text.starts_with("STREAM version")) {
            startSession();
            if (words.size() >= 4)
                current->session.toolVersion = std::string(words[3]);
            inTable = false;
        } else if (text.starts_with("Array size =") && words.size() >= 4) {
            arraySize = units::parseInt(words[3]).value_or(0);
        } else if (text.starts_with("This system uses") && words.size() >= 4) {
            elementBytes = static_cast<int>(units::parseInt(words[3]).value_or(8));
        } else if (text.starts_with("Number of Threads counted =") && words.size() >= 6) {
            threads = static_cast<int>(units::parseInt(words[5]).value_or(1));
        } else if (text.starts_with("Function") && text.find("Rate MB/s") != std::string_view::npos) {
            if (!current)
                startSession();
            if (arraySize <= 0) {
                result.ok = false;
                result.errorAt = reader.location();
                result.error = "results table before any \"Array size =\" line";
                return result;
            }
            current->session.params["array_size"] = arraySize;
            current->session.params["threads"] = threads;
            inTable = true;
        } else if (inTable && words.size() >= 5 && text.back() != '-' && words[0].ends_with(":")) {
            std::string kernel(words[0].substr(0, words[0].size() - 1));
            for (auto& c : kernel)
                c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            const auto rate = units::parseDouble(words[1]);
            const auto minTime = units::parseDouble(words[3]);
            if (!rate || !minTime || *rate == 0) {
                result.warnings.push_back({reader.location(), "unreadable STREAM result line; skipped"});
                continue;
            }
            MemBwPoint p;
            p.kernel = kernel;
            p.threads = threads;
            p.bytes = arraySize * elementBytes * arraysOf(kernel);
            p.bandwidthGBs = *rate / 1e3;
            p.bestTimeUs = *minTime * 1e6;
            if (figuresInRange(p, reader.location(), result.warnings))
                current->membw.push_back(p);
        } else if (inTable && text.starts_with("---")) {
            inTable = current->membw.empty(); // the dashes before the table vs. after it
        }
    }
    std::erase_if(result.sessions, [](const SessionData& d) { return d.membw.empty(); });
    if (result.sessions.empty()) {
        result.ok = false;
        result.error = "no STREAM results table (\"Function    Best Rate MB/s ...\")";
        return result;
    }
    for (const auto& s : result.sessions)
        if (s.membw.size() < 4)
            result.warnings.push_back({{}, "a STREAM run has " + std::to_string(s.membw.size()) + " of 4 kernels (truncated?)"});
    return result;
}
} // namespace

ImporterInfo streamImporter() { return {"stream", "STREAM 5.x output", sniff, parse}; }
} // namespace rl
