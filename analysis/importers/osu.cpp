// OSU Micro-Benchmarks: osu_allreduce / osu_allgather / osu_reduce_scatter / osu_bcast / osu_alltoall /
// osu_reduce latency tables (plain or -f with Min/Max/Iterations), osu_latency and osu_bw as send_recv.
// OSU's size is what one rank passes to MPI: the whole buffer for allreduce, reduce, bcast and
// reduce_scatter (= nccl-tests size), but one rank's block for allgather and alltoall, which
// nccl-tests counts nranks times. OSU does not print the rank count; it comes from a launcher
// command in the log, or stays 0 with a warning.
#include "importers/collectiveimport.h"
#include "importers/figurecheck.h"
#include "importers/formats.h"
#include "io/linereader.h"
#include "units/units.h"

namespace rl {
namespace {
using io::splitWhitespace;

int sniff(std::string_view head, std::string_view)
{
    if (head.find("# OSU MPI") != std::string_view::npos || head.find("# OSU ") != std::string_view::npos)
        return 95;
    return 0;
}

struct Bench
{
    std::optional<CollectiveOp> op;
    std::string title, version, dtype, buffers;
    bool bandwidth = false; // osu_bw / osu_bibw: MB/s instead of latency
    bool bidirectional = false;
    bool columns = false;
    SourceLocation at;
};

// "# OSU MPI Allreduce Latency Test v7.3", "# OSU MPI-CUDA Bandwidth Test v5.6.2", "# OSU MPI Latency Test".
Bench parseTitle(std::string_view body, SourceLocation at)
{
    Bench b;
    b.at = at;
    b.title = std::string(body);
    auto t = splitWhitespace(body);
    if (!t.empty() && t.back().starts_with('v'))
        b.version = std::string(t.back().substr(1));
    std::string name;
    for (std::size_t i = 2; i < t.size(); ++i) {
        if (t[i] == "Latency" || t[i] == "Bandwidth" || t[i] == "Test" || t[i].starts_with('v'))
            break;
        name += std::string(t[i]);
    }
    b.bandwidth = body.find("Bandwidth") != std::string_view::npos;
    b.bidirectional = body.find("Bi-Directional") != std::string_view::npos;
    if (name.empty() || name == "Bi-Directional" || name == "Multiple")
        b.op = CollectiveOp::SendRecv;
    else if (name.starts_with("All-to-All") || name.starts_with("All-to-all") || name.starts_with("AlltoAll"))
        b.op = CollectiveOp::AllToAll;
    else if (name == "Broadcast")
        b.op = CollectiveOp::Broadcast;
    else
        b.op = collectiveOpFromString(name);
    return b;
}

std::string mpiDtype(std::string_view d)
{
    if (d.starts_with("MPI_"))
        d.remove_prefix(4);
    while (!d.empty() && (d.back() == '.' || d.back() == ','))
        d.remove_suffix(1);
    std::string lower;
    for (char c : d)
        lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "char" || lower == "byte" || lower == "signed_char")
        return "int8";
    return canonicalDtype(lower);
}

ImportResult parse(ImportInput& input, const ImportOptions& options)
{
    ImportResult result;
    ProgressTicker ticker(input, options);
    io::LineReader reader(input.stream);
    int launcherRanks = 0;
    std::string commandLine;
    std::vector<std::pair<Bench, std::vector<CollectivePoint>>> runs;
    std::string raw;
    while (reader.next(raw)) {
        if (!ticker.tick()) {
            result.cancelled = true;
            return result;
        }
        const std::string_view line = io::trim(io::stripLauncherPrefix(raw));
        if (line.empty())
            continue;
        if (line.starts_with("# OSU ")) {
            runs.push_back({parseTitle(io::trim(line.substr(1)), reader.location()), {}});
            continue;
        }
        if (runs.empty()) {
            if (auto n = importers::ranksFromLauncherLine(line)) {
                launcherRanks = *n;
                commandLine = std::string(line);
            }
            continue;
        }
        Bench& b = runs.back().first;
        if (line.starts_with('#')) {
            const std::string_view body = io::trim(line.substr(1));
            if (body.starts_with("Datatype:"))
                b.dtype = mpiDtype(io::trim(body.substr(9)));
            else if (body.starts_with("Size"))
                b.columns = true;
            else if (body.starts_with("Send Buffer"))
                b.buffers = std::string(body);
            continue;
        }
        const auto t = splitWhitespace(line);
        if (!b.columns || t.empty() || !units::parseInt(t[0])) {
            if (auto n = importers::ranksFromLauncherLine(line)) {
                launcherRanks = *n;
                commandLine = std::string(line);
            }
            continue;
        }
        const auto size = units::parseInt(t[0]);
        const auto value = t.size() > 1 ? units::parseDouble(t[1]) : std::nullopt;
        if (!value) {
            result.warnings.push_back({reader.location(), "row is cut short or has no number after the size; skipped"});
            continue;
        }
        // The printed figure is checked before it becomes a time: "inf MB/s" would read as 0 us.
        const auto problem = figureProblem(b.bandwidth ? "bandwidth" : "latency", *value, b.bandwidth ? "MB/s" : "us",
                                           *size > 0 ? FigureRange::Positive : FigureRange::NonNegative);
        if (!problem.empty()) {
            result.warnings.push_back({reader.location(), problem + "; row skipped"});
            continue;
        }
        CollectivePoint p;
        p.bytes = *size;
        p.timeUs = b.bandwidth ? static_cast<double>(*size) / *value : *value; // B / (MB/s) = us
        if (figuresInRange(p, reader.location(), result.warnings))
            runs.back().second.push_back(p);
    }
    for (auto& [b, points] : runs) {
        if (points.empty())
            continue;
        if (!b.op) {
            result.warnings.push_back({b.at, "OSU benchmark '" + b.title + "' has no nccl-tests equivalent; skipped"});
            continue;
        }
        const CollectiveOp op = *b.op;
        int nranks = op == CollectiveOp::SendRecv ? 2 : launcherRanks;
        if (nranks == 0)
            result.warnings.push_back({b.at, "OSU does not print the rank count and no mpirun/srun line gives it: "
                                             "nranks left 0" + std::string(op == CollectiveOp::AllGather || op == CollectiveOp::AllToAll
                                                                               ? ", sizes kept per rank (not converted)" : "")});
        const bool perRank = op == CollectiveOp::AllGather || op == CollectiveOp::AllToAll;
        std::string dtype = b.dtype;
        if (dtype.empty())
            dtype = hasReduction(op) ? "float32" : "int8"; // OSU before 7.x: MPI_FLOAT for reductions, MPI_CHAR else
        SessionData data;
        Session& s = data.session;
        s.kind = kind::Collectives;
        s.tool = "osu";
        s.toolVersion = b.version;
        s.commandLine = commandLine;
        s.created = nowIso8601();
        s.title = b.title + (nranks ? " " + std::to_string(nranks) + " ranks" : "");
        s.params["nranks"] = nranks;
        s.params["benchmark"] = b.title;
        if (!b.buffers.empty())
            s.params["buffers"] = b.buffers;
        std::string convention = b.bandwidth ? "OSU bandwidth in MB/s (1e6 B/s); time = size / bandwidth"
                                             : "OSU average latency in us is the time";
        if (b.bidirectional)
            convention += "; bi-directional: bandwidth counts both directions";
        if (perRank)
            convention += nranks ? "; OSU size is one rank's block, nccl-tests size = OSU size x nranks"
                                 : "; OSU size is one rank's block, not converted (nranks unknown)";
        else
            convention += "; OSU size is the full buffer = nccl-tests size";
        s.params["convention"] = convention;
        for (const auto& raw : points) {
            const std::int64_t bytes = perRank && nranks > 0 ? raw.bytes * nranks : raw.bytes;
            CollectivePoint p = importers::makePoint(op, nranks, dtype, hasReduction(op) ? "sum" : "", bytes, raw.timeUs);
            data.collectives.push_back(p);
        }
        result.sessions.push_back(std::move(data));
    }
    return result;
}
} // namespace

ImporterInfo osuImporter()
{
    return {"osu", "OSU Micro-Benchmarks output", sniff, parse};
}
} // namespace rl
