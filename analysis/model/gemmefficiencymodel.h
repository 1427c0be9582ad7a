#pragma once
// GEMM efficiency by shape when nothing is measured: the fraction of the dtype's peak a GEMM of
// shape M x N x K (times `batch` independent instances in one launch) reaches on a device.
//   efficiency = ceiling x quantisation x smallK
// - ceiling: max-achievable / peak of the profile (the best large GEMM; kUnpublishedCeiling when
//   the profile has none), so no GEMM is ever predicted faster than the measured best one;
// - quantisation: the output is cut into tiles (the best of 256x128, 128x256, 128x128, 64x128,
//   smaller tiles paying for their lower data reuse) spread over the compute units in waves; a
//   partial last wave and partial edge tiles waste the idle part;
// - smallK: each tile's main loop has a fixed prologue/epilogue of about kSmallKOverhead K-steps,
//   normalised so that the K of the ceiling's measurement (~8192) costs nothing.
// Memory-bound (skinny) shapes are left to the roofline in gemmSeconds (bytes / HBM bandwidth).
namespace rl::model {

inline constexpr double kSmallKOverhead = 96;

struct GemmShapeEfficiency
{
    double ceiling = 1;      // max-achievable / peak
    double quantization = 1; // tile x wave fill of the best tile
    double smallK = 1;
    int tileM = 0, tileN = 0;
    double efficiency() const { return ceiling * quantization * smallK; }
};

GemmShapeEfficiency gemmShapeEfficiency(double m, double n, double k, double batch, int computeUnits,
                                        double ceiling);
} // namespace rl::model
