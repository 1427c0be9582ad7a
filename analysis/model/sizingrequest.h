#pragma once
// What a prediction is asked for, in one type that travels: the model, the device (a hardware
// profile, with any figures the user typed over it), the layout with its training recipe, the
// attention kernel, the calibration sources and the inference question. `size`, `moe-sweep`,
// `vs-measured`, `validate`, reports, the layout search (plan/) and the GUI's sizing views build
// one; SizingInputs is the one place that turns it into the model's inputs.
#include <string>

#include "model/calibration.h"
#include "model/devicerates.h"
#include "model/hardwareprofile.h"
#include "model/inference.h"
#include "model/modelconfig.h"
#include "model/parallelconfig.h"
#include "model/sizingreport.h"

namespace rl::model {

struct SizingRequest
{
    ModelConfig model;
    HardwareProfile hardware;    // the device: a profile, figures given on the command line over it
    ParallelConfig layout;       // degrees and training recipe (sequence, micro-batch, ZeRO, recompute, dtype, ...)
    std::string attentionKernel; // fused attention kernel timed by the profile's measured rates; "" by GEMM shape
    CalibrationChoice calibration; // what the Calibration handed to SizingInputs was read from
    InferenceOptions inference;
};

// The model's inputs for one request: the device's rates at the layout's dtype and the attention
// kernel, with the calibration's collective source and GEMM timing. Throws std::runtime_error as
// deviceRates does (no peak for the dtype, no HBM bandwidth, a kernel without rates). Holds pointers
// into itself and the Calibration: neither copied nor moved, and not outliving the Calibration.
class SizingInputs
{
public:
    SizingInputs(const SizingRequest& req, const Calibration& cal);
    SizingInputs(const SizingInputs&) = delete;
    SizingInputs& operator=(const SizingInputs&) = delete;

    const DeviceRates& rates() const { return m_rates; }
    const GemmTiming& timing() const { return m_sources.timing(); }
    const CollectiveTimeSource& collectives() const { return m_sources.collectives(); }

private:
    DeviceRates m_rates;
    CalibratedSources m_sources;
};

// One prediction of the request (evaluateSizing on SizingInputs), with the rates it was made on.
struct Sizing
{
    DeviceRates rates;
    SizingReport report;
};
Sizing evaluate(const SizingRequest& req, const Calibration& cal);
// The same on inputs already assembled for `req` (a caller that also reads their timing or sources).
SizingReport evaluate(const SizingRequest& req, const SizingInputs& in);
} // namespace rl::model
