#pragma once
// The sizing model's calibration, assembled in one place for the CLI (--calibrate, --collectives,
// --gemm-session, --moe-imbalance) and the GUI's Calibration picker: a device's rates, optionally
// measured collective sessions (StoreCalibration) and a measured GEMM sweep, and for every figure
// source where it came from: "datasheet", "default" or "session N (title)".
//
// A Calibration reads the store once (the fits take a moment: build it off the GUI thread) and is
// then read-only, so one instance can be shared across threads; CalibratedSources binds it to one
// device for one evaluation.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/collectivetimesource.h"
#include "model/devicerates.h"
#include "model/gemmefficiencysource.h"
#include "model/gemmlist.h"
#include "model/storecalibration.h"

namespace rl::store {
class Workspace;
}

namespace rl::model {
struct StepEstimate;

// What to calibrate from.
struct CalibrationChoice
{
    bool allCollectiveSessions = false;           // every collective session of the workspace
    std::vector<std::int64_t> collectiveSessions; // these (e.g. one per network tier), in this order
    std::int64_t gemmSession = 0;                 // a stored GEMM sweep; 0: GEMM efficiency by shape
    double moeImbalance = 0;                      // all_to_allv routing imbalance; 0: the newest stored
    double flatEfficiency = 0;                    // a flat GEMM efficiency for unmeasured shapes; 0: by shape
    bool measuresCollectives() const { return allCollectiveSessions || !collectiveSessions.empty(); }
    bool readsStore() const { return measuresCollectives() || gemmSession > 0; }
};

// The measured GEMM efficiencies of a stored GEMM sweep; throws std::runtime_error when the session
// has no GEMM points with an efficiency.
MeasuredGemmEfficiency storedGemmEfficiency(store::Workspace& ws, std::int64_t session);

// Where one figure source of a prediction comes from.
struct FigureBasis
{
    std::string figure; // "max achievable TFLOP/s", "collectives", "GEMM efficiency", ...
    std::string basis;  // "datasheet", "default", "command line" or "session N (title)"
    std::string detail; // the cited source, the stated default, or what the session covers
};

class Calibration
{
public:
    Calibration() = default; // nothing measured: the datasheet and stated defaults
    // Reads and fits what `choice` names; throws std::invalid_argument / std::runtime_error naming a
    // session that is missing, of the wrong kind, or without usable points. `ws` may be null when
    // the choice reads nothing from the store.
    Calibration(store::Workspace* ws, const CalibrationChoice& choice);

    const CalibrationChoice& choice() const { return m_choice; }
    const StoreCalibration* collectives() const { return m_collectives.get(); }
    const MeasuredGemmEfficiency* gemms() const { return m_gemms.get(); }
    const CalibrationSession& gemmSession() const { return m_gemmSession; }

    // The basis of the collective `op` over `ranks` as the step timed it (CommOp::measured and
    // routedImbalance): "session N (title)", or "datasheet" (the profile's links).
    std::string collectiveBasis(CollectiveOp op, int ranks, bool measured, double routedImbalance = 0) const;
    // The same for every collective of a step, grouped by basis: "session 3 (nccl 8xH100): dp grad
    // reduce_scatter, dp param all_gather; datasheet: tp all_reduce" ("none" for a step without any).
    std::string collectiveBases(const StepEstimate& step) const;
    // What a comparison with a measured run assumes beyond the run's own facts: "GEMM efficiency:
    // default (by shape ...)", "max achievable TFLOP/s: datasheet (...)", "collectives: ...".
    std::vector<std::string> assumptions(const DeviceRates& r, const StepEstimate& step) const;
    // Every figure source of a prediction on device `r`, in the order a reader checks them.
    std::vector<FigureBasis> bases(const DeviceRates& r) const;

private:
    CalibrationChoice m_choice;
    std::shared_ptr<const StoreCalibration> m_collectives;
    std::shared_ptr<const MeasuredGemmEfficiency> m_gemms;
    CalibrationSession m_gemmSession;
};

// The model's inputs for one device: its rates with the calibration's collective source (measured
// fits falling back to the profile's links) and GEMM timing. Holds pointers into itself and the
// Calibration, so it is neither copied nor moved and must not outlive the Calibration.
class CalibratedSources
{
public:
    CalibratedSources(const Calibration& cal, const DeviceRates& r);
    CalibratedSources(const CalibratedSources&) = delete;
    CalibratedSources& operator=(const CalibratedSources&) = delete;

    const CollectiveTimeSource& collectives() const;
    const GemmTiming& timing() const { return m_timing; }

private:
    ProfileCollectiveTime m_profile;
    std::unique_ptr<MeasuredCollectiveTime> m_measured;
    GemmTiming m_timing;
};
} // namespace rl::model
