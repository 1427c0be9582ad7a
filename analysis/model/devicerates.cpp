#include "model/devicerates.h"

#include <stdexcept>

namespace rl::model {

DeviceRates deviceRates(const HardwareProfile& hw, const std::string& dtype)
{
    DeviceRates r;
    r.dtype = dtype;
    auto peak = hw.peakTflops.find(dtype);
    if (peak == hw.peakTflops.end() || peak->second.value <= 0)
        throw std::runtime_error("hardware profile '" + hw.id + "' has no peak TFLOP/s for " + dtype);
    if (hw.hbmBandwidthGBs.value <= 0)
        throw std::runtime_error("hardware profile '" + hw.id + "' has no HBM bandwidth");
    r.peakFlops = peak->second.value * 1e12;
    auto ach = hw.maxAchievableTflops.find(dtype);
    r.maxAchievableFlops = (ach != hw.maxAchievableTflops.end() && ach->second.value > 0) ? ach->second.value * 1e12
                                                                                            : r.peakFlops;
    r.hbmBytesPerSec = hw.hbmBandwidthGBs.value * 1e9;
    r.hbmCapacityBytes = hw.hbmCapacityGB.value * 1e9;
    r.computeUnits = int(hw.computeUnits.value);
    r.intraNodeBytesPerSec = hw.intraNodeLinkGBs.value * 1e9;
    r.nicBytesPerSec = hw.nicGBsPerGpu.value * 1e9;
    r.gpusPerNode = hw.gpusPerNode > 0 ? hw.gpusPerNode : 8;
    return r;
}
} // namespace rl::model
