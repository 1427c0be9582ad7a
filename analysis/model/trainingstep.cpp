#include "model/trainingstep.h"

#include "model/attentionkernel.h"
#include "model/shardedschedule.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace rl::model {
namespace {
struct StageTimes
{
    double fwd = 0, total = 0, scoresFwd = 0, qkFwd = 0, launches = 0;
    double fp8CastBytes = 0;       // quantising FP8 GEMM inputs, every micro-batch (Transformer Engine style)
    double fp8WeightCastBytes = 0; // quantising the weights, once per step
};

bool isAttentionScore(const Gemm& g) { return std::strcmp(g.name, "attn_qk") == 0 || std::strcmp(g.name, "attn_av") == 0; }

// `kernel`: the fused attention kernel timing QK^T and PV at `attentionSeq` tokens (null: as GEMMs).
StageTimes timesOf(const GemmSet& set, const DeviceRates& r, const GemmTiming& t, const AttentionKernelRates* kernel,
                   double attentionSeq)
{
    StageTimes s;
    const bool fp8 = t.elemBytes == 1;
    for (const auto& g : set) {
        const bool forward = g.pass == GemmPass::Forward;
        const bool byKernel = kernel && isAttentionScore(g);
        // Decoder training attention is causal (gemmlist.cpp's counts carry the mask).
        auto kernelSeconds = [&](bool backward) {
            return g.flops() / attentionKernelFlops(*kernel, attentionSeq, true, backward);
        };
        const double sec = byKernel ? kernelSeconds(!forward) : gemmSeconds(g, r, t);
        s.total += sec;
        s.launches += std::max(1.0, g.count / std::max(1.0, g.batch));
        if (forward) {
            s.fwd += sec;
            if (isAttentionScore(g))
                s.scoresFwd += sec;
            // Flash backward's recomputed QK^T runs inside the backward kernel, at its rate.
            if (std::strcmp(g.name, "attn_qk") == 0)
                s.qkFwd += byKernel ? kernelSeconds(true) : sec;
        }
        // FP8 operands are cast from BF16 before each GEMM: the input (read 2 B, write 1 B, plus a
        // 1 B transposed copy for the weight gradient) every micro-batch, and the weight (read 2,
        // write 1) once per step: the weights do not change between the micro-batches of a step, and
        // Transformer Engine casts them on the first and keeps the FP8 copy (`is_first_microbatch`,
        // TE user guide, Performance Optimizations: "FP8 weight caching"; Megatron-Core passes it).
        if (fp8 && !g.bf16Only && g.pass != GemmPass::Wgrad) {
            s.fp8CastBytes += g.count * 4 * g.m * g.k;
            if (g.pass == GemmPass::Forward)
                s.fp8WeightCastBytes += g.count * 3 * g.k * g.n;
        }
    }
    return s;
}
} // namespace

double flexCrossNodeShare(int experts, int topK, int epRanks, int ranksPerNode)
{
    const int nodes = (epRanks + std::max(1, ranksPerNode) - 1) / std::max(1, ranksPerNode);
    if (nodes <= 1 || experts <= 0 || topK <= 0 || experts % nodes != 0)
        return 1.0;
    // A token's top-k experts, uniform without replacement (balanced routing): the chance that a
    // given remote node holds none of them is C(E - E/n, k) / C(E, k).
    const double perNode = double(experts) / nodes;
    double none = 1.0;
    for (int i = 0; i < topK; ++i)
        none *= std::max(0.0, experts - perNode - i) / (experts - i);
    const double nodesReached = (nodes - 1) * (1 - none);            // copies sent across, deduplicated
    const double copiesAcross = double(topK) * (nodes - 1) / nodes;  // the all_to_all's
    return copiesAcross > 0 ? std::min(1.0, nodesReached / copiesAcross) : 1.0;
}

ElementwiseBytes elementwiseBytesPerLayer(const ModelConfig& c, const ParallelConfig& p, LayerKind kind)
{
    ElementwiseBytes e;
    const double wb = p.weightBytes;
    const double T = double(p.microBatch) * p.seqLen / p.cp, h = c.dModel, t = p.tp;
    const double seqDiv = p.sequenceParallel ? t : 1; // norms and residuals split over TP only with SP
    // Norms read and write T x h; each residual join reads two and writes one (+ a 1-byte mask
    // each with dropout, Megatron's fused bias-dropout-add).
    e.other += c.normsPerLayer * 2 * wb * T * h / seqDiv;
    e.other += 2 * (3 * wb + (p.dropout ? 1 : 0)) * T * h / seqDiv;
    const double gatedRead = c.mlp == MlpType::SwiGlu ? 2 : 1; // SwiGLU reads gate and up, writes one
    auto act = [&](double tokens, double width) { return (gatedRead + 1) * wb * tokens * width; };
    if (!kind.moe) {
        e.other += act(T, c.mlpWidth / t);
    } else {
        const double etp = p.expertTensorParallel();
        const double routed = T * c.moe.topK * (etp / t); // token copies reaching this GPU's experts
        e.other += act(routed, c.moe.expertWidth / etp);
        if (c.moe.sharedExperts > 0)
            e.other += act(T, double(c.moe.sharedExperts) * c.sharedWidth() / t);
        // Permute before and un-permute (with the top-k weighting) after the experts: read + write.
        e.other += 2 * 2 * wb * routed * h;
        e.other += 2 * wb * T * c.moe.experts / t; // router softmax/top-k over the logits
    }
    if (!p.flashAttention) {
        const int window = kind.sliding ? c.slidingWindow : 0;
        const double keys = window > 0 ? std::min(window, p.seqLen) : p.seqLen;
        const double scores = p.microBatch * (c.heads / t) * (double(p.seqLen) / p.cp) * keys;
        // Fused scale-mask-softmax reads and writes the scores; dropout reads them and writes
        // them and a 1-byte mask.
        e.scores = scores * (2 * wb + (p.dropout ? 2 * wb + 1 : 0));
    }
    return e;
}

double gradAccumBytesPerParam(const ParallelConfig& p)
{
    return p.weightBytes + 2.0 * gradientBytes(p.framework, p.dtype, p.zeroStage, p.gradDtype, p.weightBytes);
}

StageCosts stageCosts(const ModelConfig& c, const ParallelConfig& p, const DeviceRates& r, const GemmTiming& timing)
{
    StageCosts k;
    const double elementwiseBw = r.hbmBytesPerSec * kElementwiseEfficiency;
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
    for (int moe = 0; moe < 2; ++moe)
        for (int sl = 0; sl < 2; ++sl) {
            if (counts[moe][sl] == 0)
                continue;
            GemmSet set;
            const LayerKind kind{moe == 1, sl == 1};
            layerGemms(c, p, kind, true, set);
            // The fused kernel runs per CP chunk, or over the window's keys on a sliding layer.
            const double chunk = double(p.seqLen) / p.cp;
            const double attentionSeq = kind.sliding && c.slidingWindow > 0 ? std::min<double>(c.slidingWindow, chunk) : chunk;
            const auto t = timesOf(set, r, timing, attentionKernelFor(r, c, p), attentionSeq);
            const auto ew = elementwiseBytesPerLayer(c, p, kind);
            const double ewFwd = ew.total() / elementwiseBw;
            // Flash attention's backward recomputes S = QK^T per tile (Dao 2023, FlashAttention-2,
            // Algorithm 2): one more QK^T GEMM, not counted as model FLOPs.
            const double flashBwd = p.flashAttention ? t.qkFwd : 0;
            const double cast = t.fp8CastBytes / elementwiseBw;
            const double extra = p.recompute == Recompute::Full        ? t.fwd + ewFwd
                                 : p.recompute == Recompute::Selective ? t.scoresFwd + ew.scores / elementwiseBw
                                                                       : 0.0;
            const double share = double(counts[moe][sl]) / c.layers;
            const double gemm = t.total + flashBwd + t.launches * kLaunchSeconds;
            k.perLayerGemm += share * gemm;
            k.perLayer += share * (gemm + 3 * ewFwd + cast + extra);
            k.perLayerRecompute += share * extra;
            k.perLayerWeightCast += share * t.fp8WeightCastBytes / elementwiseBw;
            k.perLayerBwd += share * (t.total - t.fwd + flashBwd + 2 * ewFwd + extra);
        }
    GemmSet out;
    outputLayerGemms(c, p, true, out);
    k.headGemm = totalSeconds(out, r, timing);
    k.head = k.headGemm + 3 * 2.0 * p.weightBytes * p.microBatch * p.seqLen / p.cp * double(c.vocab) / p.tp /
                              elementwiseBw; // softmax + CE
    return k;
}

StepEstimate estimateStep(const ModelConfig& c, const ParamCounts& params, const FlopCounts& fwd,
                          const ParallelConfig& p, const DeviceRates& r, const GemmTiming& timing,
                          const CollectiveTimeSource& coll)
{
    return estimateStep(c, params, fwd, p, r, timing, coll, stageCosts(c, p, r, timing));
}

StepEstimate estimateStep(const ModelConfig& c, const ParamCounts& params, const FlopCounts& fwd,
                          const ParallelConfig& p, const DeviceRates& r, const GemmTiming& timing,
                          const CollectiveTimeSource& coll, const StageCosts& k)
{
    StepEstimate e;
    e.defaultEfficiency = timing.measured ? 0 : timing.defaultEfficiency;
    e.measuredGemm = timing.measured != nullptr;
    e.memory = trainingMemory(c, params, p);
    e.memoryCapacity = r.hbmCapacityBytes;
    const double mb = p.effectiveMicroBatches();
    const double streamBw = r.hbmBytesPerSec * kStreamEfficiency;
    // Per micro-batch on one stage; the layer mix of every stage is the model's.
    e.stageLayers = stageLayers(c, p);
    const double lastLayers = lastStageLayers(c, p);
    const double perLayer = k.perLayer, perLayerGemm = k.perLayerGemm, perLayerRecompute = k.perLayerRecompute,
                 perLayerBwd = k.perLayerBwd, perLayerWeightCast = k.perLayerWeightCast, head = k.head;
    // The busiest stage: a middle one, or the last with the LM head.
    const double stage = std::max(e.stageLayers * perLayer, lastLayers * perLayer + head);
    const double stageLayersUsed = stage == e.stageLayers * perLayer ? e.stageLayers : lastLayers;
    e.computeSeconds = stage * mb + stageLayersUsed * perLayerWeightCast;
    e.gemmSeconds = (stageLayersUsed * perLayerGemm + (stage == e.stageLayers * perLayer ? 0 : k.headGemm)) * mb;
    e.recomputeSeconds = stageLayersUsed * perLayerRecompute * mb;
    e.elementwiseSeconds = e.computeSeconds - e.gemmSeconds - e.recomputeSeconds;
    // Interleaved 1F1B: the bubble is (pp-1)/vpp micro-batch stage times (Narayanan et al. 2021, §2.2.2).
    e.bubbleSeconds = stage * (p.pp - 1) / std::max(1, p.vpp);

    // Communication, Megatron rank order tp-cp-ep-dp-pp.
    const int gpn = r.gpusPerNode;
    const double wb = p.weightBytes;
    const double T = double(p.microBatch) * p.seqLen / p.cp;
    const double actBytes = T * c.dModel * wb;
    const double layersOnStage = e.stageLayers;
    const double moeOnStage = c.layers > 0 ? layersOnStage * c.moeLayerCount() / c.layers : 0;
    double dpSeconds = 0, tpSeconds = 0, epSeconds = 0, otherSeconds = 0;
    // A group of `ranks` whose members sit `perNode` to a node: in-node shares move over the link,
    // the rest over the NICs (CollectiveTimeSource::groupTimeUs).
    // Returns the seconds of one call (0 when there is nothing to send).
    auto add = [&](const char* what, CollectiveOp op, double bytes, int ranks, int perNode, double count,
                   double* bucket) -> double {
        if (ranks <= 1 || count <= 0 || bytes <= 0 || e.commCount >= int(e.comm.size()))
            return 0.0;
        perNode = std::clamp(perNode, 1, ranks);
        CommOp& o = e.comm[e.commCount++];
        const double us = coll.groupTimeUs(op, bytes, ranks, perNode);
        o = {what, op, bytes, ranks, perNode < ranks, count, us, coll.isMeasured(op, ranks),
             op == CollectiveOp::AllToAll ? coll.routedImbalance(ranks) : 0.0};
        e.commSeconds += o.totalSeconds();
        *bucket += o.totalSeconds();
        return us * 1e-6;
    };
    // Members of a group `stride` ranks apart that share a node (Megatron's order tp-cp-ep-dp-pp).
    auto perNodeAt = [gpn](int stride) { return std::max(1, gpn / std::max(1, stride)); };
    const double etp = p.expertTensorParallel();
    const double stageFraction = c.layers > 0 ? std::max(e.stageLayers, lastLayers) / c.layers : 1;
    const double denseBytes = params.denseTotal() / p.tp * stageFraction * wb;
    const double expertBytes = params.experts / (etp * p.ep) * stageFraction * wb;
    const int dpRanks = p.dp * p.cp; // Megatron reduces dense gradients over DP x CP, tp ranks apart
    const int edp = p.expertDataParallel();
    const int dpPerNode = perNodeAt(p.tp);
    const int edpPerNode = perNodeAt(int(etp) * p.ep); // expert order etp-ep-edp-pp
    // ZeRO-3's units: each layer is gathered and reduce-scattered in as many calls as the framework
    // makes (one FSDP unit per block; DeepSpeed one per weight matrix), each carrying an even share.
    const ShardingTraits sharding = shardingTraits(p.framework);
    const int shardedUnits = std::max(1, int(std::lround(layersOnStage))) * sharding.callsPerLayer;
    // Gradients reduced in fp32 (Megatron's bf16 buffer, torchtitan's reduce_dtype): twice the bytes.
    const double reduceScale = gradientReduceBytes(p.framework, p.dtype, p.zeroStage, p.gradDtype, p.weightBytes) / wb;
    ShardedUnitTimes unit; // ZeRO-3: one unit's gather and reduce-scatter
    if (p.zeroStage == 0) {
        add("dp grad all_reduce", CollectiveOp::AllReduce, denseBytes * reduceScale, dpRanks, dpPerNode, 1, &dpSeconds);
        add("expert grad all_reduce", CollectiveOp::AllReduce, expertBytes * reduceScale, edp, edpPerNode, 1,
            &dpSeconds);
    } else {
        // ZeRO-1/2 (Megatron's distributed optimizer): gradients accumulate over the micro-batches and
        // are reduce-scattered once; the updated parameters are gathered once. ZeRO-3 (FSDP
        // FULL_SHARD, DeepSpeed stage 3) frees the gathered parameters after use, so every
        // micro-batch gathers them for its forward and again for its backward, and reduce-scatters
        // its gradients: 3Ψ per micro-batch, 1.5x an all_reduce's 2Ψ (Rajbhandari et al. 2020, ZeRO,
        // communication analysis of the parameter partitioning).
        // ZeRO-3 moves them a unit at a time (shardedUnits above), so each call carries one unit's
        // share and is timed at that size.
        const bool full = p.zeroStage == 3;
        const double units = full ? shardedUnits : 1;
        const double moeUnits = full ? std::max(1.0, moeOnStage) * sharding.callsPerLayer : 1;
        // A block kept gathered after its forward (torchtitan's last) needs no gather for its backward:
        // neither its dense weights nor, when the stage has MoE layers (its last taken as one, as in
        // the MoE models torchtitan ships), its experts.
        const double kept = full && sharding.keepsLastLayer ? double(sharding.callsPerLayer) : 0;
        const double keptExperts = moeOnStage >= 1 ? kept : 0;
        const double passes = (full ? mb : 1) * units;
        const double gathers = full ? mb * (2 * units - std::min(kept, units)) : 1;
        const double expertPasses = (full ? mb : 1) * moeUnits;
        const double expertGathers = full ? mb * (2 * moeUnits - std::min(keptExperts, moeUnits)) : 1;
        const double rs = add("dp grad reduce_scatter", CollectiveOp::ReduceScatter, denseBytes / units * reduceScale,
                              dpRanks, dpPerNode, passes, &dpSeconds);
        const double ag = add("dp param all_gather", CollectiveOp::AllGather, denseBytes / units, dpRanks, dpPerNode,
                              gathers, &dpSeconds);
        const double expertRs = add("expert grad reduce_scatter", CollectiveOp::ReduceScatter,
                                    expertBytes / moeUnits * reduceScale, edp, edpPerNode, expertPasses, &dpSeconds);
        const double expertAg = add("expert param all_gather", CollectiveOp::AllGather, expertBytes / moeUnits, edp,
                                    edpPerNode, expertGathers, &dpSeconds);
        // An average unit's calls: its dense share, and its experts' on the MoE share of the layers.
        const double moeShare = moeOnStage * sharding.callsPerLayer / shardedUnits;
        unit.gather = ag + moeShare * expertAg;
        unit.reduceScatter = rs + moeShare * expertRs;
    }
    const double tpPerLayer = p.recompute == Recompute::Full ? 6 : 4; // 2 fwd, 2 bwd, 2 recomputed fwd
    if (p.sequenceParallel) {
        // Selective recompute with SP re-gathers the attention input (Korthikanti et al. 2022, §4.2).
        const double agPerLayer = tpPerLayer + (p.recompute == Recompute::Selective ? 1 : 0);
        add("tp all_gather (SP)", CollectiveOp::AllGather, actBytes, p.tp, gpn, agPerLayer * layersOnStage * mb,
            &tpSeconds);
        add("tp reduce_scatter (SP)", CollectiveOp::ReduceScatter, actBytes, p.tp, gpn, tpPerLayer * layersOnStage * mb,
            &tpSeconds);
    } else {
        add("tp all_reduce", CollectiveOp::AllReduce, actBytes, p.tp, gpn, tpPerLayer * layersOnStage * mb, &tpSeconds);
    }
    // Each TP rank sends 1/tp of the boundary activation (Narayanan et al. 2021, §4.1 scatter/gather;
    // with SP the activation is already split).
    if (p.pp > 1)
        add("pp send_recv", CollectiveOp::SendRecv, actBytes / p.tp, 2, p.tp * p.cp * p.dp >= gpn ? 1 : 2,
            2 * mb * std::max(1, p.vpp), &otherSeconds);
    if (c.isMoe()) {
        // Megatron-Core's all-to-all dispatcher (moe/token_dispatcher.py, MoEAlltoAllTokenDispatcher):
        // each rank sends the top-k copies of its own tokens, the sequence-parallel shard T/tp
        // (Megatron requires SP for MoE with TP), over the EP group; the expert-TP group then
        // all-gathers what arrived (gather_from_sequence_parallel_region over the expert-TP group),
        // and the combine reduce-scatters and sends back. Forward and backward: 4 all_to_alls, 2
        // all_gathers and 2 reduce_scatters per MoE layer. EP neighbours are etp ranks apart when the
        // experts fold over TP (Megatron-Core's etp-ep-edp order), else tp·cp apart (tp-cp-ep-dp):
        // that many fewer of them share a node; an expert-TP group is adjacent ranks.
        const double dispatched = T / p.tp * c.moe.topK * c.dModel * wb;
        const int epStride = p.etp > 0 && p.etp != p.tp ? int(etp) : p.tp * p.cp;
        const int epPerNode = perNodeAt(epStride);
        // DeepEP / HybridEP send a token to a remote node once and forward it inside: the bytes
        // crossing nodes shrink by flexCrossNodeShare (the NIC part dominates the time; the
        // in-node forwarding is taken as scaled with it).
        const double crossShare = p.flexDispatch ? flexCrossNodeShare(c.moe.experts, c.moe.topK, p.ep, epPerNode) : 1.0;
        add(crossShare < 1 ? "ep all_to_all (flex: one copy per node)" : "ep all_to_all", CollectiveOp::AllToAll,
            dispatched * crossShare, p.ep, epPerNode, 4 * moeOnStage * mb, &epSeconds);
        add("etp all_gather (dispatch)", CollectiveOp::AllGather, dispatched * etp, int(etp), gpn,
            2 * moeOnStage * mb, &epSeconds);
        add("etp reduce_scatter (combine)", CollectiveOp::ReduceScatter, dispatched * etp, int(etp), gpn,
            2 * moeOnStage * mb, &epSeconds);
    }
    if (p.cp > 1) {
        const double kvBytes = kvCacheBytes(c, double(p.microBatch) * p.seqLen, int(wb)) / c.layers / p.tp;
        add("cp kv all_gather", CollectiveOp::AllGather, kvBytes, p.cp, perNodeAt(p.tp), layersOnStage * mb,
            &otherSeconds);
        add("cp kv-grad reduce_scatter", CollectiveOp::ReduceScatter, kvBytes, p.cp, perNodeAt(p.tp),
            layersOnStage * mb, &otherSeconds);
    }
    // Exposed communication. DP by default hides behind the last micro-batch's backward on this
    // stage; ZeRO-3's per-layer gathers and reduce-scatters each hide behind one neighbouring
    // layer's compute, as FSDP and DeepSpeed prefetch them (shardedschedule.h); otherwise the
    // stated fractions.
    double dpExposed = 0;
    if (p.dpOverlapFraction() < 0 && p.zeroStage == 3) {
        // Layer by layer, as FSDP and DeepSpeed stage 3 prefetch (model/shardedschedule.h).
        unit.forward = (perLayer - perLayerBwd) / sharding.callsPerLayer;
        unit.backward = perLayerBwd / sharding.callsPerLayer;
        dpExposed = shardedExposure(shardedUnits, mb, unit, sharding.keepsLastLayer).total();
    } else if (p.dpOverlapFraction() < 0) {
        dpExposed = std::max(0.0, dpSeconds - stageLayersUsed * perLayerBwd);
    } else {
        dpExposed = dpSeconds * (1 - p.dpOverlapFraction());
    }
    const double otherOverlap = p.overlap >= 0 ? p.overlap : 0;
    // With EP overlap the dispatch/combine of one micro-batch hides under another's compute: the
    // first forward and the last backward have no partner, so (m-1)/m of the stage's compute can
    // cover it, nothing with a single micro-batch.
    const double epWindow = e.computeSeconds * (mb - 1) / mb;
    const double epExposed = p.epOverlap ? std::max(0.0, epSeconds - epWindow) : epSeconds * (1 - otherOverlap);
    e.exposedDpSeconds = dpExposed;
    e.exposedTpSeconds = tpSeconds * (1 - p.tpOverlapFraction());
    e.exposedEpSeconds = epExposed;
    e.exposedOtherSeconds = otherSeconds * (1 - otherOverlap);
    e.exposedCommSeconds = dpExposed + e.exposedTpSeconds + epExposed + e.exposedOtherSeconds;
    // Mixed-precision Adam once per step over this GPU's (ZeRO-sharded) parameters: reads fp32
    // grads, master weights, m and v, writes the last three and the bf16 weights.
    const double localParams = e.memory.optimizer / 12;
    e.optimizerSeconds = localParams * kAdamBytesPerParam / streamBw;
    if (!p.gradAccumulationFusion)
        e.gradAccumulationSeconds = e.memory.params * gradAccumBytesPerParam(p) / streamBw * mb;
    e.stepSeconds = e.computeSeconds + e.bubbleSeconds + e.exposedCommSeconds + e.optimizerSeconds +
                    e.gradAccumulationSeconds;

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
