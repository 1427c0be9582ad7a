#pragma once
// Calibration of the sizing model from a workspace: one alpha-beta fit per (op, rank count) over
// the out-of-place points of every collective session (in-place when a session has only those).
// Later sessions replace earlier fits of the same (op, ranks); all_to_allv fits are kept per routing
// imbalance, for the MoE dispatch (MeasuredCollectiveTime).
#include <memory>

#include "model/collectivetimesource.h"

namespace rl::store {
class Workspace;
}

namespace rl::model {

class StoreCalibration
{
public:
    explicit StoreCalibration(store::Workspace& ws);
    // The measured source; ops without a fit fall back to `fallback` (may be null).
    std::unique_ptr<MeasuredCollectiveTime> collectiveSource(const CollectiveTimeSource* fallback) const;
    std::size_t fitCount() const { return m_fits.size(); }

private:
    struct Entry
    {
        CollectiveOp op;
        int ranks;
        fits::AlphaBeta fit;
        double imbalance = 1.0; // all_to_allv: max/mean load of the session's routing
    };
    std::vector<Entry> m_fits;
};
} // namespace rl::model
