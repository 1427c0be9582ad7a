#include "importers/babelstream.h"

#include <cmath>
#include <filesystem>

#include "importers/figurecheck.h"
#include "importers/formats.h"
#include "io/linereader.h"
#include "units/units.h"

namespace rl {
namespace {
// The unit BabelStream names ("MB", "MiB", "MBytes", "mibytes", ...): its usual name and bytes;
// bytes 0 when unknown.
std::pair<std::string, double> unitOf(std::string_view unit)
{
    std::string u = io::lowerAscii(unit);
    if (u.ends_with("bytes"))
        u = u.substr(0, u.size() - 5) + "b"; // "MBytes/sec" (4.0, 5.0), "max_mbytes_per_sec"
    static const std::pair<const char*, std::pair<const char*, double>> units[] = {
        {"mb", {"MB", 1e6}}, {"mib", {"MiB", 1048576.0}}, {"gb", {"GB", 1e9}}, {"gib", {"GiB", 1073741824.0}},
        {"tb", {"TB", 1e12}}, {"tib", {"TiB", 1099511627776.0}}};
    for (const auto& [key, value] : units)
        if (u == key)
            return {value.first, value.second};
    return {std::string(unit), 0};
}

// Arrays each kernel moves (benchmark.h's weights).
int arraysOf(std::string_view kernel)
{
    if (kernel == "add" || kernel == "triad") return 3;
    if (kernel == "nstream") return 4;
    return 2; // copy, mul, dot
}

} // namespace

std::optional<MemBwPoint> BabelStreamStream::row(const std::string& function, std::string_view rate, std::int64_t elements,
                                                 int elementBytes, const SourceLocation& where)
{
    std::string kernel = io::lowerAscii(function);
    const int arrays = arraysOf(kernel);
    if (kernel == "mul")
        kernel = "scale"; // STREAM's name for b = q * c: one line with STREAM sessions in the charts
    const auto value = units::parseDouble(rate);
    if (!value) {
        m_warnings.push_back({where, function + ": rate '" + std::string(rate) + "' is not a number; row skipped"});
        return std::nullopt;
    }
    MemBwPoint p;
    p.kernel = kernel;
    p.threads = 1;
    p.bytes = elements * elementBytes * arrays;
    p.bandwidthGBs = *value * m_unitBytes / 1e9;
    // The tool's rate is bytes / best time; the printed best time has 5 decimals (2 digits for an
    // HBM copy), so the time follows from the rate instead.
    p.bestTimeUs = p.bandwidthGBs > 0 ? static_cast<double>(p.bytes) / (p.bandwidthGBs * 1e3) : 0;
    if (!figuresInRange(p, where, m_warnings))
        return std::nullopt;
    return p;
}

std::optional<MemBwPoint> BabelStreamStream::feed(std::string_view line, const SourceLocation& where)
{
    if (!m_error.empty())
        return std::nullopt;
    const auto text = io::trim(io::stripLauncherPrefix(line));
    const auto words = io::splitWhitespace(text);
    auto after = [&](std::string_view key) { return std::string(io::trim(text.substr(key.size()))); };
    if (text.starts_with("Version:")) {
        m_facts["version"] = after("Version:");
    } else if (text.starts_with("Implementation:")) {
        m_facts["implementation"] = after("Implementation:");
    } else if (text.starts_with("Using ") && text.find(" device ") != std::string_view::npos) {
        m_facts["device"] = std::string(text.substr(text.find(" device ") + 8)); // "Using CUDA device NVIDIA H100 ..."
    } else if (text.starts_with("Precision:")) {
        m_elementBytes = after("Precision:") == "float" ? 4 : 8;
        m_facts["precision"] = after("Precision:");
    } else if (text.starts_with("Number of elements:")) {
        m_elements = units::parseInt(after("Number of elements:")).value_or(0);
        m_facts["elements_from"] = "Number of elements";
    } else if (text.starts_with("Array size:") && words.size() >= 4 && m_facts.value("elements_from", "").empty()) {
        // "Array size: 268.4 MB (=0.3 GB)": the element count to 0.1 MB, when nothing says it exactly.
        const double size = units::parseDouble(words[2]).value_or(0) * unitOf(words[3]).second;
        m_elements = std::llround(size / m_elementBytes);
        m_facts["elements_from"] = "Array size line (rounded to 0.1 " + std::string(words[3]) + ")";
    } else if (text.starts_with("Function") && words.size() >= 2) {
        // "MBytes/sec", "MiBytes/sec" (v4, v5), "MB/s", "GiB/s", ... (later)
        const auto [unit, bytes] = unitOf(words[1].substr(0, words[1].find('/')));
        m_unitBytes = bytes;
        m_facts["unit"] = unit;
        if (m_unitBytes == 0 || m_elements <= 0) {
            m_error = m_unitBytes == 0 ? "unknown bandwidth unit '" + std::string(words[1]) + "'"
                                       : "results table before the array size (no \"Array size:\" or \"Number of elements:\" line)";
            m_errorAt = where;
        }
        m_csv = false;
    } else if (text.starts_with("function,")) {
        const auto f = io::splitFields(text, ',');
        const std::string rateColumn = f.size() > 4 ? std::string(f[4]) : std::string();
        // "max_mbytes_per_sec", "max_mibytes_per_sec", "max_MB_per_sec", ...
        const std::string unit = rateColumn.starts_with("max_") && rateColumn.ends_with("_per_sec")
                                     ? rateColumn.substr(4, rateColumn.size() - 12)
                                     : std::string();
        m_unitBytes = unitOf(unit).second;
        if (f.size() < 5 || m_unitBytes == 0) {
            m_error = "unknown CSV rate column '" + rateColumn + "' (expected max_mbytes_per_sec or the like)";
            m_errorAt = where;
            return std::nullopt;
        }
        m_facts["unit"] = unitOf(unit).first;
        m_facts["elements_from"] = "n_elements";
        m_csv = true;
        m_csvColumns = static_cast<int>(f.size());
    } else if (m_unitBytes > 0 && m_csv && text.find(',') != std::string_view::npos) {
        const auto f = io::splitFields(text, ',');
        if (static_cast<int>(f.size()) != m_csvColumns) {
            m_warnings.push_back({where, "expected " + std::to_string(m_csvColumns) + " fields, found " +
                                             std::to_string(f.size()) + " (truncated?); row skipped"});
            return std::nullopt;
        }
        const auto elements = units::parseInt(f[2]), size = units::parseInt(f[3]);
        if (!elements || !size || *elements <= 0 || *size <= 0) {
            m_warnings.push_back({where, "bad n_elements '" + std::string(f[2]) + "' or sizeof '" + std::string(f[3]) +
                                             "'; row skipped"});
            return std::nullopt;
        }
        m_elements = *elements;
        m_elementBytes = static_cast<int>(*size);
        m_facts["elements"] = m_elements;
        m_facts["element_bytes"] = m_elementBytes;
        return row(std::string(f[0]), f[4], *elements, static_cast<int>(*size), where);
    } else if (m_unitBytes > 0 && !m_csv && words.size() == 5) {
        m_facts["elements"] = m_elements;
        m_facts["element_bytes"] = m_elementBytes;
        return row(std::string(words[0]), words[1], m_elements, m_elementBytes, where);
    } else if (m_unitBytes > 0 && !m_csv && !words.empty()) {
        m_warnings.push_back({where, "not a BabelStream result row (Function, rate, min, max, average); skipped"});
    }
    return std::nullopt;
}

namespace {
int sniff(std::string_view head, std::string_view)
{
    if (head.starts_with("BabelStream") || head.find("\nBabelStream\n") != std::string_view::npos)
        return 95;
    if (head.find("function,num_times,n_elements,sizeof,max_") != std::string_view::npos)
        return 95;
    return 0;
}

ImportResult parse(ImportInput& input, const ImportOptions& options)
{
    ImportResult result;
    ProgressTicker ticker(input, options);
    io::LineReader reader(input.stream);
    std::string line;
    std::optional<BabelStreamStream> stream;
    auto close = [&] { // one session per run in the file
        if (!stream)
            return;
        result.warnings.insert(result.warnings.end(), stream->warnings().begin(), stream->warnings().end());
        if (result.sessions.back().membw.empty())
            result.sessions.pop_back();
        else
            result.sessions.back().session.params.update(stream->facts());
        stream.reset();
    };
    auto open = [&] {
        close();
        stream.emplace();
        SessionData d;
        d.session.kind = kind::MemBandwidth;
        d.session.tool = "babelstream";
        d.session.title = std::filesystem::path(input.path).filename().string();
        d.session.params["byte_counting"] = "BabelStream: copy/mul/dot 2 arrays, add/triad 3, nstream 4; its MB = 1e6 B "
                                            "(MiB = 2^20 B with --mibibytes); stored as GB/s = 1e9 B/s; Mul stored as scale";
        result.sessions.push_back(std::move(d));
    };
    while (reader.next(line)) {
        if (!ticker.tick()) {
            result.cancelled = true;
            return result;
        }
        const auto text = io::trim(io::stripLauncherPrefix(line));
        if (!stream || (text == "BabelStream" && !result.sessions.back().membw.empty()) ||
            (text.starts_with("function,num_times") && !result.sessions.back().membw.empty()))
            open();
        if (auto p = stream->feed(line, reader.location()))
            result.sessions.back().membw.push_back(*p);
        if (!stream->error().empty()) {
            result.ok = false;
            result.error = stream->error();
            result.errorAt = stream->errorAt();
            return result;
        }
        if (auto v = stream->version(); !v.empty())
            result.sessions.back().session.toolVersion = v;
    }
    close();
    if (result.sessions.empty()) {
        result.ok = false;
        if (!result.warnings.empty()) {
            result.error = "no usable BabelStream result; first problem: " + result.warnings.front().message;
            result.errorAt = result.warnings.front().where;
        } else {
            result.error = "no BabelStream results table (\"Function    MBytes/sec ...\" or --csv's \"function,num_times,...\")";
        }
    }
    return result;
}
} // namespace

ImporterInfo babelStreamImporter() { return {"babelstream", "BabelStream output (table or --csv)", sniff, parse}; }
} // namespace rl
