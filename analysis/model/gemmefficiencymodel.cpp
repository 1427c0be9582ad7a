#include "model/gemmefficiencymodel.h"

#include <algorithm>
#include <cmath>

namespace rl::model {
namespace {
struct Tile
{
    int m, n;
    double reuse; // relative throughput of the tile's main loop (operand reuse, fewer MMA ops in flight)
};
// Tile shapes CUTLASS/hipBLASLt heuristics choose among for BF16/FP8 training GEMMs.
constexpr Tile kTiles[] = {{256, 128, 1.0}, {128, 256, 1.0}, {128, 128, 0.93}, {64, 128, 0.8}};
constexpr double kCeilingK = 8192; // K of the large GEMMs the max-achievable figures are measured at
} // namespace

GemmShapeEfficiency gemmShapeEfficiency(double m, double n, double k, double batch, int cus, double ceiling)
{
    GemmShapeEfficiency e;
    e.ceiling = std::clamp(ceiling, 0.0, 1.0);
    if (m <= 0 || n <= 0 || k <= 0)
        return e;
    batch = std::max(1.0, std::round(batch));
    if (cus > 0) {
        double best = 0;
        for (const Tile& t : kTiles) {
            const double tm = std::ceil(m / t.m), tn = std::ceil(n / t.n);
            const double tiles = tm * tn * batch;
            const double waves = std::ceil(tiles / cus);
            const double fill = tiles / (waves * cus) * (m * n) / (tm * t.m * tn * t.n);
            const double q = fill * t.reuse;
            if (q > best) {
                best = q;
                e.tileM = t.m;
                e.tileN = t.n;
            }
        }
        e.quantization = best;
    }
    e.smallK = std::min(1.0, (k / (k + kSmallKOverhead)) / (kCeilingK / (kCeilingK + kSmallKOverhead)));
    return e;
}
} // namespace rl::model
