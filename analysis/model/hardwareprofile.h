#pragma once
// A device (or "this machine, measured") as the roofline and the sizing model see it.
// Profiles are data files in resources/hardware/ (JSON, every number with its source).
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rl {

struct Sourced
{
    double value = 0;
    std::string source; // URL or document and page; "measured: session N" for measured ones
};

struct MemoryLevel
{
    std::string name;      // "HBM3", "L2", "LDS", "DRAM", "L1", ...
    double bandwidthGBs = 0; // GB/s (1e9 B/s)
    double capacityBytes = 0; // 0 when not relevant
    std::string source;
};

// Measured rates of one fused attention kernel on the device (BF16), by sequence length, in the
// FlashAttention papers' convention: forward FLOPs 4·s²·d·heads (half with a causal mask), backward
// 2.5x the forward's (its five matmuls include the recomputed QK^T).
struct AttentionKernelRates
{
    std::string name;  // "cudnn", "fa2", "fa3", "triton"
    int headDim = 128; // the head dim the figures were measured at
    std::vector<std::pair<double, double>> forward, forwardCausal, backward; // (seq, TFLOP/s)
    std::string source;
};
// One kernel's measured rate sets, one per head dim it was measured at, ascending (a kernel's rate
// moves with the head dim: FA3 paper, Figures 5 and 6, head dims 64 and 128).
using AttentionKernel = std::vector<AttentionKernelRates>;

struct HardwareProfile
{
    std::string id;     // "mi300x", "h100-sxm", "this-machine"
    std::string name;   // "AMD Instinct MI300X"
    std::string vendor;
    bool measured = false;
    // Peak dense FLOP/s in TFLOP/s per dtype: "fp64", "fp32", "tf32", "bf16", "fp16", "fp8".
    std::map<std::string, Sourced> peakTflops;
    // "Max achievable" TFLOP/s where the vendor publishes one (AMD: the MFU denominator).
    std::map<std::string, Sourced> maxAchievableTflops;
    Sourced hbmCapacityGB;     // GB (1e9 B)
    Sourced hbmBandwidthGBs;   // GB/s
    Sourced computeUnits;      // CUs (AMD) or SMs (NVIDIA)
    Sourced intraNodeLinkGBs;  // per-GPU unidirectional intra-node bandwidth (xGMI / NVLink), GB/s
    std::string intraNodeTopology; // "fully connected xGMI, 8 GPUs", "NVSwitch", ...
    // 1 when the scale-up switch reduces in the network (NVLink SHARP, "NVLS", from NVSwitch 3): an
    // all_reduce then moves each GPU's buffer over its links once each way, so its busbw can pass
    // the per-direction link bandwidth (up to 2(n-1)/n of it).
    Sourced inSwitchReduction;
    Sourced nicGBsPerGpu;      // scale-out bandwidth per GPU, GB/s (given, or derived from the NIC fields)
    // Scale-up domain and scale-out network (the platform the GPU ships in, each with its source).
    Sourced scaleUpGpus;       // GPUs in one NVLink / xGMI domain
    Sourced nicsPerNode;       // backend (compute-fabric) NICs per node
    Sourced nicLineRateGbps;   // line rate of one NIC, Gb/s (bits)
    Sourced gpusPerNic;        // GPUs sharing one NIC
    int gpusPerNode = 8;
    std::vector<MemoryLevel> memoryLevels; // fastest first; the roofline's bandwidth ceilings
    // Fused attention kernels with published measured rates on this device, keyed by name.
    std::map<std::string, AttentionKernel> attentionKernels;
    std::string notes;
};
} // namespace rl
