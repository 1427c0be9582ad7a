#pragma once
// What a prediction is asked for, in one type that travels: the model, the hardware profile, the
// layout with its training recipe, the attention kernel, the calibration sources and the inference
// question. `ridgeline-cli plan` and the Plan window build one and hand it to the layout search
// (plan/plansearch.h), which varies the layout and keeps the rest.
#include <string>

#include "model/calibration.h"
#include "model/inference.h"
#include "model/modelconfig.h"
#include "model/parallelconfig.h"

namespace rl::model {

struct SizingRequest
{
    ModelConfig model;
    std::string hardware;        // a hardware profile id ("mi300x") or a profile file
    ParallelConfig layout;       // degrees and training recipe (sequence, micro-batch, ZeRO, recompute, dtype, ...)
    std::string attentionKernel; // fused attention kernel timed by the profile's measured rates; "" by GEMM shape
    CalibrationChoice calibration;
    InferenceOptions inference;
};
} // namespace rl::model
