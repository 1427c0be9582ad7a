#include "model/devicerates.h"

#include "model/attentionkernel.h"

#include <algorithm>
#include <stdexcept>

namespace rl::model {
namespace {
// Peak and ceiling of one dtype, FLOP/s; the ceiling never exceeds the peak.
std::pair<double, double> ratesOf(const HardwareProfile& hw, const std::string& dtype, bool* published,
                                  std::string* source)
{
    auto peak = hw.peakTflops.find(dtype);
    if (peak == hw.peakTflops.end() || peak->second.value <= 0)
        return {0, 0};
    const double p = peak->second.value * 1e12;
    auto ach = hw.maxAchievableTflops.find(dtype);
    const bool has = ach != hw.maxAchievableTflops.end() && ach->second.value > 0;
    if (published)
        *published = has;
    if (source)
        *source = has ? ach->second.source
                      : "default: " + std::to_string(int(kUnpublishedCeiling * 100)) +
                            " % of peak (no max-achievable figure in the profile)";
    return {p, has ? std::min(p, ach->second.value * 1e12) : kUnpublishedCeiling * p};
}
} // namespace

DeviceRates deviceRates(const HardwareProfile& hw, const std::string& dtype, const std::string& attentionKernel)
{
    DeviceRates r;
    r.dtype = dtype;
    const auto [peak, ceiling] = ratesOf(hw, dtype, &r.maxAchievablePublished, &r.maxAchievableSource);
    if (peak <= 0)
        throw std::runtime_error("hardware profile '" + hw.id + "' has no peak TFLOP/s for " + dtype);
    if (hw.hbmBandwidthGBs.value <= 0)
        throw std::runtime_error("hardware profile '" + hw.id + "' has no HBM bandwidth");
    r.peakFlops = peak;
    r.maxAchievableFlops = ceiling;
    const auto [bp, bc] = ratesOf(hw, "bf16", nullptr, nullptr);
    r.bf16PeakFlops = bp > 0 ? bp : peak;
    r.bf16MaxAchievableFlops = bp > 0 ? bc : ceiling;
    r.hbmBytesPerSec = hw.hbmBandwidthGBs.value * 1e9;
    r.hbmCapacityBytes = hw.hbmCapacityGB.value * 1e9;
    r.computeUnits = int(hw.computeUnits.value);
    r.intraNodeBytesPerSec = hw.intraNodeLinkGBs.value * 1e9;
    r.nicBytesPerSec = hw.nicGBsPerGpu.value * 1e9;
    r.nicSource = hw.nicGBsPerGpu.value > 0 ? hw.nicGBsPerGpu.source : std::string();
    r.gpusPerNode = hw.scaleUpGpus.value > 0 ? int(hw.scaleUpGpus.value) : hw.gpusPerNode > 0 ? hw.gpusPerNode : 8;
    if (!attentionKernel.empty())
        r.attentionKernel = std::make_shared<const AttentionKernel>(findAttentionKernel(hw, attentionKernel));
    return r;
}
} // namespace rl::model
