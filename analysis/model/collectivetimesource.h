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
    // An all_to_all whose `ranks` sit `ranksPerNode` to a node: the share for peers in the node
    // moves over the scale-up link while the rest crosses the NICs, at the same time. The default
    // knows only whether it crosses nodes.
    virtual double allToAllTimeUs(double bytes, int ranks, int ranksPerNode) const
    {
        return timeUs(CollectiveOp::AllToAll, bytes, ranks, ranksPerNode < ranks);
    }
    virtual bool isMeasured(CollectiveOp, int) const { return false; }
    // > 0: an all_to_all over `ranks` is timed by a measured all_to_allv at this imbalance.
    virtual double routedImbalance(int) const { return 0; }
};

// Achieved fraction of the scale-up link for ring collectives: the bundled nccl-tests of 8xH100
// (sample_data/nccl-tests_8xH100_all_collectives.txt) reach 358 of 450 GB/s busbw for all_gather
// and reduce_scatter at 1 GiB (all_reduce more with NVLS).
inline constexpr double kIntraLinkEfficiency = 0.8;
// Ring collectives across nodes run one ring per NIC; their busbw is about half the node's NIC
// bandwidth per GPU x GPUs per node: the bundled 2- and 4-node 16/32xH100 all_reduce runs
// (8 x 400 Gb/s per node) reach 190 and 185 GB/s busbw, 0.47 of 8 x 50 GB/s.
inline constexpr double kInterRingFraction = 0.47;

class ProfileCollectiveTime : public CollectiveTimeSource
{
public:
    // Latencies are typical ring-algorithm small-message figures, stated in the report.
    // Scale-up: bus bandwidth = link x kIntraLinkEfficiency. Scale-out: ring collectives at
    // kInterRingFraction x NIC per GPU x GPUs per node (capped by the link), all_to_all and
    // send_recv at the GPU's own NIC bandwidth.
    explicit ProfileCollectiveTime(const DeviceRates& r, double intraLatencyUs = 10, double interLatencyUs = 25)
        : m_rates(r), m_intraUs(intraLatencyUs), m_interUs(interLatencyUs)
    {
    }
    double timeUs(CollectiveOp op, double bytes, int ranks, bool crossNode) const override;
    double allToAllTimeUs(double bytes, int ranks, int ranksPerNode) const override;

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
    double allToAllTimeUs(double bytes, int ranks, int ranksPerNode) const override;
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
