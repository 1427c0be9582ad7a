#pragma once
// Time of one collective call of `bytes` (nccl-tests "size": the full buffer) over `ranks` GPUs.
// Measured alpha-beta fits win when one exists for that op and rank count; otherwise the
// profile's link figures with nccl-tests' bus factors: t = latency + bytes·busFactor / busbw.
#include <cmath>
#include <limits>
#include <map>
#include <vector>
#include <utility>

#include "collectives/collectiveop.h"
#include "fits/alphabetafit.h"
#include "model/devicerates.h"

namespace rl::model {

class CollectiveTimeSource
{
public:
    virtual ~CollectiveTimeSource() = default;
    virtual double timeUs(CollectiveOp op, double bytes, int ranks, bool crossNode) const = 0;
    // A collective over a group whose `ranks` sit `ranksPerNode` to a node (the parallel layout
    // says how many): the profile splits it into what moves over the scale-up link and what
    // crosses the NICs. The default knows only whether it crosses nodes.
    virtual double groupTimeUs(CollectiveOp op, double bytes, int ranks, int ranksPerNode) const
    {
        return timeUs(op, bytes, ranks, ranksPerNode < ranks);
    }
    virtual bool isMeasured(CollectiveOp, int) const { return false; }
    // > 0: an all_to_all over `ranks` is timed by a measured all_to_allv at this imbalance.
    virtual double routedImbalance(int) const { return 0; }
};

// Achieved fraction of the scale-up link for ring collectives: an 8x H200 node (NVLink 4 through
// NVSwitch, as on H100) reaches 367.61 of 450 GB/s all_reduce busbw at 16 GiB with NVLS off, and
// 8x B200 740.64 of 900 GB/s at 4 GiB: 82 % both (stas00/ml-engineering,
// network/benchmarks/results/all-reduce-8xH200.md and network/README.md, "Inter-node speed
// depends on intra-node speed").
inline constexpr double kIntraLinkEfficiency = 0.82;
// What each GPU's NIC moves in NCCL's cross-node collectives, against its line rate: 4 nodes of
// 8x B200 with 8x 50 GB/s EFA each reach 377.34 GB/s all_reduce busbw at 4 GiB over 32 ranks. In
// NCCL's hierarchical all_reduce each GPU's NIC carries 2(k-1)/k of the payload / 8 (0.75 GiB) in
// the 22.05 ms it takes: 36.5 GB/s, 73 % of 50 (same source and section; 4 nodes of 8x H200 give
// 369.06 GB/s, the same within 3 %). A floor: the in-node phases overlap it.
inline constexpr double kNicEfficiency = 0.73;

// NCCL's own latency model for a ring all_gather or reduce_scatter across nodes (the only algorithm
// NCCL has for them with several GPUs per node: PAT serves one GPU per node; src/graph/tuning.cc,
// ncclTopoTuneModel): the ring's n-1 steps each wait one hop, k-1 of them across the network and the
// rest over NVLink, Simple protocol (the one it picks for the megabyte buffers that cost): base
// 8.4 µs, an NVLink hop 3.4 µs, a network hop 14 µs (its default tuner constants). A call over 1,536
// ranks on 192 nodes waits 7.2 ms however small its buffer: what a fully sharded step pays per layer.
inline constexpr double kRingBaseLatencyUs = 8.4, kRingNvlinkHopUs = 3.4, kRingNetHopUs = 14.0;
double ringLatencyUs(int ranks, int ranksPerNode);

class ProfileCollectiveTime : public CollectiveTimeSource
{
public:
    // Latencies are typical ring-algorithm small-message figures, stated in the report.
    // Scale-up: bus bandwidth = link x kIntraLinkEfficiency. Across nodes, as NCCL runs them:
    // all_reduce, all_gather and reduce_scatter hierarchically (in-node over the link, the 1/g
    // shard across the k nodes over every GPU's NIC at once, the slower of the two); all_to_all
    // splits its peers' shares between link and NIC; send_recv and the rest use the GPU's own
    // NIC. NICs at kNicEfficiency of their line rate.
    explicit ProfileCollectiveTime(const DeviceRates& r, double intraLatencyUs = 10, double interLatencyUs = 25)
        : m_rates(r), m_intraUs(intraLatencyUs), m_interUs(interLatencyUs)
    {
    }
    // crossNode without the layout: the group fills whole nodes (or half of itself per node).
    double timeUs(CollectiveOp op, double bytes, int ranks, bool crossNode) const override;
    double groupTimeUs(CollectiveOp op, double bytes, int ranks, int ranksPerNode) const override;

private:
    DeviceRates m_rates;
    double m_intraUs, m_interUs;
};

// An MoE's expert dispatch/combine is an all_to_all whose per-pair bytes follow the router: the
// measured all_to_allv curve at the routing's imbalance (max/mean rank load) times it best, the
// balanced all_to_all next, the profile last.
class MeasuredCollectiveTime : public CollectiveTimeSource
{
public:
    explicit MeasuredCollectiveTime(const CollectiveTimeSource* fallback) : m_fallback(fallback) {}
    // `imbalance` (max/mean load of the run's routing) for all_to_allv fits; a later fit of the same
    // op, ranks (and imbalance) replaces an earlier one.
    void addFit(CollectiveOp op, int ranks, const fits::AlphaBeta& fit, double imbalance = 1.0);
    // The imbalance the model's all_to_all should be timed at: the all_to_allv fit closest to it
    // (a balanced all_to_all fit counts as 1.0). Unset (NaN): the measured routing, i.e. an
    // all_to_allv fit when one is stored.
    void setAllToAllImbalance(double imbalance) { m_imbalance = imbalance; }
    std::size_t size() const { return m_fits.size() + m_routed.size(); }
    double timeUs(CollectiveOp op, double bytes, int ranks, bool crossNode) const override;
    // A measured fit over `ranks` already holds its placement; without one, the fallback splits.
    double groupTimeUs(CollectiveOp op, double bytes, int ranks, int ranksPerNode) const override;
    bool isMeasured(CollectiveOp op, int ranks) const override { return fitFor(op, ranks) != nullptr; }
    // The imbalance of the all_to_allv fit that times an all_to_all over `ranks`; 0 when none does.
    double routedImbalance(int ranks) const override;

private:
    struct Routed
    {
        int ranks;
        double imbalance;
        fits::AlphaBeta fit;
    };
    const fits::AlphaBeta* fitFor(CollectiveOp op, int ranks) const;
    const Routed* routedFor(int ranks) const;
    std::map<std::pair<CollectiveOp, int>, fits::AlphaBeta> m_fits;
    std::vector<Routed> m_routed; // all_to_allv fits, in the order added
    double m_imbalance = std::numeric_limits<double>::quiet_NaN();
    const CollectiveTimeSource* m_fallback;
};
} // namespace rl::model
