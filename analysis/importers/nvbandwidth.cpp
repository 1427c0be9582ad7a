#include "importers/nvbandwidth.h"

#include <cctype>
#include <filesystem>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "importers/figurecheck.h"
#include "importers/formats.h"
#include "io/linereader.h"
#include "units/units.h"

namespace rl {
namespace {
// "... bandwidth (GB/s)" / "... (ns)": the unit in the description's last parentheses.
std::string unitOf(std::string_view description)
{
    const auto open = description.rfind('('), close = description.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
        return {};
    return std::string(description.substr(open + 1, close - open - 1));
}

// "memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)", "memcpy local GPU(column) bandwidth (GB/s)",
// "memory latency SM CPU(row) <-> GPU(column) (ns)"
bool isDescription(std::string_view text)
{
    const std::string unit = unitOf(text);
    return (unit == "GB/s" || unit == "ns") && text.find("PU(") != std::string_view::npos;
}

// A matrix value: a number, or N/A for a pair not measured (a GPU with itself, no peer access).
std::optional<double> cell(std::string_view word, bool& ok)
{
    ok = true;
    if (word == "N/A")
        return std::nullopt;
    const auto v = units::parseDouble(word);
    ok = v.has_value();
    return v;
}
} // namespace

nlohmann::json CopyMatrix::toJson() const
{
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : values) {
        nlohmann::json row = nlohmann::json::array();
        for (const auto& v : r)
            row.push_back(v ? nlohmann::json(*v) : nlohmann::json());
        rows.push_back(std::move(row));
    }
    return {{"testcase", testcase}, {"description", description}, {"unit", unit}, {"row_labels", rowLabels},
            {"column_labels", columnLabels}, {"values", rows}, {"sum", sum ? nlohmann::json(*sum) : nlohmann::json()}};
}

std::optional<CopyMatrix> CopyMatrix::fromJson(const nlohmann::json& j)
{
    if (!j.is_object())
        return std::nullopt;
    const auto text = [&](const char* key) {
        const auto it = j.find(key);
        return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    const auto labels = [&](const char* key) {
        std::vector<std::string> out;
        if (const auto it = j.find(key); it != j.end() && it->is_array())
            for (const auto& l : *it)
                out.push_back(l.is_string() ? l.get<std::string>() : l.dump());
        return out;
    };
    CopyMatrix m;
    m.testcase = text("testcase");
    m.description = text("description");
    m.unit = text("unit");
    m.rowLabels = labels("row_labels");
    m.columnLabels = labels("column_labels");
    const auto values = j.find("values");
    for (std::size_t r = 0; r < m.rowLabels.size(); ++r) {
        auto& row = m.values.emplace_back(m.columnLabels.size());
        if (values == j.end() || !values->is_array() || r >= values->size() || !(*values)[r].is_array())
            continue;
        const auto& in = (*values)[r];
        for (std::size_t c = 0; c < row.size() && c < in.size(); ++c)
            if (in[c].is_number())
                row[c] = in[c].get<double>();
    }
    if (const auto sum = j.find("sum"); sum != j.end() && sum->is_number())
        m.sum = sum->get<double>();
    if (m.rowLabels.empty() || m.columnLabels.empty())
        return std::nullopt;
    return m;
}

std::vector<CopyMatrix> copyMatricesOf(const nlohmann::json& params)
{
    std::vector<CopyMatrix> out;
    if (!params.is_object())
        return out;
    if (const auto it = params.find("matrices"); it != params.end() && it->is_array())
        for (const auto& j : *it)
            if (auto m = CopyMatrix::fromJson(j))
                out.push_back(std::move(*m));
    return out;
}

std::optional<CopyMatrix> NvbandwidthStream::feed(std::string_view line, const SourceLocation& where)
{
    if (!m_error.empty())
        return std::nullopt;
    const auto text = io::trim(io::stripLauncherPrefix(line));
    const auto words = io::splitWhitespace(text);
    auto fail = [&](std::string message) {
        m_error = std::move(message);
        m_errorAt = where;
        return std::nullopt;
    };
    switch (m_state) {
    case State::ColumnLabels:
        if (words.empty())
            return fail("matrix '" + m_matrix->description + "' has no column labels");
        for (const auto w : words)
            m_matrix->columnLabels.emplace_back(w);
        m_state = State::Rows;
        return std::nullopt;
    case State::Rows:
        if (!words.empty()) {
            if (words.size() != m_matrix->columnLabels.size() + 1)
                return fail("matrix row '" + std::string(text) + "' has " + std::to_string(words.size() - 1) +
                            " values for " + std::to_string(m_matrix->columnLabels.size()) + " columns");
            std::vector<std::optional<double>> row;
            for (std::size_t i = 1; i < words.size(); ++i) {
                bool ok = true;
                row.push_back(cell(words[i], ok));
                if (!ok)
                    return fail("matrix value '" + std::string(words[i]) + "' is not a number or N/A");
                if (row.back() && !figureProblem("bandwidth", *row.back(), m_matrix->unit).empty())
                    return fail(figureProblem("value", *row.back(), m_matrix->unit) + " in matrix '" +
                                m_matrix->description + "'");
            }
            m_matrix->rowLabels.emplace_back(words[0]);
            m_matrix->values.push_back(std::move(row));
            return std::nullopt;
        }
        if (m_matrix->values.empty())
            return fail("matrix '" + m_matrix->description + "' has no rows");
        m_state = State::AfterRows;
        return std::nullopt;
    case State::AfterRows:
        // "SUM name 442.55" or, with --perfFormatter, "&&&& PERF name 442.55GB/s"
        if ((words.size() == 3 && words[0] == "SUM") || (words.size() == 4 && words[0] == "&&&&")) {
            std::string_view value = words.back();
            while (!value.empty() && !std::isdigit(static_cast<unsigned char>(value.back())))
                value.remove_suffix(1);
            m_matrix->sum = units::parseDouble(value);
            m_state = State::Outside;
            auto done = std::move(m_matrix);
            m_matrix.reset();
            return done;
        }
        if (!words.empty()) { // VERBOSE's MIN/MAX/AVG lines come after the sum
            m_state = State::Outside;
            m_warnings.push_back({where, "matrix '" + m_matrix->description + "' has no SUM line"});
            auto done = std::move(m_matrix);
            m_matrix.reset();
            return done;
        }
        return std::nullopt;
    case State::Outside: break;
    }
    if (text.starts_with("nvbandwidth Version:"))
        m_facts["version"] = std::string(io::trim(text.substr(20)));
    else if (text.starts_with("Built from Git version:"))
        m_facts["git_version"] = std::string(io::trim(text.substr(23)));
    else if (text.starts_with("CUDA Runtime Version:"))
        m_facts["cuda_runtime"] = std::string(io::trim(text.substr(21)));
    else if (text.starts_with("Driver Version:"))
        m_facts["driver"] = std::string(io::trim(text.substr(15)));
    else if (text.starts_with("Device ") && text.find(": ") != std::string_view::npos) {
        m_facts["devices"].push_back(std::string(text.substr(text.find(": ") + 2)));
        if (!m_facts.contains("host") && !m_lastLine.empty())
            m_facts["host"] = m_lastLine; // printGPUs: the host name, then one line per device
    } else if (text.starts_with("Running ") && text.ends_with(".")) {
        m_testcase = std::string(text.substr(8, text.size() - 9));
    } else if (text.starts_with("Waived") || text.starts_with("ERROR") || text.starts_with("Error:")) {
        m_facts["not_run"].push_back((m_testcase.empty() ? std::string() : m_testcase + ": ") + std::string(text));
    } else if (isDescription(text)) {
        m_matrix = CopyMatrix{};
        m_matrix->testcase = m_testcase;
        m_matrix->description = std::string(text);
        m_matrix->unit = unitOf(text);
        m_matrix->where = where;
        m_state = State::ColumnLabels;
    }
    m_lastLine = std::string(text);
    return std::nullopt;
}

std::optional<CopyMatrix> NvbandwidthStream::finish()
{
    if (!m_matrix || m_matrix->values.empty())
        return std::nullopt;
    m_warnings.push_back({m_matrix->where, "matrix '" + m_matrix->description + "' ends the output without its SUM line"});
    auto done = std::move(m_matrix);
    m_matrix.reset();
    m_state = State::Outside;
    return done;
}

std::vector<CopyMatrix> nvbandwidthJsonMatrices(const nlohmann::json& root, nlohmann::json& facts)
{
    if (!root.is_object() || !root.contains("nvbandwidth") || !root["nvbandwidth"].is_object())
        throw std::runtime_error("not nvbandwidth -j output (no \"nvbandwidth\" object)");
    const auto& nvb = root["nvbandwidth"];
    for (const auto& [key, name] : {std::pair{"version", "version"}, {"git_version", "git_version"},
                                    {"CUDA Runtime Version", "cuda_runtime"}, {"Driver Version", "driver"}})
        if (nvb.contains(key))
            facts[name] = nvb[key].is_string() ? nvb[key].get<std::string>() : nvb[key].dump();
    if (nvb.contains("GPU Device list") && nvb["GPU Device list"].is_array())
        facts["devices"] = nvb["GPU Device list"];
    std::vector<CopyMatrix> out;
    for (const auto& t : nvb.value("testcases", nlohmann::json::array())) {
        const std::string name = t.value("name", std::string());
        if (!t.contains("bandwidth_matrix")) {
            facts["not_run"].push_back(name + ": " + t.value("status", std::string("no matrix")));
            continue;
        }
        CopyMatrix m;
        m.testcase = name;
        m.description = t.value("bandwidth_description", std::string());
        m.unit = unitOf(m.description);
        for (const auto& r : t["bandwidth_matrix"]) {
            std::vector<std::optional<double>> row;
            for (const auto& v : r) {
                bool ok = true;
                row.push_back(v.is_number() ? std::optional<double>(v.get<double>())
                                            : cell(v.is_string() ? v.get<std::string>() : v.dump(), ok));
                if (!ok)
                    throw std::runtime_error("testcase " + name + ": matrix value " + v.dump() + " is not a number or N/A");
            }
            m.values.push_back(std::move(row));
        }
        for (std::size_t i = 0; i < m.values.size(); ++i)
            m.rowLabels.push_back(std::to_string(i));
        for (std::size_t i = 0; !m.values.empty() && i < m.values.front().size(); ++i)
            m.columnLabels.push_back(std::to_string(i));
        if (t.contains("sum") && t["sum"].is_number())
            m.sum = t["sum"].get<double>();
        out.push_back(std::move(m));
    }
    return out;
}

namespace {
int sniff(std::string_view head, std::string_view)
{
    if (head.find("nvbandwidth Version:") != std::string_view::npos)
        return 95;
    if (head.find("\"nvbandwidth\"") != std::string_view::npos && head.find("\"testcases\"") != std::string_view::npos)
        return 95;
    return 0;
}

ImportResult parse(ImportInput& input, const ImportOptions& options)
{
    ImportResult result;
    ProgressTicker ticker(input, options);
    SessionData data;
    data.session.kind = kind::CopyBandwidth;
    data.session.tool = "nvbandwidth";
    data.session.title = std::filesystem::path(input.path).filename().string();
    nlohmann::json facts = nlohmann::json::object();
    std::vector<CopyMatrix> matrices;
    std::string text{std::istreambuf_iterator<char>(input.stream), std::istreambuf_iterator<char>()};
    if (!ticker.tick()) {
        result.cancelled = true;
        return result;
    }
    const auto brace = text.find_first_not_of(" \t\r\n");
    if (brace != std::string::npos && text[brace] == '{') { // -j
        try {
            matrices = nvbandwidthJsonMatrices(nlohmann::json::parse(text), facts);
        } catch (const nlohmann::json::parse_error& e) {
            result.ok = false;
            result.errorAt = locationOfByte(text, e.byte > 0 ? e.byte - 1 : 0);
            result.error = std::string("invalid JSON: ") + e.what();
            return result;
        } catch (const std::exception& e) {
            result.ok = false;
            result.error = e.what();
            return result;
        }
    } else {
        NvbandwidthStream stream;
        std::istringstream in(text);
        io::LineReader reader(in);
        std::string line;
        while (reader.next(line)) {
            if (auto m = stream.feed(line, reader.location()))
                matrices.push_back(std::move(*m));
            if (!stream.error().empty()) {
                result.ok = false;
                result.error = stream.error();
                result.errorAt = stream.errorAt();
                return result;
            }
        }
        if (auto m = stream.finish())
            matrices.push_back(std::move(*m));
        facts = stream.facts();
        result.warnings = stream.warnings();
    }
    if (matrices.empty()) {
        result.ok = false;
        result.error = "no nvbandwidth result matrix (\"memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)\" and its rows)";
        return result;
    }
    data.session.toolVersion = facts.value("version", std::string());
    data.session.host = facts.value("host", std::string());
    data.session.params = facts;
    data.session.params["matrices"] = nlohmann::json::array();
    for (const auto& m : matrices)
        data.session.params["matrices"].push_back(m.toJson());
    data.session.params["unit_note"] = "GB/s = 1e9 B/s as nvbandwidth computes it; ns for its latency tests";
    result.sessions.push_back(std::move(data));
    return result;
}
} // namespace

ImporterInfo nvbandwidthImporter() { return {"nvbandwidth", "nvbandwidth output (text or -j JSON)", sniff, parse}; }
} // namespace rl
