// HPC Challenge (hpcc) output, hpccoutf.txt: the "Begin of Summary section." key=value block
// gives STREAM (Single and Star, GB = 1e9 B) and DGEMM results, the header the host. Two sessions
// come out: the STREAM bandwidths (kind membw) and the DGEMM rate (kind gemm); every summary value
// is kept in params.
#include <algorithm>
#include <filesystem>
#include <map>
#include <tuple>

#include "importers/figurecheck.h"
#include "importers/formats.h"
#include "io/linereader.h"
#include "units/units.h"

namespace rl {
namespace {
int sniff(std::string_view head, std::string_view)
{
    return head.find("HPC Challenge Benchmark") != std::string_view::npos ? 95 : 0;
}

ImportResult parse(ImportInput& input, const ImportOptions& options)
{
    ImportResult result;
    ProgressTicker ticker(input, options);
    io::LineReader reader(input.stream);
    std::string line;
    nlohmann::json summary = nlohmann::json::object();
    std::map<std::string, SourceLocation> lineOf; // of each summary key, for the warnings
    bool inSummary = false;
    bool sawSummary = false;
    std::string version, host;
    while (reader.next(line)) {
        if (!ticker.tick()) {
            result.cancelled = true;
            return result;
        }
        const auto text = io::trim(line);
        if (text.starts_with("This is the DARPA/DOE HPC Challenge Benchmark version")) {
            const auto words = io::splitWhitespace(text);
            if (words.size() > 8)
                version = std::string(words[8]);
        } else if (text.starts_with("Hostname:") && host.empty()) { // "Hostname: 'node01'" (rank 0's)
            auto name = io::trim(text.substr(9));
            if (name.size() >= 2 && name.front() == '\'' && name.back() == '\'')
                name = name.substr(1, name.size() - 2);
            host = std::string(name);
        } else if (text == "Begin of Summary section.") {
            inSummary = sawSummary = true;
        } else if (text == "End of Summary section.") {
            inSummary = false;
        } else if (inSummary) {
            const auto eq = text.find('=');
            if (eq == std::string_view::npos)
                continue;
            const std::string key(text.substr(0, eq));
            lineOf[key] = reader.location();
            const auto value = text.substr(eq + 1);
            if (auto v = units::parseDouble(value))
                summary[key] = *v;
            else
                summary[key] = std::string(value);
        }
    }
    if (!sawSummary) {
        result.ok = false;
        result.error = "no \"Begin of Summary section.\" (hpcc run incomplete?)";
        return result;
    }
    const std::string title = std::filesystem::path(input.path).filename().string();
    auto num = [&](const char* key) { return summary.contains(key) && summary[key].is_number() ? summary[key].get<double>() : 0.0; };

    // Counts pass through units::wholeNumber: a corrupt "STREAM_Threads=1e300" must not be cast.
    auto count = [&](const char* key, std::int64_t most) {
        const auto n = units::wholeNumber(num(key));
        return n && *n > 0 && *n <= most ? *n : 0;
    };
    const std::int64_t vectorSize = count("STREAM_VectorSize", std::int64_t(1) << 50);
    const int threads = std::max<int>(1, static_cast<int>(count("STREAM_Threads", 1 << 24)));
    if (vectorSize > 0) {
        SessionData s;
        s.session.kind = kind::MemBandwidth;
        s.session.tool = "hpcc";
        s.session.toolVersion = version;
        s.session.host = host;
        s.session.title = title + " (STREAM)";
        s.session.params = summary;
        for (const auto& [name, key, arrays] : {std::tuple{"copy", "SingleSTREAM_Copy", 2}, {"scale", "SingleSTREAM_Scale", 2},
                                                {"add", "SingleSTREAM_Add", 3}, {"triad", "SingleSTREAM_Triad", 3}}) {
            const double gbs = num(key);
            if (gbs == 0) // not run, or not in this version's summary
                continue;
            MemBwPoint p;
            p.kernel = name;
            p.threads = threads;
            p.bytes = vectorSize * 8 * arrays;
            p.bandwidthGBs = gbs;
            p.bestTimeUs = static_cast<double>(p.bytes) / (gbs * 1e9) * 1e6;
            if (figuresInRange(p, lineOf[key], result.warnings))
                s.membw.push_back(p);
        }
        if (!s.membw.empty())
            result.sessions.push_back(std::move(s));
    }
    const std::int64_t dgemmN = count("DGEMM_N", std::int64_t(1) << 31);
    const double dgemmRate = num("SingleDGEMM_Gflops"); // 0: not run, or not in the summary
    const std::string dgemmProblem = figureProblem("SingleDGEMM_Gflops", dgemmRate, "GFLOP/s");
    if (dgemmN > 0 && dgemmRate != 0 && !dgemmProblem.empty())
        result.warnings.push_back({lineOf["SingleDGEMM_Gflops"], dgemmProblem + "; DGEMM result skipped"});
    if (dgemmN > 0 && dgemmRate > 0 && dgemmProblem.empty()) {
        SessionData s;
        s.session.kind = kind::Gemm;
        s.session.tool = "hpcc";
        s.session.toolVersion = version;
        s.session.host = host;
        s.session.title = title + " (DGEMM)";
        s.session.params = {{"StarDGEMM_Gflops", num("StarDGEMM_Gflops")}, {"DGEMM_N", dgemmN}};
        GemmPoint p;
        p.dtype = "float64";
        p.m = p.n = p.k = dgemmN;
        p.gflops = num("SingleDGEMM_Gflops");
        p.timeUs = 2.0 * static_cast<double>(dgemmN) * dgemmN * dgemmN / (p.gflops * 1e9) * 1e6;
        p.intensity = 2.0 * static_cast<double>(dgemmN) / (3.0 * 8.0);
        p.device = "cpu";
        p.solution = "hpcc SingleDGEMM";
        s.gemms.push_back(p);
        result.sessions.push_back(std::move(s));
    }
    if (result.sessions.empty()) {
        result.ok = false;
        result.error = "summary has neither STREAM nor DGEMM results";
    }
    return result;
}
} // namespace

ImporterInfo hpccImporter() { return {"hpcc", "HPC Challenge (hpcc) output", sniff, parse}; }
} // namespace rl
