#pragma once
// Calibration of the sizing model from a workspace: one alpha-beta fit per (op, rank count) over
// the out-of-place points of every collective session (in-place when a session has only those).
// Later sessions replace earlier fits of the same (op, ranks); all_to_allv fits are kept per routing
// imbalance, for the MoE dispatch (MeasuredCollectiveTime). Each fit remembers its session, so a
// prediction can say which measurement timed which collective.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/collectivetimesource.h"

namespace rl::store {
class Workspace;
}

namespace rl::model {

// A stored session a calibration figure came from.
struct CalibrationSession
{
    std::int64_t id = 0;
    std::string title;
};
// "session 3 (nccl-tests 8xH100)": how a figure names the measurement it came from.
std::string basisLabel(const CalibrationSession& s);

class StoreCalibration
{
public:
    // Every collective session of the workspace (ridgeline-cli --calibrate).
    explicit StoreCalibration(store::Workspace& ws);
    // Only these sessions, fitted in the order given (a later one replaces an earlier fit of the same
    // op and ranks). Throws std::invalid_argument naming a session that is missing or not a
    // collective benchmark.
    StoreCalibration(store::Workspace& ws, const std::vector<std::int64_t>& sessionIds);
    // The measured source; ops without a fit fall back to `fallback` (may be null).
    std::unique_ptr<MeasuredCollectiveTime> collectiveSource(const CollectiveTimeSource* fallback) const;
    std::size_t fitCount() const { return m_fits.size(); }
    // The sessions read, in fitting order (also those that gave no usable fit).
    const std::vector<CalibrationSession>& sessions() const { return m_sessions; }
    // The session whose fit times `op` over `ranks`, or null; routedImbalance > 0 (CommOp's): the
    // all_to_allv fit of that routing imbalance that timed an all_to_all.
    const CalibrationSession* sessionFor(CollectiveOp op, int ranks, double routedImbalance = 0) const;
    // "all_reduce, all_gather over 8 GPUs; all_reduce over 16 GPUs": what one session's fits cover.
    std::string coverage(std::int64_t sessionId) const;

private:
    void fitSession(store::Workspace& ws, const CalibrationSession& s);
    struct Entry
    {
        CollectiveOp op;
        int ranks;
        fits::AlphaBeta fit;
        double imbalance = 1.0; // all_to_allv: max/mean load of the session's routing
        std::size_t session = 0; // index into m_sessions
    };
    std::vector<Entry> m_fits;
    std::vector<CalibrationSession> m_sessions;
};
} // namespace rl::model
