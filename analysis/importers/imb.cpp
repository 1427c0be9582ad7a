// Intel MPI Benchmarks (IMB-MPI1): "# Benchmarking Allreduce" / "# #processes = 8" blocks, several
// process counts per file, each block one session. IMB's #bytes is what one process passes to MPI:
// the whole vector for Allreduce, Reduce, Reduce_scatter and Bcast (= nccl-tests size), one
// process's block for Allgather and Alltoall (nccl-tests size = #bytes x #processes). Time is t_avg
// (t[usec] for PingPong, which is half the round trip).
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
    const bool suite = head.find("Intel(R) MPI Benchmark") != std::string_view::npos ||
                       head.find("Intel (R) MPI Benchmark") != std::string_view::npos;
    if (head.find("# Benchmarking ") != std::string_view::npos && head.find("#processes") != std::string_view::npos)
        return 95;
    return suite ? 85 : 0;
}

struct Block
{
    std::string benchmark;
    int processes = 0;
    int timeColumn = -1;
    SourceLocation at;
    std::vector<CollectivePoint> points;
};

ImportResult parse(ImportInput& input, const ImportOptions& options)
{
    ImportResult result;
    ProgressTicker ticker(input, options);
    io::LineReader reader(input.stream);
    std::string version, commandLine;
    bool expectCommand = false;
    std::vector<Block> blocks;
    std::string raw;
    while (reader.next(raw)) {
        if (!ticker.tick()) {
            result.cancelled = true;
            return result;
        }
        const std::string_view line = io::trim(io::stripLauncherPrefix(raw));
        if (line.empty())
            continue;
        const auto t = splitWhitespace(line);
        if (line.starts_with('#')) {
            const std::string_view body = io::trim(line.substr(1));
            if (expectCommand) {
                commandLine = std::string(body);
                expectCommand = false;
            } else if (body.starts_with("Intel") && body.find("MPI Benchmark") != std::string_view::npos) {
                // "Intel(R) MPI Benchmarks 2021.7, MPI-1 part" / "Intel (R) MPI Benchmark Suite V4.0.0, MPI-1 part"
                for (auto tok : splitWhitespace(body))
                    if (!tok.empty() && (std::isdigit(static_cast<unsigned char>(tok[0])) || (tok[0] == 'V' && tok.size() > 1)))
                        version = std::string(tok.substr(tok[0] == 'V' ? 1 : 0, tok.find(',')));
            } else if (body.starts_with("Calling sequence was:")) {
                expectCommand = true;
            } else if (body.starts_with("Benchmarking ")) {
                blocks.push_back({std::string(io::trim(body.substr(13))), 0, -1, reader.location(), {}});
            } else if (body.starts_with("#processes") && !blocks.empty()) {
                if (auto eq = body.find('='); eq != std::string_view::npos) {
                    auto rest = splitWhitespace(body.substr(eq + 1));
                    if (!rest.empty())
                        blocks.back().processes = static_cast<int>(units::parseInt(rest[0]).value_or(0));
                }
            } else if (line.starts_with("#bytes") && !blocks.empty()) {
                auto cols = splitWhitespace(body);
                for (std::size_t i = 0; i < cols.size(); ++i)
                    if (cols[i] == "t_avg[usec]" || cols[i] == "t[usec]")
                        blocks.back().timeColumn = static_cast<int>(i);
            }
            continue;
        }
        if (blocks.empty() || blocks.back().timeColumn < 0 || t.empty() || !units::parseInt(t[0]))
            continue;
        Block& b = blocks.back();
        const auto bytes = units::parseInt(t[0]);
        const auto time = static_cast<std::size_t>(b.timeColumn) < t.size() ? units::parseDouble(t[b.timeColumn]) : std::nullopt;
        if (!time) {
            result.warnings.push_back({reader.location(), "row is cut short (no t_avg value); skipped"});
            continue;
        }
        CollectivePoint p;
        p.bytes = *bytes;
        p.timeUs = *time;
        if (figuresInRange(p, reader.location(), result.warnings))
            b.points.push_back(p);
    }
    for (auto& b : blocks) {
        if (b.points.empty())
            continue;
        std::optional<CollectiveOp> op;
        if (b.benchmark == "PingPong" || b.benchmark == "PingPongSpecificSource" || b.benchmark == "Sendrecv")
            op = CollectiveOp::SendRecv;
        else if (b.benchmark == "Allreduce" || b.benchmark == "Reduce" || b.benchmark == "Reduce_scatter" ||
                 b.benchmark == "Reduce_scatter_block" || b.benchmark == "Allgather" || b.benchmark == "Alltoall" ||
                 b.benchmark == "Bcast")
            op = collectiveOpFromString(b.benchmark);
        if (!op) {
            result.warnings.push_back({b.at, "IMB benchmark '" + b.benchmark + "' has no nccl-tests equivalent; skipped"});
            continue;
        }
        const int nranks = b.processes;
        if (nranks == 0)
            result.warnings.push_back({b.at, "no '#processes' line for " + b.benchmark + ": nranks left 0"});
        const bool perRank = *op == CollectiveOp::AllGather || *op == CollectiveOp::AllToAll;
        // IMB reduces MPI_FLOAT and moves MPI_BYTE otherwise.
        const std::string dtype = hasReduction(*op) ? "float32" : "int8";
        SessionData data;
        Session& s = data.session;
        s.kind = kind::Collectives;
        s.tool = "imb";
        s.toolVersion = version;
        s.commandLine = commandLine;
        s.created = nowIso8601();
        s.title = "IMB " + b.benchmark + " " + std::to_string(nranks) + " processes";
        s.params["nranks"] = nranks;
        s.params["benchmark"] = b.benchmark;
        std::string convention = *op == CollectiveOp::SendRecv ? "IMB t[usec] (half the round trip) is the time; "
                                                               : "IMB t_avg[usec] is the time; ";
        convention += perRank ? "#bytes is one process's block, nccl-tests size = #bytes x #processes"
                              : "#bytes is the whole buffer = nccl-tests size";
        s.params["convention"] = convention;
        for (const auto& raw : b.points) {
            const std::int64_t bytes = perRank && nranks > 0 ? raw.bytes * nranks : raw.bytes;
            data.collectives.push_back(importers::makePoint(*op, nranks, dtype, hasReduction(*op) ? "sum" : "", bytes, raw.timeUs));
        }
        result.sessions.push_back(std::move(data));
    }
    return result;
}
} // namespace

ImporterInfo imbImporter()
{
    return {"imb", "Intel MPI Benchmarks output", sniff, parse};
}
} // namespace rl
