#include "collectives/nccltable.h"

#include <cstdio>

namespace rl {
namespace {
std::string format(const char* fmt, auto... args)
{
    char buf[256];
    std::snprintf(buf, sizeof buf, fmt, args...);
    return buf;
}

std::string perfName(CollectiveOp op)
{
    if (op == CollectiveOp::AllToAll)
        return "alltoall_perf";
    if (op == CollectiveOp::AllToAllV)
        return "alltoallv_perf";
    return std::string(toString(op)) + "_perf";
}

bool sameRow(const PlannedPoint& a, const PlannedPoint& b)
{
    return a.op == b.op && a.dtype == b.dtype && a.redop == b.redop && a.shape.bytes == b.shape.bytes &&
           a.shape.count == b.shape.count;
}
} // namespace

std::string ncclNumberCell(double value, int width)
{
    int digits = 0; // digits before the point
    for (double v = 1; value >= v && digits < 40; v *= 10)
        ++digits;
    if (digits < width - 2)
        return format("%*.2f", width, value);
    if (digits < width - 1)
        return format("%*.1f", width, value);
    if (digits < width + 1)
        return format("%*.0f", width, value);
    return format("%*.1e", width, value);
}

const char* ncclTypeName(DataType t)
{
    switch (t) {
    case DataType::Float32: return "float";
    case DataType::Float64: return "double";
    case DataType::Int32: return "int32";
    }
    return "float";
}

NcclTableWriter::NcclTableWriter(std::ostream& out, const SweepParams& params, int nranks)
    : m_out(out), m_params(params), m_nranks(nranks)
{
}

void NcclTableWriter::begin(const std::vector<std::string>& rankDescriptions, const std::string& libraryVersion)
{
    const std::string step = m_params.stepBytes > 0 ? format("%lld(bytes)", (long long)m_params.stepBytes)
                                                    : format("%d(factor)", m_params.stepFactor);
    m_out << format("# nThread 1 nGpus 1 minBytes %lld maxBytes %lld step: %s warmup iters: %d iters: %d "
                    "agg iters: 1 validation: 1 graph: 0\n",
                    (long long)m_params.minBytes, (long long)m_params.maxBytes, step.c_str(),
                    m_params.timing.warmup.value_or(0), m_params.timing.iters.value_or(0));
    if (!m_params.timing.iters)
        m_out << format("# iters 0: timed calls chosen per size, %d..%d within %g s per size (IMB-style)\n",
                        m_params.timing.minIters, m_params.timing.maxIters, m_params.timing.secondsPerPoint);
    m_out << "#\n# ridgeline-bench " << RIDGELINE_VERSION << " (MPI, host memory), " << m_nranks << " ranks, "
          << libraryVersion << "\n#\n# Using devices\n";
    for (const auto& r : rankDescriptions)
        m_out << "#  " << r << '\n';
    m_out.flush();
}

void NcclTableWriter::openTable(CollectiveOp op)
{
    m_tableOp = op;
    m_tableWrong = 0;
    m_busbwSum = 0;
    m_busbwCount = 0;
    m_out << "#\n# Collective test starting: " << perfName(op) << '\n';
    m_out << format("# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          \n",
                    "", "", "", "", "");
    m_out << format("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s %6s  %7s  %6s  %6s %6s\n", "size", "count", "type",
                    "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw", "#wrong");
    m_out << format("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %5s  %7s  %6s  %6s  %5s\n", "(B)", "(elements)", "",
                    "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "");
}

void NcclTableWriter::closeTable()
{
    if (!m_tableOp)
        return;
    m_out << format("# Out of bounds values : %lld %s\n", (long long)m_tableWrong, m_tableWrong ? "FAILED" : "OK");
    m_out << format("# Avg bus bandwidth    : %g \n", m_busbwCount ? m_busbwSum / m_busbwCount : 0.0);
    m_out << "#\n# Collective test concluded: " << perfName(*m_tableOp) << '\n';
    m_tableOp.reset();
}

void NcclTableWriter::writeHalf(const CollectivePoint& p)
{
    m_out << format("  %7s  %6s  %6s  %6g", ncclNumberCell(p.timeUs, 7).c_str(), ncclNumberCell(p.algbwGBs, 6).c_str(),
                    ncclNumberCell(p.busbwGBs, 6).c_str(), double(p.wrong));
    m_tableWrong += p.wrong > 0 ? p.wrong : 0;
    m_busbwSum += p.busbwGBs;
    ++m_busbwCount;
}

void NcclTableWriter::flushRow()
{
    if (!m_rowPlan)
        return;
    const PlannedPoint& p = *m_rowPlan;
    m_out << format("%12lld  %12lld  %8s  %6s  %6d", (long long)p.shape.bytes, (long long)p.shape.count,
                    ncclTypeName(p.dtype), p.redop ? toString(*p.redop) : "none", p.root);
    if (m_outOfPlace)
        writeHalf(*m_outOfPlace);
    else
        m_out << std::string(32, ' '); // in-place only, as nccl-tests leaves the out-of-place cells
    if (m_inPlace)
        writeHalf(*m_inPlace);
    m_out << '\n';
    m_out.flush();
    m_rowPlan.reset();
    m_outOfPlace.reset();
    m_inPlace.reset();
}

void NcclTableWriter::add(const PlannedPoint& planned, const CollectivePoint& point)
{
    if (m_rowPlan && (!sameRow(*m_rowPlan, planned) || planned.inPlace == false))
        flushRow();
    if (m_tableOp != planned.op) {
        closeTable();
        openTable(planned.op);
    }
    m_rowPlan = planned;
    (planned.inPlace ? m_inPlace : m_outOfPlace) = point;
    const bool rowDone = planned.inPlace || m_params.inPlace == InPlaceMode::OutOfPlace;
    if (rowDone)
        flushRow();
}

void NcclTableWriter::finish()
{
    flushRow();
    closeTable();
    m_out.flush();
}
} // namespace rl
