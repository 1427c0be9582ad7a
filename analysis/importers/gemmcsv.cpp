#include "importers/gemmcsv.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <optional>

#include "importers/figurecheck.h"
#include "importers/formats.h"
#include "io/csv.h"
#include "io/linereader.h"
#include "units/units.h"

namespace rl {
// Column indices of one header; -1 = absent.
struct GemmTableStream::Columns
{
    int m = -1, n = -1, k = -1, batch = -1, transA = -1, transB = -1;
    int aType = -1, bType = -1, outType = -1, computeType = -1;
    int gflops = -1, tflops = -1, timeUs = -1, timeMs = -1, timeS = -1;
    int solution = -1, device = -1;
    std::size_t count = 0;

    bool usable() const { return m >= 0 && n >= 0 && k >= 0 && (gflops >= 0 || tflops >= 0 || timeUs >= 0 || timeMs >= 0 || timeS >= 0); }
};

namespace {
using Columns = GemmTableStream::Columns;

std::optional<Columns> mapHeader(const std::vector<std::string>& fields, GemmTableFlavor flavor)
{
    Columns c;
    c.count = fields.size();
    const bool cutlass = flavor == GemmTableFlavor::CutlassProfiler;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const std::string f = io::lowerAscii(io::trim(fields[i]));
        const int idx = static_cast<int>(i);
        auto set = [&](int& slot) { if (slot < 0) slot = idx; };
        // cutlass_profiler's report (performance_report.cpp): operands A, B, C, D as "type:layout",
        // the accumulator type, the kernel in Operation, Runtime in milliseconds.
        if (cutlass && f == "a") set(c.aType);
        else if (cutlass && f == "b") set(c.bType);
        else if (cutlass && f == "d") set(c.outType);
        else if (cutlass && f == "accum") set(c.computeType);
        else if (cutlass && f == "operation") set(c.solution);
        else if (cutlass && f == "runtime") set(c.timeMs);
        else if (f == "m") set(c.m);
        else if (f == "n") set(c.n);
        else if (f == "k") set(c.k);
        else if (f == "batch_count" || f == "batch") set(c.batch);
        else if (f == "transa" || f == "trans_a") set(c.transA);
        else if (f == "transb" || f == "trans_b") set(c.transB);
        else if (f == "a_type" || f == "dtype" || f == "precision" || f == "datatype" || f == "type") set(c.aType);
        else if (f == "d_type" || f == "out_type") c.outType = idx;
        else if (f == "c_type" && c.outType < 0) c.outType = idx;
        else if (f == "compute_type") set(c.computeType);
        else if (f.ends_with("-gflops") && !f.starts_with("cpu")) set(c.gflops);
        else if (f == "gflops" || f == "gflop/s") set(c.gflops);
        else if (f == "tflops" || f == "tflop/s" || f == "tflops/s") set(c.tflops);
        else if (f == "us" || f == "time_us" || f == "time(us)" || f == "avg_us") set(c.timeUs);
        else if (f == "ms" || f == "time_ms" || f == "time(ms)") set(c.timeMs);
        else if (f == "s" || f == "time_s" || f == "seconds") set(c.timeS);
        else if (f == "solution_index" || f == "solution" || f == "kernel") set(c.solution);
        else if (f == "gcnarchname" || f == "device") set(c.device);
    }
    if (!c.usable())
        return std::nullopt;
    return c;
}

std::vector<std::string> splitCommas(std::string_view line)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    for (;;) {
        const auto comma = line.find(',', pos);
        out.emplace_back(io::trim(line.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos)));
        if (comma == std::string_view::npos)
            return out;
        pos = comma + 1;
    }
}

// Converts one value row; an error message instead when a required field is bad.
std::optional<GemmPoint> toPoint(const Columns& c, const std::vector<std::string>& f, std::string& error)
{
    auto field = [&](int i) -> std::string_view { return i >= 0 && static_cast<std::size_t>(i) < f.size() ? std::string_view(f[i]) : std::string_view(); };
    auto integer = [&](int i, const char* name) -> std::optional<std::int64_t> {
        const auto v = units::parseInt(field(i));
        if (!v || *v <= 0)
            error = std::string("bad ") + name + " '" + std::string(field(i)) + "'";
        return v && *v > 0 ? v : std::nullopt;
    };
    GemmPoint p;
    const auto m = integer(c.m, "M"), n = integer(c.n, "N"), k = integer(c.k, "K");
    if (!m || !n || !k)
        return std::nullopt;
    p.m = *m;
    p.n = *n;
    p.k = *k;
    if (c.batch >= 0)
        p.batch = std::max<std::int64_t>(1, units::parseInt(field(c.batch)).value_or(1));
    if (c.transA >= 0 && !field(c.transA).empty())
        p.transA = std::string(field(c.transA));
    if (c.transB >= 0 && !field(c.transB).empty())
        p.transB = std::string(field(c.transB));
    // CUTLASS names an operand "f16:column": column-major is BLAS's N, row-major its T.
    auto typeOf = [&](int i, std::string& trans) {
        std::string_view t = field(i);
        if (const auto colon = t.find(':'); colon != std::string_view::npos) {
            trans = io::lowerAscii(t.substr(colon + 1)).starts_with("row") ? "T" : "N";
            t = t.substr(0, colon);
        }
        return t;
    };
    std::string ignored;
    p.dtype = gemmDtype(typeOf(c.aType, p.transA));
    if (c.bType >= 0)
        typeOf(c.bType, p.transB);
    p.outType = c.outType >= 0 ? gemmDtype(typeOf(c.outType, ignored)) : std::string();
    p.computeType = c.computeType >= 0 ? gemmDtype(field(c.computeType)) : std::string();
    p.solution = std::string(field(c.solution));
    p.device = std::string(field(c.device));
    const double flops = 2.0 * static_cast<double>(p.m) * p.n * p.k * p.batch;
    auto number = [&](int i) { return i >= 0 ? units::parseDouble(field(i)) : std::nullopt; };
    if (auto us = number(c.timeUs)) p.timeUs = *us;
    else if (auto ms = number(c.timeMs)) p.timeUs = *ms * 1e3;
    else if (auto s = number(c.timeS)) p.timeUs = *s * 1e6;
    if (auto g = number(c.gflops)) p.gflops = *g;
    else if (auto t = number(c.tflops)) p.gflops = *t * 1e3;
    // A printed figure out of range makes the row corrupt, even where the other could stand in for
    // it (0 is how a left-out column reads here).
    for (auto problem : {p.timeUs != 0 ? figureProblem("time", p.timeUs, "us") : std::string(),
                         p.gflops != 0 ? figureProblem("rate", p.gflops, "GFLOP/s") : std::string()})
        if (!problem.empty()) {
            error = problem;
            return std::nullopt;
        }
    // Whichever of time and rate the tool left out follows from the other.
    if (p.gflops <= 0 && p.timeUs > 0)
        p.gflops = flops / (p.timeUs * 1e-6) / 1e9;
    if (p.timeUs <= 0 && p.gflops > 0)
        p.timeUs = flops / (p.gflops * 1e9) * 1e6;
    if (p.timeUs <= 0 || p.gflops <= 0) {
        error = "no usable time or FLOP rate";
        return std::nullopt;
    }
    const int in = gemmElementBytes(p.dtype);
    const int out = p.outType.empty() ? in : gemmElementBytes(p.outType);
    if (in > 0 && out > 0) {
        const double bytes = (static_cast<double>(p.m) * p.k + static_cast<double>(p.k) * p.n) * in +
                             static_cast<double>(p.m) * p.n * out;
        p.intensity = 2.0 * static_cast<double>(p.m) * p.n * p.k / bytes;
    }
    return p;
}
} // namespace

std::string gemmDtype(std::string_view name)
{
    static const std::map<std::string, std::string> table{
        {"f64_r", "float64"}, {"d", "float64"},   {"fp64", "float64"},  {"double", "float64"}, {"float64", "float64"},
        {"f32_r", "float32"}, {"s", "float32"},   {"fp32", "float32"},  {"float", "float32"},  {"float32", "float32"},
        {"xf32_r", "tf32"},   {"tf32", "tf32"},   {"f16_r", "float16"}, {"h", "float16"},      {"fp16", "float16"},
        {"half", "float16"},  {"float16", "float16"}, {"bf16_r", "bfloat16"}, {"bf16", "bfloat16"},
        {"bfloat16", "bfloat16"}, {"f8_r", "float8_e4m3"}, {"f8_fnuz_r", "float8_e4m3fnuz"}, {"fp8", "float8_e4m3"},
        {"float8_e4m3", "float8_e4m3"}, {"e4m3", "float8_e4m3"}, {"bf8_r", "float8_e5m2"}, {"bf8_fnuz_r", "float8_e5m2fnuz"},
        {"float8_e5m2", "float8_e5m2"}, {"e5m2", "float8_e5m2"}, {"i8_r", "int8"}, {"int8", "int8"}, {"i32_r", "int32"},
        {"int32", "int32"}, {"f64", "float64"}, {"f32", "float32"}, {"f16", "float16"}, {"s8", "int8"},
        {"s32", "int32"}};
    const std::string key = io::lowerAscii(io::trim(name));
    const auto it = table.find(key);
    return it != table.end() ? it->second : std::string(io::trim(name));
}

int gemmElementBytes(std::string_view dtype)
{
    if (dtype == "float64") return 8;
    if (dtype == "float32" || dtype == "tf32" || dtype == "int32") return 4;
    if (dtype == "float16" || dtype == "bfloat16") return 2;
    if (dtype.starts_with("float8") || dtype == "int8") return 1;
    return 0;
}

GemmTableStream::GemmTableStream(GemmTableFlavor flavor) : m_flavor(flavor), m_columns(std::make_unique<Columns>()) {}
GemmTableStream::~GemmTableStream() = default;

std::optional<GemmPoint> GemmTableStream::feedFields(const std::vector<std::string>& fields, const SourceLocation& where)
{
    if (auto h = mapHeader(fields, m_flavor)) {
        *m_columns = *h;
        ++m_headers;
        return std::nullopt;
    }
    if (m_headers == 0)
        return std::nullopt; // preamble: "Git Version: ...", "rocBLAS info: ...", device queries
    if (fields.size() != m_columns->count) {
        if (m_flavor == GemmTableFlavor::GenericCsv || fields.size() > 3)
            m_warnings.push_back({where, "expected " + std::to_string(m_columns->count) + " fields, found " +
                                             std::to_string(fields.size()) + " (truncated?); skipped"});
        return std::nullopt;
    }
    std::string error;
    auto p = toPoint(*m_columns, fields, error);
    if (!p)
        m_warnings.push_back({where, error + "; row skipped"});
    else if (!figuresInRange(*p, where, m_warnings)) // what was derived from the printed figures
        return std::nullopt;
    return p;
}

std::optional<GemmPoint> GemmTableStream::feed(std::string_view line, const SourceLocation& where)
{
    const auto text = io::trim(io::stripLauncherPrefix(line));
    if (text.find(',') == std::string_view::npos)
        return std::nullopt;
    return feedFields(splitCommas(text), where);
}

std::string GemmTableStream::toolName() const
{
    return m_flavor == GemmTableFlavor::RocblasBench      ? "rocblas-bench"
           : m_flavor == GemmTableFlavor::HipblasltBench  ? "hipblaslt-bench"
           : m_flavor == GemmTableFlavor::CutlassProfiler ? "cutlass_profiler"
                                                          : "gemm-csv";
}

ImportResult parseGemmTable(ImportInput& input, const ImportOptions& options, GemmTableFlavor flavor)
{
    ImportResult result;
    ProgressTicker ticker(input, options);
    GemmTableStream stream(flavor);
    SessionData data;
    data.session.kind = kind::Gemm;
    data.session.tool = stream.toolName();
    data.session.title = std::filesystem::path(input.path).filename().string();
    auto keep = [&](std::optional<GemmPoint> p) {
        if (p)
            data.gemms.push_back(std::move(*p));
    };
    try {
        if (flavor == GemmTableFlavor::GenericCsv) {
            io::CsvReader reader(input.stream);
            io::CsvRow row;
            while (reader.next(row)) {
                if (!ticker.tick()) {
                    result.cancelled = true;
                    return result;
                }
                keep(stream.feedFields(row.fields, row.where));
            }
        } else {
            io::LineReader reader(input.stream);
            std::string line;
            while (reader.next(line)) {
                if (!ticker.tick()) {
                    result.cancelled = true;
                    return result;
                }
                keep(stream.feed(line, reader.location()));
            }
        }
    } catch (const std::exception& e) {
        result.ok = false;
        result.error = e.what();
        return result;
    }
    result.warnings = stream.warnings();
    if (stream.headers() == 0) {
        result.ok = false;
        result.error = "no GEMM header line (needs M, N, K and a time or FLOP-rate column)";
        return result;
    }
    if (data.gemms.empty()) {
        result.ok = false;
        result.error = "GEMM header found but no result rows";
        return result;
    }
    data.session.params["header_lines"] = stream.headers();
    result.sessions.push_back(std::move(data));
    return result;
}

namespace {
int sniffGeneric(std::string_view head, std::string_view fileName)
{
    const auto eol = head.find('\n');
    const std::string first = io::lowerAscii(head.substr(0, eol));
    const auto fields = splitCommas(first);
    const auto cols = mapHeader(fields, GemmTableFlavor::GenericCsv);
    if (!cols)
        return 0;
    return fileName.ends_with(".csv") ? 70 : 55;
}
} // namespace

ImporterInfo gemmCsvImporter()
{
    return {"gemm-csv", "GEMM CSV (M, N, K, dtype, time or FLOP/s)", sniffGeneric,
            [](ImportInput& in, const ImportOptions& o) { return parseGemmTable(in, o, GemmTableFlavor::GenericCsv); }};
}
} // namespace rl
