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

class ProfileCollectiveTime : public CollectiveTimeSource
{
public:
    // Latencies are typical ring-algorithm small-message figures, stated in the report.
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
