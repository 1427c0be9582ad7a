#pragma once
// Calibration from a measured run of the same model on the user's cluster (`size --calibrate-from
// ID`, `plan --calibrate-from ID`, `validate --calibrated`): the model predicts the run that was
// measured, each class of its step is scaled to what the run measured, and the same factors then
// scale the prediction of another layout, batch or GPU count.
//
// Classes: compute (GEMMs, element-wise kernels, recompute, optimizer), exposed communication and
// pipeline bubble / idle. A trace measures all three; a training log only the step time, which is
// put on compute (the bubble is stage compute, so it scales with it), with exposed communication
// kept as modelled. A calibrated prediction still never exceeds the device: compute is held at or
// above the hardware FLOPs of the step at the max-achievable rate.
#include <string>
#include <vector>

#include "model/devicerates.h"
#include "model/predictedvsmeasured.h"
#include "model/trainingstep.h"

namespace rl::model {

struct RunRates
{
    double compute = 1;     // x GEMM, element-wise, recompute and optimizer time
    double exposedComm = 1; // x exposed communication
    double bubble = 1;      // x pipeline bubble (a trace's idle); without a trace it follows compute
    double addedComm = 0;   // s per step the run had exposed where the model hides everything
    double addedIdle = 0;   // s per step the run idled where the model has no bubble
    bool fromTrace = false; // three classes measured; else the step time alone
    std::string basis;      // "session 7 (llama 8B log): training log, median of 90 steps"
    double predictedRunSeconds = 0, measuredRunSeconds = 0;
    double residual = 0;    // the calibrated prediction of the measured run / measured - 1
    // What moved, for the reader: "compute x1.18 (measured 412 ms, predicted 349 ms)".
    std::vector<std::string> moved;
    bool identity() const
    {
        return compute == 1 && exposedComm == 1 && bubble == 1 && addedComm == 0 && addedIdle == 0;
    }
};

// Fits the factors: `predictedRun` is the model's step for the configuration that ran, on device
// `r`; the residual is the calibrated prediction of that run against its measurement. Throws
// std::invalid_argument when the measurement has no step time.
RunRates fitRunRates(const StepEstimate& predictedRun, const MeasuredStep& measured, const std::string& basis,
                     const DeviceRates& r);

// `e` with the factors applied (throughput, TFLOP/s, MFU and HFU follow the new step time); compute
// never faster than the step's hardware FLOPs at r's max-achievable rate.
StepEstimate applyRunRates(const StepEstimate& e, const RunRates& rates, const DeviceRates& r);
} // namespace rl::model
