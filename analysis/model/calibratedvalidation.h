#pragma once
// Leave-one-out run calibration over the validation tables (`ridgeline-cli validate --calibrated`):
// rows of one model on one device at one dtype, run by one framework, form a group; each row's step time calibrates the
// model (runcalibration.h, from the step time alone, as a training log would) and every other row
// of its group is predicted with it. Reported: the error of each such prediction and, beside it,
// the uncalibrated one.
#include <string>
#include <vector>

#include "model/validation.h"

namespace rl::model {

struct CalibratedPrediction
{
    std::string from, to;  // run ids: calibrated on `from`, predicting `to`
    double measured = 0;   // `to`'s measured step (s)
    double uncalibrated = 0, calibrated = 0;
    double uncalibratedError = 0, error = 0; // predicted / measured - 1
};

struct CalibratedGroup
{
    std::string key;               // "a100-80gb bf16, 96 layers, d_model 12288"
    std::vector<std::string> runs; // ids
    std::vector<CalibratedPrediction> predictions;
};

struct CalibratedSummary
{
    std::vector<CalibratedGroup> groups; // with two or more rows
    int predictions = 0;
    double medianError = 0, maxError = 0;   // |calibrated / measured - 1|
    double medianUncalibrated = 0;          // over the same predictions
    std::string worst;                      // "from -> to"
};

// Rows that ran out of memory or were refused take no part.
CalibratedSummary runCalibratedValidation(const std::vector<ValidationRun>& runs);
// The bundled runs: published_runs.json, holdout_runs.json and the ranking groups' own runs.
std::vector<ValidationRun> bundledValidationRuns();
} // namespace rl::model
