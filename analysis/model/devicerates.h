#pragma once
// The few numbers of a HardwareProfile the sizing model's hot path needs, resolved once (the
// profile's maps are too slow to consult per GEMM in a sweep of millions of configurations).
#include <string>

#include "model/hardwareprofile.h"

namespace rl::model {

struct DeviceRates
{
    std::string dtype = "bf16";
    double peakFlops = 0;         // FLOP/s for dtype
    double maxAchievableFlops = 0; // FLOP/s; = peak when the vendor publishes none
    double hbmBytesPerSec = 0;
    double hbmCapacityBytes = 0;
    int computeUnits = 0;
    double intraNodeBytesPerSec = 0; // per GPU, one direction
    double nicBytesPerSec = 0;       // per GPU
    int gpusPerNode = 8;
};

// Throws std::runtime_error when the profile has no peak for dtype or no HBM bandwidth.
DeviceRates deviceRates(const HardwareProfile& hw, const std::string& dtype);
} // namespace rl::model
