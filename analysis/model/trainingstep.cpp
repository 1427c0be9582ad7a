#include "model/trainingstep.h"

#include <cstring>

namespace rl::model {
namespace {
struct StageTimes
{
    double fwd = 0, total = 0, scoresFwd = 0;
};

StageTimes timesOf(const GemmSet& set, const DeviceRates& r, const GemmTiming& t)
{
    StageTimes s;
    for (const auto& g : set) {
        const double sec = gemmSeconds(g, r, t);
        s.total += sec;
        if (g.pass == GemmPass::Forward) {
            s.fwd += sec;
            if (std::strncmp(g.name, "attn_", 5) == 0 && g.name[5] != 'o')
                s.scoresFwd += sec;
        }
    }
    return s;
}
} // namespace

StepEstimate estimateStep(const ModelConfig& c, const ParamCounts& params, const FlopCounts& fwd,
                          const ParallelConfig& p, const DeviceRates& r, const GemmTiming& timing,
                          const CollectiveTimeSource& coll)
{
    StepEstimate e;
    e.defaultEfficiency = timing.defaultEfficiency;
    e.measuredGemm = timing.measured != nullptr;
    e.memory = trainingMemory(c, params, p);
    const double mb = p.effectiveMicroBatches();

    int counts[2][2] = {{0, 0}, {0, 0}}; // [moe][sliding]
    if (c.slidingWindow <= 0 || !c.isMoe()) {
        const int moe = c.moeLayerCount(), sliding = c.slidingLayerCount();
        counts[1][0] = moe;
        counts[0][1] = sliding;
        counts[0][0] = c.layers - moe - sliding;
    } else {
        for (int i = 0; i < c.layers; ++i)
            ++counts[c.isMoeLayer(i)][c.isSlidingLayer(i)];
    }
    double stage = 0, recompute = 0;
    for (int moe = 0; moe < 2; ++moe)
        for (int sl = 0; sl < 2; ++sl) {
            if (counts[moe][sl] == 0)
                continue;
            GemmSet set;
            layerGemms(c, p, {moe == 1, sl == 1}, true, set);
            const auto t = timesOf(set, r, timing);
            const double layersOnStage = double(counts[moe][sl]) / p.pp;
            const double extra = p.recompute == Recompute::Full        ? t.fwd
                                 : p.recompute == Recompute::Selective ? t.scoresFwd
                                                                       : 0.0;
            stage += layersOnStage * (t.total + extra);
            recompute += layersOnStage * extra;
        }
    GemmSet out;
    outputLayerGemms(c, p, true, out);
    stage += totalSeconds(out, r, timing); // the last stage carries the LM head
    e.computeSeconds = stage * mb;
    e.recomputeSeconds = recompute * mb;
    e.bubbleSeconds = stage * (p.pp - 1);

    // Communication, Megatron rank order tp-cp-ep-dp-pp.
    const int gpn = r.gpusPerNode;
    const double wb = p.weightBytes;
    const double T = double(p.microBatch) * p.seqLen / p.cp;
    const double actBytes = T * c.dModel * wb;
    const double layersOnStage = double(c.layers) / p.pp;
    const double moeOnStage = double(c.moeLayerCount()) / p.pp;
    auto add = [&](const char* what, CollectiveOp op, double bytes, int ranks, bool cross, double count) {
        if (ranks <= 1 || count <= 0 || bytes <= 0 || e.commCount >= int(e.comm.size()))
            return;
        CommOp& o = e.comm[e.commCount++];
        o = {what, op, bytes, ranks, cross, count, coll.timeUs(op, bytes, ranks, cross), coll.isMeasured(op, ranks)};
        e.commSeconds += o.totalSeconds();
    };
    const double denseBytes = params.denseTotal() / (double(p.tp) * p.pp) * wb;
    const double expertBytes = params.experts / (double(p.tp) * p.pp * p.ep) * wb;
    const bool dpCross = p.tp * p.cp * p.dp > gpn;
    const bool edpCross = p.tp * p.cp * p.dp > gpn && p.tp * p.cp * p.ep * p.expertDataParallel() > gpn;
    if (p.zeroStage == 0) {
        add("dp grad all_reduce", CollectiveOp::AllReduce, denseBytes, p.dp, dpCross, 1);
        add("expert grad all_reduce", CollectiveOp::AllReduce, expertBytes, p.expertDataParallel(), edpCross, 1);
    } else {
        add("dp grad reduce_scatter", CollectiveOp::ReduceScatter, denseBytes, p.dp, dpCross, 1);
        add("dp param all_gather", CollectiveOp::AllGather, denseBytes, p.dp, dpCross, p.zeroStage == 3 ? 2 : 1);
        add("expert grad reduce_scatter", CollectiveOp::ReduceScatter, expertBytes, p.expertDataParallel(), edpCross, 1);
        add("expert param all_gather", CollectiveOp::AllGather, expertBytes, p.expertDataParallel(), edpCross,
            p.zeroStage == 3 ? 2 : 1);
    }
    const double tpPerLayer = p.recompute == Recompute::Full ? 6 : 4; // 2 fwd, 2 bwd, 2 recomputed fwd
    if (p.sequenceParallel) {
        add("tp all_gather (SP)", CollectiveOp::AllGather, actBytes, p.tp, p.tp > gpn, tpPerLayer * layersOnStage * mb);
        add("tp reduce_scatter (SP)", CollectiveOp::ReduceScatter, actBytes, p.tp, p.tp > gpn,
            tpPerLayer * layersOnStage * mb);
    } else {
        add("tp all_reduce", CollectiveOp::AllReduce, actBytes, p.tp, p.tp > gpn, tpPerLayer * layersOnStage * mb);
    }
    if (p.pp > 1)
        add("pp send_recv", CollectiveOp::SendRecv, actBytes / (p.sequenceParallel ? p.tp : 1), 2,
            p.tp * p.cp * p.dp >= gpn, 2 * mb);
    if (c.isMoe())
        add("ep all_to_all", CollectiveOp::AllToAll, T * c.moe.topK * c.dModel * wb, p.ep, p.tp * p.cp * p.ep > gpn,
            4 * moeOnStage * mb);
    if (p.cp > 1) {
        const double kvBytes = kvCacheBytes(c, double(p.microBatch) * p.seqLen, int(wb)) / c.layers / p.tp;
        add("cp kv all_gather", CollectiveOp::AllGather, kvBytes, p.cp, p.tp * p.cp > gpn, layersOnStage * mb);
        add("cp kv-grad reduce_scatter", CollectiveOp::ReduceScatter, kvBytes, p.cp, p.tp * p.cp > gpn,
            layersOnStage * mb);
    }
    e.exposedCommSeconds = e.commSeconds * (1 - p.overlap);
    e.stepSeconds = e.computeSeconds + e.bubbleSeconds + e.exposedCommSeconds;

    e.tokensPerStep = p.tokensPerStep();
    const auto tf = trainingFlopsPerToken(fwd, p.recompute);
    const double world = p.worldSize();
    if (e.stepSeconds > 0) {
        e.tokensPerSecond = e.tokensPerStep / e.stepSeconds;
        const double perGpu = tf.model * e.tokensPerStep / e.stepSeconds / world;
        e.modelTflopsPerGpu = perGpu / 1e12;
        e.mfu = perGpu / r.peakFlops;
        e.mfuMaxAchievable = perGpu / r.maxAchievableFlops;
        e.hfu = tf.hardware * e.tokensPerStep / e.stepSeconds / world / r.peakFlops;
    }
    return e;
}
} // namespace rl::model
