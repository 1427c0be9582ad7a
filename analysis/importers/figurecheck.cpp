#include "importers/figurecheck.h"

#include <cmath>

#include "io/csv.h"

namespace rl {
namespace {
// Runs the checks of one record in order and keeps the first complaint.
class Checker
{
public:
    Checker& operator()(std::string_view figure, double value, std::string_view unit, FigureRange range = FigureRange::NonNegative)
    {
        if (m_problem.empty())
            m_problem = figureProblem(figure, value, unit, range);
        return *this;
    }
    // A value the source may leave out (NaN): checked only when present.
    Checker& optional(std::string_view figure, double value, std::string_view unit)
    {
        return std::isnan(value) ? *this : (*this)(figure, value, unit);
    }
    std::string take() { return std::move(m_problem); }

private:
    std::string m_problem;
};

// A time must be above zero when the row moved bytes or did work; 0 is a real (rounded) value of
// an empty message.
FigureRange timeRange(bool work) { return work ? FigureRange::Positive : FigureRange::NonNegative; }

template <class Record>
void dropFrom(std::vector<Record>& records, const SessionData& data, std::string_view what,
              std::vector<ImportWarning>& warnings)
{
    std::size_t index = 0;
    std::erase_if(records, [&](const Record& r) {
        std::string problem = figureProblem(r);
        ++index;
        if (problem.empty())
            return false;
        warnings.push_back({{}, "session '" + data.session.title + "', " + std::string(what) + " " +
                                    std::to_string(index) + ": " + problem + "; skipped"});
        return true;
    });
}

std::size_t recordCount(const SessionData& d)
{
    return d.collectives.size() + d.gemms.size() + d.membw.size() + d.memCeilings.size() + d.peaks.size() +
           d.steps.size() + d.kernelStats.size() + d.traceCollectives.size() + d.timeline.size() +
           d.trainSteps.size() + d.trainEvents.size() + d.storage.size() + d.pairs.size();
}
} // namespace

std::string figureProblem(std::string_view figure, double value, std::string_view unit, FigureRange range)
{
    const char* verdict = std::isnan(value)                          ? "is not a number"
                          : std::isinf(value)                        ? "is infinite"
                          : value < 0                                ? "is negative"
                          : value == 0 && range == FigureRange::Positive   ? "is zero"
                                                                     : nullptr;
    if (!verdict)
        return {};
    // NaN prints as "nan" whatever its sign bit, as the tools print it.
    std::string text = std::isnan(value) ? std::string("nan") : io::csvNumber(value);
    std::string out(figure);
    out += ' ' + text;
    if (!unit.empty())
        out += ' ' + std::string(unit);
    return out + ' ' + verdict;
}

std::string figureProblem(const CollectivePoint& p)
{
    Checker c;
    c("size", double(p.bytes), "B")("count", double(p.count), "elements")("rank count", p.nranks, "");
    c("time", p.timeUs, "us", timeRange(p.bytes > 0))("algbw", p.algbwGBs, "GB/s")("busbw", p.busbwGBs, "GB/s");
    c("load imbalance", p.imbalance, "");
    if (p.stats)
        c("mean time", p.stats->meanUs, "us")("min time", p.stats->minUs, "us")("max time", p.stats->maxUs, "us")(
            "p50 time", p.stats->p50Us, "us")("p99 time", p.stats->p99Us, "us")("cv", p.stats->cv, "");
    return c.take();
}

std::string figureProblem(const GemmPoint& p)
{
    Checker c;
    c("M", double(p.m), "")("N", double(p.n), "")("K", double(p.k), "")("batch", double(p.batch), "");
    const bool work = p.m > 0 && p.n > 0 && p.k > 0;
    return c("time", p.timeUs, "us", timeRange(work))("rate", p.gflops, "GFLOP/s")("intensity", p.intensity, "FLOP/B")(
                "efficiency", p.efficiency, "")
        .take();
}

std::string figureProblem(const MemBwPoint& p)
{
    // Bandwidth first: it is the figure the tools print, the time is often derived from it.
    return Checker{}("working set", double(p.bytes), "B")("bandwidth", p.bandwidthGBs, "GB/s")(
                        "best time", p.bestTimeUs, "us", timeRange(p.bytes > 0))
        .take();
}

std::string figureProblem(const MemCeiling& c)
{
    return Checker{}("from size", double(c.fromBytes), "B")("to size", double(c.toBytes), "B")(
                        "bandwidth", c.bandwidthGBs, "GB/s")
        .take();
}

std::string figureProblem(const PeakFlopsPoint& p)
{
    return Checker{}("rate", p.gflops, "GFLOP/s")("theoretical rate", p.theoreticalGflops, "GFLOP/s")(
                        "clock", p.clockGHz, "GHz")
        .take();
}

std::string figureProblem(const StoragePoint& p)
{
    Checker c;
    // IOR leaves the time 0 when its Mean(s) column is missing: 0 is "not reported" here.
    c("file size", double(p.fileBytes), "B")("block size", double(p.blockBytes), "B")("rank count", p.nranks, "");
    c("aggregate bandwidth", p.aggregateGBs, "GB/s")("mean rank bandwidth", p.meanRankGBs, "GB/s");
    c("min rank bandwidth", p.minRankGBs, "GB/s")("max rank bandwidth", p.maxRankGBs, "GB/s");
    c("time", p.timeS, "s")("time to first byte", p.firstByteUs, "us")("mean time to first byte", p.firstByteMeanUs, "us");
    for (double gbs : p.rankGBs)
        c("rank bandwidth", gbs, "GB/s");
    return c.take();
}

std::string figureProblem(const PairPoint& p)
{
    return Checker{}("latency size", double(p.latencyBytes), "B")("latency", p.latencyUs, "us")(
                        "bandwidth size", double(p.bandwidthBytes), "B")("bandwidth", p.bandwidthGBs, "GB/s")
        .take();
}

std::string figureProblem(const TrainStep& s)
{
    return Checker{}
        .optional("step time", s.stepTimeMs, "ms")
        .optional("throughput", s.tokensPerSec, "tokens/s")
        .optional("rate", s.tflopsPerGpu, "TFLOP/s")
        .optional("MFU", s.mfu, "")
        .optional("wall time", s.wallTimeS, "s")
        .optional("learning rate", s.learningRate, "")
        .take();
}

void dropOutOfRange(ImportResult& result)
{
    std::vector<SessionData> kept;
    for (auto& data : result.sessions) {
        const std::size_t before = recordCount(data);
        dropFrom(data.collectives, data, "collective point", result.warnings);
        dropFrom(data.gemms, data, "GEMM point", result.warnings);
        dropFrom(data.membw, data, "memory bandwidth point", result.warnings);
        dropFrom(data.memCeilings, data, "memory ceiling", result.warnings);
        dropFrom(data.peaks, data, "peak FLOP/s point", result.warnings);
        dropFrom(data.storage, data, "storage point", result.warnings);
        dropFrom(data.pairs, data, "pair", result.warnings);
        dropFrom(data.trainSteps, data, "training step", result.warnings);
        // A session that had records and lost them all says nothing; one that never had any (a
        // run's header without points) is kept as the importer made it.
        if (before == 0 || recordCount(data) > 0)
            kept.push_back(std::move(data));
    }
    result.sessions = std::move(kept);
}
} // namespace rl
