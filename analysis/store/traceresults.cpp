#include "store/traceresults.h"

#include <cmath>

namespace rl::store {
namespace {
Statement& bindOpt(Statement& q, int i, double v) { return std::isnan(v) ? q.bindNull(i) : q.bind(i, v); }
double optReal(const Statement& q, int col) { return q.isNull(col) ? kNoValue : q.real(col); }
} // namespace

void insertTraceRecords(Database& db, std::int64_t id, const SessionData& data)
{
    if (!data.steps.empty()) {
        Statement q(db, "INSERT INTO trace_steps (session_id, rank, step, start_us, step_us, gemm_us, attention_us, "
                        "comm_us, memcpy_us, other_us, compute_busy_us, comm_busy_us, overlap_us, exposed_comm_us, "
                        "gpu_busy_us, idle_us, kernel_count) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
        for (const auto& s : data.steps) {
            q.bind(1, id).bind(2, s.rank).bind(3, s.step).bind(4, s.startUs).bind(5, s.stepUs).bind(6, s.gemmUs);
            q.bind(7, s.attentionUs).bind(8, s.communicationUs).bind(9, s.memcpyUs).bind(10, s.otherUs);
            q.bind(11, s.computeBusyUs).bind(12, s.communicationBusyUs).bind(13, s.overlapUs);
            q.bind(14, s.exposedCommUs).bind(15, s.gpuBusyUs).bind(16, s.idleUs).bind(17, s.kernelCount);
            q.run();
        }
    }
    if (!data.kernelStats.empty()) {
        Statement q(db, "INSERT INTO trace_kernels (session_id, rank, name, class, count, total_us, min_us, max_us, "
                        "share, flops, bytes) VALUES (?,?,?,?,?,?,?,?,?,?,?)");
        for (const auto& k : data.kernelStats) {
            q.bind(1, id).bind(2, k.rank).bind(3, k.name).bind(4, toString(k.kernelClass)).bind(5, k.count);
            q.bind(6, k.totalUs).bind(7, k.minUs).bind(8, k.maxUs).bind(9, k.share).bind(10, k.flops).bind(11, k.bytes);
            q.run();
        }
    }
    if (!data.traceCollectives.empty()) {
        Statement q(db, "INSERT INTO trace_collectives (session_id, rank, op, dtype, nranks, bytes, count, total_us, "
                        "min_us, algbw, busbw, best_busbw) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)");
        for (const auto& c : data.traceCollectives) {
            q.bind(1, id).bind(2, c.rank).bind(3, c.op).bind(4, c.dtype).bind(5, c.nranks).bind(6, c.bytes);
            q.bind(7, c.count).bind(8, c.totalUs).bind(9, c.minUs).bind(10, c.algbwGBs).bind(11, c.busbwGBs);
            q.bind(12, c.bestBusbwGBs);
            q.run();
        }
    }
    if (!data.timeline.empty()) {
        Statement q(db, "INSERT INTO trace_timeline (session_id, rank, step, stream, name, class, start_us, dur_us) "
                        "VALUES (?,?,?,?,?,?,?,?)");
        for (const auto& e : data.timeline) {
            q.bind(1, id).bind(2, e.rank).bind(3, e.step).bind(4, e.stream).bind(5, e.name);
            q.bind(6, toString(e.kernelClass)).bind(7, e.startUs).bind(8, e.durUs);
            q.run();
        }
    }
    if (!data.trainSteps.empty()) {
        Statement q(db, "INSERT INTO train_steps (session_id, step, loss, step_time_ms, tokens_per_s, tflops, mfu, "
                        "wall_s, lr, grad_norm, skipped, nan_count, covered, segment, redone, line) "
                        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
        for (const auto& s : data.trainSteps) {
            q.bind(1, id).bind(2, s.step);
            bindOpt(q, 3, s.loss);
            bindOpt(q, 4, s.stepTimeMs);
            bindOpt(q, 5, s.tokensPerSec);
            bindOpt(q, 6, s.tflopsPerGpu);
            bindOpt(q, 7, s.mfu);
            bindOpt(q, 8, s.wallTimeS);
            bindOpt(q, 9, s.learningRate);
            bindOpt(q, 10, s.gradNorm);
            q.bind(11, s.skippedIterations).bind(12, s.nanIterations).bind(13, s.iterationsCovered);
            q.bind(14, s.segment).bind(15, s.redone ? 1 : 0).bind(16, s.line);
            q.run();
        }
    }
    if (!data.trainEvents.empty()) {
        Statement q(db, "INSERT INTO train_events (session_id, kind, step, wall_s, lost_s, message, line) "
                        "VALUES (?,?,?,?,?,?,?)");
        for (const auto& e : data.trainEvents) {
            q.bind(1, id).bind(2, toString(e.kind)).bind(3, e.step);
            bindOpt(q, 4, e.wallTimeS);
            q.bind(5, e.lostS).bind(6, e.message).bind(7, e.line);
            q.run();
        }
    }
}

std::vector<StepBreakdown> stepBreakdowns(Database& db, std::int64_t id)
{
    Statement q(db, "SELECT rank, step, start_us, step_us, gemm_us, attention_us, comm_us, memcpy_us, other_us, "
                    "compute_busy_us, comm_busy_us, overlap_us, exposed_comm_us, gpu_busy_us, idle_us, kernel_count "
                    "FROM trace_steps WHERE session_id = ? ORDER BY rank, step");
    q.bind(1, id);
    std::vector<StepBreakdown> out;
    while (q.step()) {
        StepBreakdown s;
        s.rank = static_cast<int>(q.int64(0));
        s.step = q.int64(1);
        s.startUs = q.real(2);
        s.stepUs = q.real(3);
        s.gemmUs = q.real(4);
        s.attentionUs = q.real(5);
        s.communicationUs = q.real(6);
        s.memcpyUs = q.real(7);
        s.otherUs = q.real(8);
        s.computeBusyUs = q.real(9);
        s.communicationBusyUs = q.real(10);
        s.overlapUs = q.real(11);
        s.exposedCommUs = q.real(12);
        s.gpuBusyUs = q.real(13);
        s.idleUs = q.real(14);
        s.kernelCount = q.int64(15);
        out.push_back(s);
    }
    return out;
}

std::vector<KernelStat> kernelStats(Database& db, std::int64_t id, int rank, int limit)
{
    Statement q(db, "SELECT rank, name, class, count, total_us, min_us, max_us, share, flops, bytes FROM trace_kernels "
                    "WHERE session_id = ?1 AND (?2 < 0 OR rank = ?2) ORDER BY total_us DESC, name LIMIT ?3");
    q.bind(1, id).bind(2, rank).bind(3, limit > 0 ? std::int64_t(limit) : std::int64_t(-1));
    std::vector<KernelStat> out;
    while (q.step()) {
        KernelStat k;
        k.rank = static_cast<int>(q.int64(0));
        k.name = q.text(1);
        kernelClassFromString(q.text(2), k.kernelClass);
        k.count = q.int64(3);
        k.totalUs = q.real(4);
        k.minUs = q.real(5);
        k.maxUs = q.real(6);
        k.share = q.real(7);
        k.flops = q.real(8);
        k.bytes = q.real(9);
        out.push_back(std::move(k));
    }
    return out;
}

std::vector<TimelineEvent> traceTimeline(Database& db, std::int64_t id, int rank)
{
    Statement q(db, "SELECT rank, step, stream, name, class, start_us, dur_us FROM trace_timeline "
                    "WHERE session_id = ?1 AND (?2 < 0 OR rank = ?2) ORDER BY rank, start_us, id");
    q.bind(1, id).bind(2, rank);
    std::vector<TimelineEvent> out;
    while (q.step()) {
        TimelineEvent e;
        e.rank = static_cast<int>(q.int64(0));
        e.step = q.int64(1);
        e.stream = static_cast<int>(q.int64(2));
        e.name = q.text(3);
        kernelClassFromString(q.text(4), e.kernelClass);
        e.startUs = q.real(5);
        e.durUs = q.real(6);
        out.push_back(std::move(e));
    }
    return out;
}

std::vector<TraceCollective> traceCollectives(Database& db, std::int64_t id)
{
    Statement q(db, "SELECT rank, op, dtype, nranks, bytes, count, total_us, min_us, algbw, busbw, best_busbw "
                    "FROM trace_collectives WHERE session_id = ? ORDER BY rank, op, bytes");
    q.bind(1, id);
    std::vector<TraceCollective> out;
    while (q.step()) {
        TraceCollective c;
        c.rank = static_cast<int>(q.int64(0));
        c.op = q.text(1);
        c.dtype = q.text(2);
        c.nranks = static_cast<int>(q.int64(3));
        c.bytes = q.int64(4);
        c.count = q.int64(5);
        c.totalUs = q.real(6);
        c.minUs = q.real(7);
        c.algbwGBs = q.real(8);
        c.busbwGBs = q.real(9);
        c.bestBusbwGBs = q.real(10);
        out.push_back(std::move(c));
    }
    return out;
}

std::vector<TrainStep> trainSteps(Database& db, std::int64_t id)
{
    Statement q(db, "SELECT step, loss, step_time_ms, tokens_per_s, tflops, mfu, wall_s, lr, grad_norm, skipped, "
                    "nan_count, covered, segment, redone, line FROM train_steps WHERE session_id = ? ORDER BY id");
    q.bind(1, id);
    std::vector<TrainStep> out;
    while (q.step()) {
        TrainStep s;
        s.step = q.int64(0);
        s.loss = optReal(q, 1);
        s.stepTimeMs = optReal(q, 2);
        s.tokensPerSec = optReal(q, 3);
        s.tflopsPerGpu = optReal(q, 4);
        s.mfu = optReal(q, 5);
        s.wallTimeS = optReal(q, 6);
        s.learningRate = optReal(q, 7);
        s.gradNorm = optReal(q, 8);
        s.skippedIterations = q.int64(9);
        s.nanIterations = q.int64(10);
        s.iterationsCovered = q.int64(11);
        s.segment = static_cast<int>(q.int64(12));
        s.redone = q.int64(13) != 0;
        s.line = q.int64(14);
        out.push_back(s);
    }
    return out;
}

std::vector<TrainEvent> trainEvents(Database& db, std::int64_t id)
{
    Statement q(db, "SELECT kind, step, wall_s, lost_s, message, line FROM train_events WHERE session_id = ? ORDER BY id");
    q.bind(1, id);
    std::vector<TrainEvent> out;
    while (q.step()) {
        TrainEvent e;
        const std::string kind = q.text(0);
        for (auto k : {TrainEventKind::Restart, TrainEventKind::TimeGap, TrainEventKind::Stall, TrainEventKind::Skipped,
                       TrainEventKind::NanLoss})
            if (kind == toString(k))
                e.kind = k;
        e.step = q.int64(1);
        e.wallTimeS = optReal(q, 2);
        e.lostS = q.real(3);
        e.message = q.text(4);
        e.line = q.int64(5);
        out.push_back(std::move(e));
    }
    return out;
}
} // namespace rl::store
