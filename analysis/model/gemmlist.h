#pragma once
// Every matmul of a layer and of a training step with its shape (C[M,N] += A[M,K]·B[K,N]) per
// GPU after TP/EP/CP splitting, forward and backward (dgrad: input gradient, wgrad: weight
// gradient), and its roofline time on a device.
#include <array>
#include <vector>

#include "model/devicerates.h"
#include "model/gemmefficiencymodel.h"
#include "model/gemmefficiencysource.h"
#include "model/modelconfig.h"
#include "model/parallelconfig.h"

namespace rl::model {

enum class GemmPass { Forward, Dgrad, Wgrad };
const char* toString(GemmPass p);

struct Gemm
{
    const char* name = ""; // static strings: the hot path must not allocate
    double m = 0, n = 0, k = 0;
    double count = 1; // per layer (or per step in stepGemms)
    GemmPass pass = GemmPass::Forward;
    double batch = 1;      // independent instances in one launch (attention heads, local experts)
    bool bf16Only = false; // kept in BF16 by an FP8 recipe (attention scores, router, LM head)

    double flops() const { return 2 * m * n * k * count; }
    double intensity(int elemBytes) const { return 2 * m * n * k / (elemBytes * (m * k + k * n + m * n)); }
};

// Fixed capacity so building a layer's list costs no allocation.
struct GemmSet
{
    std::array<Gemm, 64> items;
    int size = 0;
    void add(const Gemm& g)
    {
        if (size < int(items.size()))
            items[size++] = g;
    }
    const Gemm* begin() const { return items.data(); }
    const Gemm* end() const { return items.data() + size; }
};

struct LayerKind
{
    bool moe = false;
    bool sliding = false;
};

// One micro-batch through one layer on one GPU; backward passes appended when withBackward.
void layerGemms(const ModelConfig& c, const ParallelConfig& p, LayerKind kind, bool withBackward, GemmSet& out);
void outputLayerGemms(const ModelConfig& c, const ParallelConfig& p, bool withBackward, GemmSet& out);

// The whole step on one GPU (layers of its pipeline stage, all micro-batches), counts summed per
// distinct GEMM. The last stage's share of the output layer is included.
std::vector<Gemm> stepGemms(const ModelConfig& c, const ParallelConfig& p);

struct GemmTiming
{
    // Fraction of peak when no measurement covers the shape; 0: by shape (gemmefficiencymodel.h).
    double defaultEfficiency = 0;
    const GemmEfficiencySource* measured = nullptr;
    int elemBytes = 2; // of the dtype's GEMMs (1 for fp8); BF16-only GEMMs use 2
};

// Where a GEMM's efficiency comes from.
enum class GemmEfficiencyOrigin { Measured, Flat, Shape };
const char* toString(GemmEfficiencyOrigin o);
GemmEfficiencyOrigin efficiencyOrigin(const GemmTiming& t);
// Fraction of the GEMM's dtype peak: measured (interpolated), else the flat default, else by shape.
double gemmEfficiency(const Gemm& g, const DeviceRates& r, const GemmTiming& t);

// Roofline: max(FLOPs / rate, bytes / HBM bandwidth), for all `count` calls, where rate =
// min(peak x efficiency, max-achievable): no GEMM runs above the profile's max-achievable rate.
double gemmSeconds(const Gemm& g, const DeviceRates& r, const GemmTiming& t);
double totalSeconds(const GemmSet& set, const DeviceRates& r, const GemmTiming& t);
} // namespace rl::model
