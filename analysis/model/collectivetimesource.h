#pragma once
// Time of one collective call of `bytes` (nccl-tests "size": the full buffer) over `ranks` GPUs.
// Measured alpha-beta fits win when one exists for that op and rank count; otherwise the
// profile's link figures with nccl-tests' bus factors: t = latency + bytes·busFactor / busbw.
#include <map>
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
    virtual bool isMeasured(CollectiveOp, int) const { return false; }
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

private:
    DeviceRates m_rates;
    double m_intraUs, m_interUs;
};

class MeasuredCollectiveTime : public CollectiveTimeSource
{
public:
    explicit MeasuredCollectiveTime(const CollectiveTimeSource* fallback) : m_fallback(fallback) {}
    void addFit(CollectiveOp op, int ranks, const fits::AlphaBeta& fit) { m_fits[{op, ranks}] = fit; }
    std::size_t size() const { return m_fits.size(); }
    double timeUs(CollectiveOp op, double bytes, int ranks, bool crossNode) const override;
    bool isMeasured(CollectiveOp op, int ranks) const override { return m_fits.count({op, ranks}) > 0; }

private:
    std::map<std::pair<CollectiveOp, int>, fits::AlphaBeta> m_fits;
    const CollectiveTimeSource* m_fallback;
};
} // namespace rl::model
