#pragma once
// The few numbers of a HardwareProfile the sizing model's hot path needs, resolved once (the
// profile's maps are too slow to consult per GEMM in a sweep of millions of configurations).
#include <memory>
#include <string>

#include "model/hardwareprofile.h"

namespace rl::model {

// Efficiency of streaming (element-wise) kernels against the datasheet HBM bandwidth: STREAM-like
// kernels reach ~90 % of it on A100/H100/MI300X (e.g. AMD's and NVIDIA's published STREAM/babelstream
// figures); the optimizer and gradient-accumulation passes, never GEMMs (roofline as is).
inline constexpr double kStreamEfficiency = 0.9;
// The framework's fused element-wise kernels of a training step are not STREAM kernels: LayerNorm /
// RMSNorm backward reduces the gamma/beta gradients over every token in a second pass, dropout
// draws Philox random numbers, softmax reduces along rows, FP8 casts write a transposed copy, and many tensors are a few MB where a
// kernel does not reach its streaming rate. Half the datasheet HBM bandwidth is the one constant the
// sizing model takes from the published-runs table (resources/validation/published_runs.json: the
// error there falls from -14 % mean to -5 %); 0.4 .. 0.6 all meet the 10 % target; the held-out table
// (H100 FP8, NeMo 24.12), whose rows were never tuned, checks it (median 11.4 % -> 5.2 %, mean -10.6 % -> -0.3 %). Optimizer and accumulation passes keep kStreamEfficiency.
inline constexpr double kElementwiseEfficiency = 0.5;
// Large-GEMM ceiling when a profile has no max-achievable figure: 0.8 of peak, the middle of the
// measured NVIDIA rows (A100 86.9 %, H100 80.3 %, B200 77.6 %) of the mamf-finder table cited in
// resources/hardware/*.json.
inline constexpr double kUnpublishedCeiling = 0.8;

struct DeviceRates
{
    std::string dtype = "bf16";
    double peakFlops = 0;         // FLOP/s for dtype
    double maxAchievableFlops = 0; // FLOP/s; the profile's figure, else kUnpublishedCeiling x peak
    bool maxAchievablePublished = false;
    std::string maxAchievableSource; // the profile's source, or "default: ..."
    // BF16 rates for the GEMMs an FP8 recipe keeps in BF16 (attention scores, router, LM head);
    // equal to the above when dtype is bf16 (or the profile has no bf16).
    double bf16PeakFlops = 0;
    double bf16MaxAchievableFlops = 0;
    double hbmBytesPerSec = 0;
    double hbmCapacityBytes = 0;
    int computeUnits = 0;
    double intraNodeBytesPerSec = 0; // per GPU, one direction
    double nicBytesPerSec = 0;       // per GPU
    std::string nicSource;           // where nicBytesPerSec came from ("" when none)
    int gpusPerNode = 8;             // the scale-up domain (NVLink / xGMI) when the profile gives one
    // The run's fused attention kernel with measured rates (model/attentionkernel.h); null: attention
    // is timed as GEMMs by shape.
    std::shared_ptr<const AttentionKernel> attentionKernel;

    // The rate a GEMM of this precision can at most run at (FLOP/s).
    double ceilingFlops(bool bf16Only) const { return bf16Only ? bf16MaxAchievableFlops : maxAchievableFlops; }
    double peakFor(bool bf16Only) const { return bf16Only ? bf16PeakFlops : peakFlops; }
};

// Throws std::runtime_error when the profile has no peak for dtype or no HBM bandwidth, or when
// `attentionKernel` is named and the profile has no measured rates for it.
DeviceRates deviceRates(const HardwareProfile& hw, const std::string& dtype, const std::string& attentionKernel = {});
} // namespace rl::model
