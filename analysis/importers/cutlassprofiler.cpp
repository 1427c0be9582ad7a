#include "importers/cutlassprofiler.h"

#include <algorithm>
#include <filesystem>

#include "importers/formats.h"
#include "io/linereader.h"

namespace rl {
namespace {
// "--m=8192 --A=f16:column  \" -> (m, 8192), (A, f16:column)
void readArguments(std::string_view text, std::vector<std::pair<std::string, std::string>>& into)
{
    for (const auto word : io::splitWhitespace(text)) {
        if (!word.starts_with("--"))
            continue;
        const auto eq = word.find('=');
        if (eq != std::string_view::npos)
            into.emplace_back(std::string(word.substr(2, eq - 2)), std::string(word.substr(eq + 1)));
    }
}

constexpr std::string_view kCsvHeader = "Problem,Provider,OperationKind,Operation,Disposition,Status";
} // namespace

CutlassProfilerStream::CutlassProfilerStream() = default;

const std::vector<ImportWarning>& CutlassProfilerStream::warnings() const
{
    m_allWarnings = m_table.warnings();
    m_allWarnings.insert(m_allWarnings.end(), m_extraWarnings.begin(), m_extraWarnings.end());
    std::stable_sort(m_allWarnings.begin(), m_allWarnings.end(),
                     [](const ImportWarning& a, const ImportWarning& b) { return a.where.line < b.where.line; });
    return m_allWarnings;
}

void CutlassProfilerStream::noteDisposition(const std::string& disposition, const std::string& problem,
                                            const std::string& operation)
{
    const std::string d = io::lowerAscii(disposition);
    if (d == "incorrect" || d == "failed")
        m_incorrect.push_back("problem " + problem + " (" + operation + "): disposition " + disposition);
}

// A block that ends without its "Math:" line: the result did not run (not supported, failed).
void CutlassProfilerStream::endBlock()
{
    if (!m_block)
        return;
    const Block b = std::move(*m_block);
    m_block.reset();
    noteDisposition(b.disposition, b.problem, b.operation);
    m_extraWarnings.push_back({b.start, "problem " + b.problem + " (" + b.operation + "): status " +
                                            (b.status.empty() ? std::string("unknown") : b.status) +
                                            ", no timing; skipped"});
}

std::optional<GemmPoint> CutlassProfilerStream::feed(std::string_view line, const SourceLocation& where)
{
    const auto text = io::trim(io::stripLauncherPrefix(line));
    if (text.find(kCsvHeader) != std::string_view::npos) {
        if (m_block)
            endBlock();
        m_sawHeader = true;
        if (m_blocks > 0)
            return std::nullopt; // "CSV Results:" of a verbose run: the blocks were the results
        const auto f = io::splitFields(text, ',');
        for (std::size_t i = 0; i < f.size(); ++i) {
            const int idx = static_cast<int>(i);
            if (f[i] == "Problem") m_problemCol = idx;
            else if (f[i] == "Operation") m_operationCol = idx;
            else if (f[i] == "Disposition") m_dispositionCol = idx;
            else if (f[i] == "Status") m_statusCol = idx;
        }
        return m_table.feed(text, where);
    }
    if (m_sawHeader && m_blocks == 0 && text.find(',') != std::string_view::npos) {
        const auto f = io::splitFields(text, ',');
        auto at = [&](int i) { return i >= 0 && static_cast<std::size_t>(i) < f.size() ? std::string(f[i]) : std::string(); };
        noteDisposition(at(m_dispositionCol), at(m_problemCol), at(m_operationCol));
        if (io::lowerAscii(at(m_statusCol)) != "success") {
            m_extraWarnings.push_back({where, "problem " + at(m_problemCol) + " (" + at(m_operationCol) + "): status " +
                                                  at(m_statusCol) + ", no timing; skipped"});
            return std::nullopt;
        }
        auto p = m_table.feed(text, where);
        m_results += p ? 1 : 0;
        return p;
    }
    if (m_sawHeader && m_blocks > 0)
        return std::nullopt;

    // The console report.
    const auto colon = text.find(':');
    const std::string_view key = colon == std::string_view::npos ? std::string_view() : io::trim(text.substr(0, colon));
    const std::string value = colon == std::string_view::npos ? std::string() : std::string(io::trim(text.substr(colon + 1)));
    if (key == "Problem ID") {
        if (m_block)
            endBlock();
        m_block = Block{};
        m_block->problem = value;
        m_block->start = where;
        ++m_blocks;
        return std::nullopt;
    }
    if (!m_block)
        return std::nullopt;
    Block& b = *m_block;
    if (b.inArguments && text.starts_with("--")) { // a wrapped Arguments line goes on
        readArguments(text, b.arguments);
        return std::nullopt;
    }
    b.inArguments = false;
    if (key == "Provider") b.provider = value;
    else if (key == "Operation") b.operation = value;
    else if (key == "Status") b.status = value;
    else if (key == "Disposition") b.disposition = value;
    else if (key == "Arguments") {
        readArguments(value, b.arguments);
        b.inArguments = true;
    } else if (key == "Runtime") {
        const auto words = io::splitWhitespace(value);
        b.runtimeMs = words.empty() ? std::string() : std::string(words[0]);
    } else if (key == "Math") {
        const auto words = io::splitWhitespace(value);
        const std::string gflops = words.empty() ? std::string() : std::string(words[0]);
        auto argument = [&](const char* name) {
            for (const auto& [k, v] : b.arguments)
                if (k == name)
                    return v;
            return std::string();
        };
        const std::string solution = b.provider.empty() || io::lowerAscii(b.provider) == "cutlass"
                                         ? b.operation
                                         : b.provider + " " + b.operation;
        // The block's figures as a header and a row in the CSV report's own column names, so both
        // forms go through one column mapping.
        m_table.feedFields({"Operation", "m", "n", "k", "batch_count", "A", "B", "D", "accum", "Runtime", "GFLOPs"},
                           b.start);
        const std::string status = b.status, disposition = b.disposition, problem = b.problem, operation = b.operation;
        const std::string runtime = b.runtimeMs;
        auto p = m_table.feedFields({solution, argument("m"), argument("n"), argument("k"), argument("batch_count"),
                                     argument("A"), argument("B"), argument("D"), argument("accum"), runtime, gflops},
                                    where);
        m_block.reset();
        noteDisposition(disposition, problem, operation);
        if (io::lowerAscii(status) != "success")
            m_extraWarnings.push_back({where, "problem " + problem + " (" + operation + "): status " + status +
                                                  " but timed; kept"});
        m_results += p ? 1 : 0;
        return p;
    }
    return std::nullopt;
}

namespace {
int sniff(std::string_view head, std::string_view)
{
    if (head.find(kCsvHeader) != std::string_view::npos)
        return 95;
    const bool blocks = head.find("Problem ID:") != std::string_view::npos &&
                        head.find("OperationKind: gemm") != std::string_view::npos;
    return blocks ? 90 : 0;
}

ImportResult parse(ImportInput& input, const ImportOptions& options)
{
    ImportResult result;
    ProgressTicker ticker(input, options);
    CutlassProfilerStream stream;
    SessionData data;
    data.session.kind = kind::Gemm;
    data.session.tool = "cutlass_profiler";
    data.session.title = std::filesystem::path(input.path).filename().string();
    io::LineReader reader(input.stream);
    std::string line;
    try {
        while (reader.next(line)) {
            if (!ticker.tick()) {
                result.cancelled = true;
                return result;
            }
            if (auto p = stream.feed(line, reader.location()))
                data.gemms.push_back(std::move(*p));
        }
    } catch (const std::exception& e) {
        result.ok = false;
        result.error = e.what();
        return result;
    }
    stream.finish();
    result.warnings = stream.warnings();
    for (const auto& bad : stream.incorrect())
        result.warnings.push_back({{}, "cutlass_profiler found a result wrong: " + bad});
    if (data.gemms.empty()) {
        result.ok = false;
        if (!result.warnings.empty()) { // the first reason, where it is
            result.error = "no usable cutlass_profiler result; first problem: " + result.warnings.front().message;
            result.errorAt = result.warnings.front().where;
        } else {
            result.error = stream.sawResults() ? "cutlass_profiler output without a timed GEMM result"
                                               : "no cutlass_profiler GEMM results (neither the CSV report's "
                                                 "\"Problem,Provider,...\" header nor \"Problem ID:\" blocks)";
        }
        return result;
    }
    data.session.params["results_not_trusted"] = stream.incorrect();
    result.sessions.push_back(std::move(data));
    return result;
}
} // namespace

ImporterInfo cutlassProfilerImporter() { return {"cutlass_profiler", "cutlass_profiler GEMM report", sniff, parse}; }
} // namespace rl
