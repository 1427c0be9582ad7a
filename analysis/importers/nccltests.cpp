// nccl-tests and rccl-tests stdout, every layout since 2.x: the pre-2.13 tables (no root column,
// `error` = max relative error), 2.13+ (root, #wrong), per-iteration and rccl extra columns,
// launcher prefixes and interleaved noise. One session per test run (a run starts at its
// "# nThread" / version / "Collective test starting" header or at a new column header).
#include "importers/nccltestsstream.h"

#include <algorithm>
#include <set>

#include "importers/collectiveimport.h"
#include "importers/figurecheck.h"
#include "importers/formats.h"
#include "io/linereader.h"
#include "tools/toolfailure.h"
#include "units/units.h"

namespace rl {
namespace {
using io::splitWhitespace;

struct Columns
{
    bool seen = false;
    bool redop = false;
    bool root = false;
    bool errorColumn = false;             // pre-2.13 "error" (max relative error) instead of "#wrong"
    std::vector<std::string> values;      // names after the fixed size/count/type/redop/root prefix
};

struct Run
{
    std::string tool = "nccl-tests";
    std::string toolVersion, ncclVersion, program, commandLine;
    int launcherRanks = 0;
    std::int64_t nThread = 0, nGpus = 0;
    std::set<int> ranks;
    std::vector<std::string> hosts, devices;
    nlohmann::json header = nlohmann::json::object();
    nlohmann::json environment = nlohmann::json::object(); // NCCL's "NCCL_... set by environment to ..."
    Columns cols;
    std::vector<CollectivePoint> points;
    std::optional<double> avgBusbw;
    bool failed = false, anyPositiveError = false;
    SourceLocation firstRow;
};

bool isInt(std::string_view s) { return units::parseInt(s).has_value(); }

void addUnique(std::vector<std::string>& v, std::string s)
{
    if (std::find(v.begin(), v.end(), s) == v.end())
        v.push_back(std::move(s));
}

// "all_reduce_perf", "./build/alltoall_perf_mpi" -> the token naming a nccl-tests program, if any.
std::string programIn(std::string_view line)
{
    for (auto t : splitWhitespace(line)) {
        const auto slash = t.rfind('/');
        if (slash != std::string_view::npos)
            t.remove_prefix(slash + 1);
        while (!t.empty() && (t.back() == ':' || t.back() == ',' || t.back() == '='))
            t.remove_suffix(1);
        if (t.ends_with("_mpi"))
            t.remove_suffix(4);
        if (t.ends_with("_perf") && collectiveOpFromString(t))
            return std::string(t);
    }
    return {};
}

// A column header: "#  size  count  type  redop  root  time  algbw  busbw  #wrong ...".
std::optional<Columns> parseColumns(std::string_view line)
{
    if (!line.starts_with('#'))
        return std::nullopt;
    line.remove_prefix(1);
    auto t = splitWhitespace(line);
    if (t.size() < 6 || t[0] != "size" || t[1] != "count")
        return std::nullopt;
    Columns c;
    c.seen = true;
    std::size_t i = 2;
    if (i < t.size() && t[i] == "type")
        ++i;
    if (i < t.size() && t[i] == "redop")
        c.redop = true, ++i;
    if (i < t.size() && t[i] == "root")
        c.root = true, ++i;
    for (; i < t.size(); ++i) {
        c.values.emplace_back(t[i]);
        if (t[i] == "error")
            c.errorColumn = true;
    }
    if (std::count(c.values.begin(), c.values.end(), "busbw") < 1)
        return std::nullopt;
    return c;
}

// "# nThread 1 nGpus 8 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 ..."
void headerFacts(Run& run, std::string_view line)
{
    auto t = splitWhitespace(line);
    for (std::size_t i = 0; i + 1 < t.size(); ++i) {
        const auto v = units::parseInt(t[i + 1]);
        if (!v)
            continue;
        if (t[i] == "nThread")
            run.nThread = *v;
        else if (t[i] == "nGpus")
            run.nGpus = *v;
        else if (t[i] == "minBytes")
            run.header["min_bytes"] = *v;
        else if (t[i] == "maxBytes")
            run.header["max_bytes"] = *v;
        else if (t[i] == "iters:")
            run.header[i > 0 && t[i - 1] == "warmup" ? "warmup_iters" : (i > 0 && t[i - 1] == "agg" ? "agg_iters" : "iters")] = *v;
        else if (t[i] == "validation:")
            run.header["validation"] = *v;
        else if (t[i] == "graph:")
            run.header["graph"] = *v;
    }
}

// "#  Rank  0 Group  0 Pid 1887 on worker-1 device  0 [0x8d] NVIDIA H100 80GB HBM3" (Group since 2.13).
bool rankLine(Run& run, std::string_view line)
{
    auto t = splitWhitespace(line);
    if (t.size() < 7 || t[0] != "#" || t[1] != "Rank")
        return false;
    if (auto r = units::parseInt(t[2]))
        run.ranks.insert(static_cast<int>(*r));
    for (std::size_t i = 3; i + 1 < t.size(); ++i) {
        if (t[i] == "on")
            addUnique(run.hosts, std::string(t[i + 1]));
        if (t[i] == "device" && i + 3 < t.size()) {
            std::string name;
            for (std::size_t k = i + 3; k < t.size(); ++k)
                name += (name.empty() ? "" : " ") + std::string(t[k]);
            if (!name.empty())
                addUnique(run.devices, name);
            break;
        }
    }
    return true;
}

// "nccl-library=22703" -> "2.27.3" (codes since 2.9 are major*10000 + minor*100 + patch).
std::string versionFromCode(std::string_view code)
{
    auto v = units::parseInt(code);
    if (!v || *v <= 0)
        return std::string(code);
    if (*v >= 10000)
        return std::to_string(*v / 10000) + "." + std::to_string(*v / 100 % 100) + "." + std::to_string(*v % 100);
    return std::to_string(*v / 1000) + "." + std::to_string(*v / 100 % 10) + "." + std::to_string(*v % 100);
}

struct RowResult
{
    std::vector<CollectivePoint> points;
    std::string problem; // non-empty: the row is skipped with this warning
    double maxError = 0;
};

RowResult parseRow(const Run& run, const std::vector<std::string_view>& t)
{
    RowResult out;
    const Columns& c = run.cols;
    auto size = units::parseInt(t[0]);
    auto count = units::parseInt(t[1]);
    if (!size || !count || t.size() < 3 || isInt(t[2]))
        return {{}, "not a result row", 0};
    CollectivePoint base;
    base.bytes = *size;
    base.count = *count;
    base.dtype = canonicalDtype(t[2]);
    std::size_t i = 3;
    // alltoall before 2.13 printed an empty redop under a redop header, so only a word counts.
    if (i < t.size() && !units::parseDouble(t[i]) && t[i] != "N/A") {
        base.redop = t[i] == "none" ? "" : std::string(t[i]);
        ++i;
    }
    if (c.root) {
        if (i >= t.size() || !isInt(t[i]))
            return {{}, "row is cut short or has no root value", 0};
        base.root = static_cast<int>(*units::parseInt(t[i++]));
    }
    std::vector<std::string_view> values(t.begin() + static_cast<std::ptrdiff_t>(std::min(i, t.size())), t.end());
    int group = 0;
    CollectivePoint p = base;
    bool haveTime = false, haveBus = false;
    for (std::size_t k = 0; k < c.values.size(); ++k) {
        const std::string& name = c.values[k];
        if (name != "time" && name != "cputime" && name != "algbw" && name != "busbw" && name != "#wrong" && name != "error")
            continue;
        if (k >= values.size())
            return {{}, "row is cut short (" + std::to_string(values.size()) + " of " +
                            std::to_string(c.values.size()) + " value columns)", 0};
        std::string_view v = values[k];
        while (v.size() > 1 && v.back() == '*') // rccl-tests marks errors over threshold with '*'
            v.remove_suffix(1);
        if (name == "time" || name == "cputime") {
            auto d = units::parseDouble(v);
            if (!d)
                return {{}, "time '" + std::string(v) + "' is not a number", 0};
            p.timeUs = *d;
            haveTime = true;
        } else if (name == "algbw" || name == "busbw") {
            auto d = units::parseDouble(v);
            if (!d && v != "N/A")
                return {{}, std::string(name) + " '" + std::string(v) + "' is not a number", 0};
            (name == "algbw" ? p.algbwGBs : p.busbwGBs) = d.value_or(0);
            haveBus = haveBus || name == "busbw";
        } else {
            if (v == "N/A") {
                p.wrong = -1;
            } else if (auto d = units::parseDouble(v)) {
                if (name == "error") {
                    out.maxError = std::max(out.maxError, *d);
                    p.wrong = *d == 0 ? 0 : -1;
                } else if (auto n = units::wholeNumber(*d); n && *n >= 0) {
                    p.wrong = *n;
                } else {
                    return {{}, "wrong-value count '" + std::string(v) + "' is not a count", 0};
                }
            } else {
                return {{}, "wrong-value count '" + std::string(v) + "' is not a number", 0};
            }
            if (!haveTime || !haveBus)
                continue;
            p.inPlace = group == 1;
            out.points.push_back(p);
            p = base;
            haveTime = haveBus = false;
            ++group;
        }
    }
    if (out.points.empty())
        out.problem = "no time/algbw/busbw group in the row";
    // One bad half (out-of-place or in-place) makes the whole printed row suspect.
    for (const auto& point : out.points)
        if (out.problem.empty())
            out.problem = figureProblem(point);
    return out;
}

Session makeSession(Run& run, std::vector<ImportWarning>& warnings)
{
    Session s;
    s.kind = kind::Collectives;
    s.tool = run.tool;
    s.toolVersion = run.toolVersion;
    s.commandLine = run.commandLine;
    s.created = nowIso8601();
    for (const auto& h : run.hosts)
        s.host += (s.host.empty() ? "" : ",") + h;
    const CollectivePoint& first = run.points.front();
    nlohmann::json& p = s.params;
    p = run.header;
    p["nranks"] = first.nranks;
    p["hosts"] = run.hosts;
    p["devices"] = run.devices;
    if (run.nThread)
        p["nthread"] = run.nThread;
    if (run.nGpus)
        p["ngpus"] = run.nGpus;
    if (!run.ncclVersion.empty())
        p[run.tool == "rccl-tests" ? "rccl_version" : "nccl_version"] = run.ncclVersion;
    if (run.avgBusbw)
        p["avg_busbw_gbs"] = *run.avgBusbw;
    if (!run.environment.empty())
        p["environment"] = run.environment;
    p["convention"] = "nccl-tests PERFORMANCE.md as printed: size is the nccl-tests size; algbw and busbw "
                      "recomputed from size and time (the printed ones are rounded to 2 decimals)";
    if (run.cols.errorColumn)
        p["wrong_column"] = "pre-2.13 'error' column (max relative error, not a count): 0 stored as 0 wrong, "
                            "> 0 stored as -1 (count unknown)";
    if (!run.avgBusbw) {
        s.status = SessionStatus::Incomplete;
        warnings.push_back({run.firstRow, "no '# Avg bus bandwidth' footer after this table: the run may have "
                                          "been cut short; kept " + std::to_string(run.points.size()) + " points"});
    }
    if (run.failed)
        s.status = SessionStatus::Failed;
    std::string op = first.op;
    s.title = run.program.empty() ? op : run.program;
    s.title += " " + std::to_string(first.nranks) + " ranks";
    if (run.hosts.size() > 1)
        s.title += " on " + std::to_string(run.hosts.size()) + " hosts";
    else if (!run.hosts.empty())
        s.title += " on " + run.hosts.front();
    s.title += " (" + run.tool + (run.toolVersion.empty() ? "" : " " + run.toolVersion) + ")";
    return s;
}

// Fills op, nranks and the bandwidths of a finished run, inferring what the log leaves out (with a
// warning saying so).
void resolveRun(const std::string& path, Run& run, std::vector<ImportWarning>& warnings)
{
    std::optional<CollectiveOp> op;
    if (!run.program.empty())
        op = collectiveOpFromString(run.program);
    if (!op) {
        // Old logs often lack the program name; the file name is the last place it may be.
        const std::string name = importers::baseName(path);
        for (const char* key : {"reduce_scatter", "reducescatter", "all_reduce", "allreduce", "all_gather", "allgather",
                                "alltoallv", "all_to_allv", "alltoall", "all_to_all", "broadcast", "bcast", "sendrecv"})
            if (name.find(key) != std::string::npos) {
                op = collectiveOpFromString(key);
                break;
            }
    }
    // Ratio of size to count x dtype tells the gather/scatter ops (size = nranks x count) apart.
    const CollectivePoint& sample = *std::max_element(run.points.begin(), run.points.end(),
        [](const CollectivePoint& a, const CollectivePoint& b) { return a.bytes < b.bytes; });
    const int dsize = dtypeSize(sample.dtype).value_or(1);
    const std::int64_t ratio = sample.count > 0 ? sample.bytes / (sample.count * dsize) : 0;
    if (!op) {
        if (sample.root >= 0)
            op = sample.redop.empty() ? CollectiveOp::Broadcast : CollectiveOp::Reduce;
        else if (!sample.redop.empty())
            op = ratio > 1 ? CollectiveOp::ReduceScatter : CollectiveOp::AllReduce;
        else
            op = CollectiveOp::AllGather;
        warnings.push_back({run.firstRow, std::string("the log does not name the test program; the table looks like ") +
                                              toString(*op) + " (inferred from its columns)"});
        run.program.clear();
    }
    for (const auto& d : run.devices)
        if (d.find("AMD") != std::string::npos || d.find("Instinct") != std::string::npos || d.find("Radeon") != std::string::npos)
            run.tool = "rccl-tests";
    int nranks = static_cast<int>(run.ranks.size());
    if (nranks == 0 && run.launcherRanks > 0)
        nranks = run.launcherRanks * static_cast<int>(std::max<std::int64_t>(1, run.nThread * run.nGpus));
    if (nranks == 0 && (*op == CollectiveOp::ReduceScatter || *op == CollectiveOp::AllGather || *op == CollectiveOp::AllToAll ||
                        *op == CollectiveOp::AllToAllV) && ratio > 0)
        nranks = static_cast<int>(ratio);
    if (nranks == 0 && run.nThread * run.nGpus > 0) {
        nranks = static_cast<int>(run.nThread * run.nGpus);
        warnings.push_back({run.firstRow, "no '#  Rank' lines: assuming one process with " + std::to_string(nranks) + " ranks"});
    }
    if (nranks == 0)
        warnings.push_back({run.firstRow, "rank count unknown (no '#  Rank' lines or launcher command): "
                                          "nranks left 0 and busbw = algbw"});
    for (auto& p : run.points) {
        p.op = toString(*op);
        p.nranks = nranks;
        if (!hasReduction(*op))
            p.redop.clear();
        if (!hasRoot(*op))
            p.root = -1;
        if (p.timeUs > 0 && nranks > 0) {
            p.algbwGBs = static_cast<double>(p.bytes) / (p.timeUs * 1e3);
            p.busbwGBs = p.algbwGBs * busFactor(*op, nranks);
        }
        // rccl-tests' alltoallv_perf sends (peer + rank) mod n chunks to each peer: the pairs differ,
        // but every rank sends and receives the same total, so the load imbalance is 1.
        if (*op == CollectiveOp::AllToAllV)
            p.imbalance = 1.0;
    }
}

} // namespace

struct NcclTestsStream::State
{
    std::string path;
    ImportResult result;
    Run run;
    std::optional<ImportWarning> firstBad;

    void finishRun()
    {
        if (!run.points.empty()) {
            resolveRun(path, run, result.warnings);
            SessionData data{makeSession(run, result.warnings), std::move(run.points)};
            result.sessions.push_back(std::move(data));
        }
        run = Run{};
    }
    void startMarker()
    {
        if (!run.points.empty())
            finishRun();
    }
    // The points of the current run from `first` on, resolved with what the run has said so far
    // (the rest of the run is left out of the copy: a file of thousands of rows stays linear).
    std::vector<CollectivePoint> resolvedFrom(std::size_t first)
    {
        std::vector<CollectivePoint> all = std::move(run.points);
        Run copy = run;
        copy.points.assign(all.begin() + static_cast<std::ptrdiff_t>(first), all.end());
        run.points = std::move(all);
        std::vector<ImportWarning> ignored; // the import at the end reports them once
        resolveRun(path, copy, ignored);
        return std::move(copy.points);
    }
    void line(std::string_view raw, const SourceLocation& where, std::vector<CollectivePoint>& out);
};

NcclTestsStream::NcclTestsStream(std::string path) : m(std::make_unique<State>())
{
    m->path = std::move(path);
}
NcclTestsStream::~NcclTestsStream() = default;

std::vector<CollectivePoint> NcclTestsStream::feed(std::string_view line, const SourceLocation& where)
{
    std::vector<CollectivePoint> out;
    m->line(line, where, out);
    return out;
}

const std::vector<ImportWarning>& NcclTestsStream::warnings() const { return m->result.warnings; }
bool NcclTestsStream::reportedFailure() const { return m->run.failed; }

ImportResult NcclTestsStream::finish()
{
    m->finishRun();
    ImportResult result = std::move(m->result);
    if (result.sessions.empty() && m->firstBad) {
        result.ok = false;
        result.errorAt = m->firstBad->where;
        result.error = "no valid result rows; first bad row: " + m->firstBad->message;
    }
    m->result = ImportResult{};
    return result;
}

void NcclTestsStream::State::line(std::string_view rawLine, const SourceLocation& where, std::vector<CollectivePoint>& out)
{
    const std::string_view line = io::trim(io::stripLauncherPrefix(rawLine));
    if (line.empty())
        return;
    const auto t = splitWhitespace(line);
    if (line.starts_with('#')) {
        const std::string_view body = io::trim(line.substr(1));
        if (body.starts_with("nThread ")) {
            startMarker();
            headerFacts(run, body);
        } else if (body.starts_with("nccl-tests version") || body.starts_with("rccl-tests version")) {
            startMarker();
            run.tool = body.starts_with("rccl") ? "rccl-tests" : "nccl-tests";
            if (t.size() > 3)
                run.toolVersion = std::string(t[3]);
            for (auto tok : t)
                if (tok.starts_with("nccl-library=") || tok.starts_with("rccl-library="))
                    run.ncclVersion = versionFromCode(tok.substr(13));
        } else if (body.starts_with("Collective test starting:")) {
            startMarker();
            run.program = programIn(body);
        } else if (body.starts_with("Collective test concluded:")) {
            if (run.program.empty())
                run.program = programIn(body);
        } else if (body.starts_with("Avg bus bandwidth")) {
            const auto colon = body.find(':');
            if (colon != std::string_view::npos) {
                auto rest = splitWhitespace(body.substr(colon + 1));
                if (!rest.empty())
                    run.avgBusbw = units::parseDouble(rest[0]);
            }
        } else if (body.starts_with("Out of bounds values")) {
            if (auto colon = body.find(':'); colon != std::string_view::npos) {
                auto rest = splitWhitespace(body.substr(colon + 1));
                if (!rest.empty())
                    if (auto n = units::parseInt(rest[0]))
                        run.header["out_of_bounds"] = *n;
            }
        } else if (auto cols = parseColumns(line)) {
            startMarker();
            run.cols = *cols;
        } else {
            rankLine(run, line);
        }
        return;
    }
    if (line.starts_with("rccl-tests: Version")) {
        run.tool = "rccl-tests";
        run.toolVersion = t.size() > 2 ? std::string(t[2]) : std::string{};
        return;
    }
    if (line.starts_with("RCCL version")) {
        run.tool = "rccl-tests";
        if (auto c = line.find(':'); c != std::string_view::npos)
            run.ncclVersion = std::string(io::trim(line.substr(c + 1)));
        return;
    }
    if (const auto env = importers::ncclEnvironmentLine(line)) {
        run.environment[env->first] = env->second;
        return;
    }
    if (const auto at = line.find("NCCL INFO NCCL version "); at != std::string_view::npos) {
        auto rest = splitWhitespace(line.substr(at + 23));
        if (!rest.empty())
            run.ncclVersion = std::string(rest[0]);
        return;
    }
    if (tools::isToolFailureLine(line)) {
        run.failed = true;
        result.warnings.push_back({where, "test reported a failure: " + std::string(line)});
        return;
    }
    if (t.size() >= 2 && isInt(t[0]) && isInt(t[1]) && run.cols.seen) {
        RowResult row = parseRow(run, t);
        if (!row.problem.empty()) {
            ImportWarning w{where, row.problem + "; row skipped"};
            if (!firstBad)
                firstBad = w;
            result.warnings.push_back(std::move(w));
            return;
        }
        if (run.points.empty())
            run.firstRow = where;
        const std::size_t first = run.points.size();
        if (row.maxError > 0)
            result.warnings.push_back({where, "max relative error " + std::string(t.back()) +
                                                              " (pre-2.13 'error' column): wrong stored as -1"});
        for (auto& p : row.points)
            run.points.push_back(std::move(p));
        out = resolvedFrom(first);
        return;
    }
    // Anything else is launcher or container noise, unless it is the command that started a test.
    if (const std::string prog = programIn(line); !prog.empty()) {
        startMarker();
        const bool command = t.size() > 1 && line.find("====") == std::string_view::npos;
        if (command) {
            std::string_view cmd = line;
            if (auto dollar = cmd.rfind("$ "); dollar != std::string_view::npos && dollar < cmd.find(prog))
                cmd.remove_prefix(dollar + 2);
            if (cmd.starts_with("+ "))
                cmd.remove_prefix(2);
            run.commandLine = std::string(cmd);
            run.launcherRanks = importers::ranksFromLauncherLine(cmd).value_or(0);
        }
        run.program = prog;
        if (line.find("rccl") != std::string_view::npos)
            run.tool = "rccl-tests";
    }
}

namespace {
int sniff(std::string_view head, std::string_view)
{
    const bool table = head.find("algbw") != std::string_view::npos && head.find("busbw") != std::string_view::npos;
    if (head.find("# nThread ") != std::string_view::npos && (table || head.find("# Using devices") != std::string_view::npos))
        return 92;
    if (head.find("nccl-tests version") != std::string_view::npos || head.find("rccl-tests") != std::string_view::npos)
        return table ? 92 : 70;
    if (table && head.find("size") != std::string_view::npos && head.find("count") != std::string_view::npos &&
        head.find("OSU") == std::string_view::npos)
        return 80;
    return 0;
}

ImportResult parse(ImportInput& input, const ImportOptions& options)
{
    ProgressTicker ticker(input, options);
    io::LineReader reader(input.stream);
    NcclTestsStream stream(input.path);
    std::string raw;
    while (reader.next(raw)) {
        if (!ticker.tick()) {
            ImportResult cancelled;
            cancelled.cancelled = true;
            return cancelled;
        }
        stream.feed(raw, reader.location());
    }
    return stream.finish();
}

} // namespace

ImporterInfo ncclTestsImporter()
{
    return {"nccl-tests", "nccl-tests / rccl-tests output", sniff, parse};
}
} // namespace rl
