// Training metrics as CSV or JSON lines (exports of W&B / TensorBoard / custom loggers), read
// through a column mapping that is guessed from the header when not given.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "importers/figurecheck.h"
#include "importers/formats.h"
#include "io/csv.h"
#include "io/linereader.h"
#include "trace/trainlogparse.h"
#include "units/units.h"

namespace rl {
namespace trace {
namespace {
// "train/loss" -> "loss", "Step Time (ms)" -> "steptimems"
std::string normal(std::string_view name)
{
    if (const auto slash = name.rfind('/'); slash != std::string_view::npos)
        name = name.substr(slash + 1);
    std::string out;
    for (char c : name)
        if (std::isalnum(static_cast<unsigned char>(c)))
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool anyOf(const std::string& n, std::initializer_list<const char*> names)
{
    return std::any_of(names.begin(), names.end(), [&](const char* x) { return n == x; });
}

std::optional<double> cellNumber(std::string_view v)
{
    v = io::trim(v);
    if (v == "nan" || v == "NaN")
        return std::nan("");
    std::string s(v);
    s.erase(std::remove(s.begin(), s.end(), ','), s.end());
    if (!s.empty() && s.back() == '%')
        s.pop_back();
    return units::parseDouble(s);
}

// A header with tabs and no comma is a TSV export.
char delimiterOf(const std::string& headerLine)
{
    return headerLine.find('\t') != std::string::npos && headerLine.find(',') == std::string::npos ? '\t' : ',';
}
} // namespace

std::vector<std::string> trainTableColumns(std::string_view head)
{
    std::string first;
    std::istringstream lines{std::string(head)};
    while (std::getline(lines, first) && io::trim(first).empty()) {
    }
    if (!first.empty() && first.back() == '\r')
        first.pop_back();
    if (io::trim(first).empty())
        return {};
    std::vector<std::string> columns;
    if (io::trim(first).starts_with("{")) {
        // ordered_json keeps the file's key order, which is how the user knows the columns.
        const auto j = nlohmann::ordered_json::parse(first, nullptr, false);
        if (j.is_discarded() || !j.is_object())
            return {};
        for (auto it = j.begin(); it != j.end(); ++it)
            columns.push_back(it.key());
        return columns;
    }
    try {
        std::istringstream in(first + "\n");
        io::CsvReader csv(in, delimiterOf(first));
        io::CsvRow header;
        if (csv.next(header))
            columns = header.fields;
    } catch (const std::exception&) {
        return {}; // an unterminated quote in the first line: not a header we can offer
    }
    return columns;
}

ColumnMapping guessColumns(const std::vector<std::string>& header)
{
    ColumnMapping m;
    for (const auto& h : header) {
        const std::string n = normal(h);
        auto set = [&](std::string& field) {
            if (field.empty())
                field = h;
        };
        if (anyOf(n, {"step", "iteration", "iter", "globalstep", "step", "trainerglobalstep"}))
            set(m.step);
        else if (anyOf(n, {"loss", "trainloss", "lmloss", "losstrain"}))
            set(m.loss);
        else if (anyOf(n, {"steptimems", "iterationtimems", "elapsedtimeperiterationms", "timeperstepms", "dtms"})) {
            set(m.stepTime);
            m.stepTimeScale = 1.0;
        } else if (anyOf(n, {"steptime", "steptimes", "iterationtime", "iterationtimes", "timeperstep", "dt",
                             "secondsperstep"})) {
            set(m.stepTime);
            m.stepTimeScale = 1000.0;
        } else if (anyOf(n, {"tps", "wps", "tokenspersec", "tokenspersecond", "tokenss", "toksec", "throughputtokens",
                             "tgs"}))
            set(m.tokensPerSec);
        else if (anyOf(n, {"tflops", "tflopspergpu", "tflopsgpu", "throughputpergputflopsgpu"}))
            set(m.tflops);
        else if (anyOf(n, {"mfu", "mfupct", "mfupercent"})) {
            set(m.mfu);
            m.mfuPercent = n != "mfu";
        } else if (anyOf(n, {"timestamp", "walltime", "walltimes", "time", "timestamp", "elapsed", "runtime"}))
            set(m.wallTime);
        else if (anyOf(n, {"lr", "learningrate"}))
            set(m.learningRate);
        else if (anyOf(n, {"gradnorm", "gradientnorm"}))
            set(m.gradNorm);
    }
    return m;
}

int sniffTrainTable(std::string_view head, std::string_view fileName)
{
    const std::size_t eol = head.find('\n');
    const std::string first(head.substr(0, eol));
    if (first.starts_with("{")) {
        const bool stepKey = first.find("\"step\"") != std::string::npos ||
                             first.find("\"iteration\"") != std::string::npos ||
                             first.find("\"global_step\"") != std::string::npos;
        return stepKey && first.find("loss") != std::string::npos ? 70 : 0;
    }
    if (!(fileName.ends_with(".csv") || fileName.ends_with(".csv.gz") || fileName.ends_with(".tsv")))
        return 0;
    std::vector<std::string> cols;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= first.size(); ++i)
        if (i == first.size() || first[i] == ',' || first[i] == '\t') {
            cols.push_back(first.substr(start, i - start));
            start = i + 1;
        }
    const ColumnMapping m = guessColumns(cols);
    return !m.step.empty() && (!m.loss.empty() || !m.stepTime.empty()) ? 70 : 0;
}

ImportResult importTrainTable(ImportInput& input, const ImportOptions& options, const ColumnMapping& given)
{
    ImportResult result;
    ProgressTicker ticker(input, options);
    SessionData s;
    ColumnMapping m = given;
    bool guessed = m.step.empty();
    // One row as (column name -> text) lookups, whatever the container.
    auto addRow = [&](auto&& get, std::int64_t line) {
        TrainStep st;
        auto num = [&](const std::string& col) -> double {
            if (col.empty())
                return kNoValue;
            const auto v = get(col);
            return v ? *v : kNoValue;
        };
        const double step = num(m.step);
        if (std::isnan(step)) {
            result.warnings.push_back({{line, 0}, "no step value; row skipped"});
            return;
        }
        const auto whole = units::wholeNumber(step);
        if (!whole) {
            result.warnings.push_back({{line, 0}, "step " + io::csvNumber(step) + " is not a whole number; row skipped"});
            return;
        }
        st.step = *whole;
        st.loss = num(m.loss);
        st.stepTimeMs = num(m.stepTime) * m.stepTimeScale;
        st.tokensPerSec = num(m.tokensPerSec);
        st.tflopsPerGpu = num(m.tflops);
        st.mfu = num(m.mfu) / (m.mfuPercent ? 100.0 : 1.0);
        st.wallTimeS = num(m.wallTime);
        st.learningRate = num(m.learningRate);
        st.gradNorm = num(m.gradNorm);
        if (!m.loss.empty() && std::isnan(st.loss) && get(m.loss))
            st.nanIterations = 1; // the column is there and holds NaN
        st.line = line;
        if (figuresInRange(st, {line, 0}, result.warnings))
            s.trainSteps.push_back(st);
    };
    io::LineReader peek(input.stream);
    std::string first;
    if (!peek.next(first)) {
        result.ok = false;
        result.error = "empty file";
        return result;
    }
    try {
        if (io::trim(first).starts_with("{")) {
            std::string line = first;
            std::int64_t lineNo = 1;
            do {
                if (!ticker.tick()) {
                    result.cancelled = true;
                    return result;
                }
                if (io::trim(line).empty())
                    continue;
                nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
                if (j.is_discarded() || !j.is_object()) {
                    result.warnings.push_back({peek.location(), "not a JSON object; line skipped"});
                    continue;
                }
                if (guessed && s.trainSteps.empty()) {
                    std::vector<std::string> keys;
                    for (auto it = j.begin(); it != j.end(); ++it)
                        keys.push_back(it.key());
                    m = guessColumns(keys);
                    if (m.step.empty())
                        throw std::runtime_error("no step column among the keys of the first object");
                }
                addRow(
                    [&](const std::string& col) -> std::optional<double> {
                        if (!j.contains(col))
                            return std::nullopt;
                        const auto& v = j[col];
                        if (v.is_number())
                            return v.get<double>();
                        if (v.is_string())
                            return cellNumber(v.get<std::string>());
                        return std::nullopt;
                    },
                    lineNo = peek.location().line);
            } while (peek.next(line));
        } else {
            // CSV: re-read from the start through libcsv (quoted fields may contain commas).
            std::string rest = first + "\n";
            std::string line;
            while (peek.next(line))
                rest += line + "\n";
            std::istringstream in(rest);
            io::CsvReader csv(in, delimiterOf(first));
            io::CsvRow header, row;
            csv.next(header);
            if (guessed)
                m = guessColumns(header.fields);
            if (m.step.empty())
                throw std::runtime_error("no step column in the header (step, iteration, global_step, ...)");
            while (csv.next(row)) {
                if (!ticker.tick()) {
                    result.cancelled = true;
                    return result;
                }
                addRow(
                    [&](const std::string& col) -> std::optional<double> {
                        const auto it = std::find(header.fields.begin(), header.fields.end(), col);
                        const auto idx = static_cast<std::size_t>(it - header.fields.begin());
                        if (it == header.fields.end() || idx >= row.fields.size() || io::trim(row.fields[idx]).empty())
                            return std::nullopt;
                        return cellNumber(row.fields[idx]);
                    },
                    row.where.line);
            }
        }
    } catch (const std::exception& e) {
        result.ok = false;
        result.errorAt = {peek.location().line, 0};
        result.error = e.what();
        return result;
    }
    if (s.trainSteps.empty())
        return result;
    s.session.kind = kind::TrainingLog;
    s.session.tool = "metrics-table";
    s.session.title = std::filesystem::path(input.path).filename().string();
    s.session.created = nowIso8601();
    s.session.params["columns"] = {{"step", m.step},     {"loss", m.loss},     {"step_time", m.stepTime},
                                   {"tokens_per_sec", m.tokensPerSec},         {"tflops", m.tflops},
                                   {"mfu", m.mfu},       {"wall_time", m.wallTime},
                                   {"learning_rate", m.learningRate},          {"grad_norm", m.gradNorm},
                                   {"step_time_scale", m.stepTimeScale},       {"mfu_percent", m.mfuPercent},
                                   {"mapped_by", guessed ? "guess" : "user"}};
    finishTrainLogSession(s);
    result.sessions.push_back(std::move(s));
    return result;
}
} // namespace trace

ImporterInfo trainLogTableImporter()
{
    return {"trainlog-table", "Training metrics (CSV / JSON lines)", trace::sniffTrainTable,
            [](ImportInput& in, const ImportOptions& o) {
                return trace::importTrainTable(in, o, o.trainColumns.value_or(trace::ColumnMapping{}));
            }};
}
} // namespace rl
