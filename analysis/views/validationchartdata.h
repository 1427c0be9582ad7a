#pragma once
// What the model-validation chart shows, Qt-free: every predicted published run as a point
// (measured step time x, predicted y) grouped by device, the shared range of both axes (log when
// the runs span a decade, with room for the ±25 % band), hover text, the summary line and the CSV.
// widgets/validationchart draws it; ridgeline-cli validate prints the same rows.
#include <cstddef>
#include <string>
#include <vector>

#include "model/validation.h"

namespace rl::views {

struct ValidationSeries
{
    std::string device;               // the run's hardware profile id
    std::vector<std::size_t> rows;    // indices into the summary's rows (predicted ones only)
};

struct ValidationChartData
{
    std::vector<ValidationSeries> series; // by device, in the order devices first appear
    int predicted = 0;
    bool log = false;
    double lo = 0.1, hi = 1; // both axes, seconds
    std::string description; // "16 of 18 runs predicted; median |error| 4.9 %, max 12.0 %"
};

// A row is drawn when it was predicted and both step times are positive.
bool isDrawn(const model::ValidationRow& row);
ValidationChartData validationChartData(const model::ValidationSummary& summary);
// "id (device)\nmeasured 3.53 s, predicted 3.49 s\nerror -1.0 %"
std::string validationPointText(const model::ValidationRow& row);
// Every row, refused ones too, with the error band stated for its kind (dense or MoE).
std::string validationCsv(const model::ValidationSummary& summary);
} // namespace rl::views
