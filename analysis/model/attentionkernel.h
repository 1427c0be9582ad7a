#pragma once
// A fused attention kernel timed by its published measured rate instead of the GEMM-shape estimate.
// Attention in a training step is the FlashAttention family's work: QK^T, softmax and PV fused in
// one kernel, whose rate depends on the implementation (FA2, FA3, cuDNN, Triton) far more than on
// the matmul shapes: on an H100 at 4k tokens FA2's forward runs at 368 TFLOP/s and cuDNN's at 609
// (Shah et al. 2024, FlashAttention-3, Figure 5). A run names its kernel (`--attention`, or
// "attention_kernel" in a validation row); with none named the shape estimate stays.
#include <string>

#include "model/devicerates.h"
#include "model/hardwareprofile.h"
#include "model/modelconfig.h"
#include "model/parallelconfig.h"

namespace rl::model {

// FLOP/s of the kernel at `seq` tokens: linear in log2(seq) between the measured points, the nearest
// end point's rate outside them. Causal forward uses the causal curve where measured; the causal
// backward scales the (non-causal) backward by the same causal/non-causal ratio of the forward.
double attentionKernelFlops(const AttentionKernelRates& k, double seq, bool causal, bool backward);

// The profile's kernel `name`; throws std::runtime_error naming the ones it has when it lacks it.
const AttentionKernel& findAttentionKernel(const HardwareProfile& hw, const std::string& name);

// "cudnn, measured at head dim 128 (source)": the rate set as every basis states it.
std::string describeAttentionKernel(const AttentionKernelRates& k);
// "cudnn, measured at head dims 64 and 128 (source)": the kernel, all its head dims.
std::string describeAttentionKernel(const AttentionKernel& k);

// The rates that time this model's attention: the device's named kernel's set at the model's head
// dim, when the run uses flash attention and the kernel was measured at that head dim (QK and V
// alike; a kernel's rate moves with the head dim: FA3 paper, Figures 5 and 6); null otherwise
// (attention as GEMMs by shape).
const AttentionKernelRates* attentionKernelFor(const DeviceRates& r, const ModelConfig& c, const ParallelConfig& p);

// How a prediction timed its attention, stated next to it: the kernel's measured rates ("cudnn,
// measured at head dim 128 (source)"), or as GEMMs by shape, and why.
std::string attentionBasis(const DeviceRates& r, const ModelConfig& c, const ParallelConfig& p);
// The same without the citation ("cudnn, measured at head dim 128"), for a table cell whose source
// goes in a footnote or tooltip; the citation is attentionKernelFor(...)->source.
std::string attentionSummary(const DeviceRates& r, const ModelConfig& c, const ParallelConfig& p);
} // namespace rl::model
