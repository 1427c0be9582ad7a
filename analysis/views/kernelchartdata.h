#pragma once
// What the kernel-benchmark charts (roofline, memory bandwidth, GEMM efficiency) draw, computed
// without Qt so tests and the CLI can check the numbers: ceilings and ridge points through
// model/roofline.h, STREAM curves per kernel and thread count, GEMM sweeps with the predicted
// wave-quantisation efficiency of model/wavequantization.h.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/gemmlist.h"
#include "model/hardwareprofile.h"
#include "model/modelconfig.h"
#include "model/parallelconfig.h"
#include "model/wavequantization.h"
#include "records/kernelpoints.h"
#include "records/session.h"
#include "trace/traceanalysis.h"

namespace rl::store {
class Workspace;
}

namespace rl::charts {

// One session with every kernel record it holds (most sessions hold one kind only).
struct KernelSession
{
    Session session;
    std::vector<GemmPoint> gemm;
    std::vector<MemBwPoint> membw;
    std::vector<MemCeiling> memCeilings;
    std::vector<PeakFlopsPoint> peakFlops;
    std::vector<trace::RooflinePoint> traceKernels; // trace sessions: kernels with kernel_flop and bytes
};

struct KernelChartData
{
    std::vector<KernelSession> sessions;
};

inline std::vector<std::int64_t> sessionIdsOf(const KernelChartData& data)
{
    std::vector<std::int64_t> ids;
    for (const auto& s : data.sessions)
        ids.push_back(s.session.id);
    return ids;
}

// Reads the sessions in the given order with their kernel records (trace sessions: the kernels
// that recorded flops and bytes). Throws std::runtime_error
// "no session N in FILE" when a session does not exist.
KernelChartData loadKernelCharts(store::Workspace& workspace, const std::vector<std::int64_t>& ids);

// ---- roofline

enum class CeilingOrigin { Measured, Profile, SecondProfile };

struct ComputeRoof
{
    std::vector<std::string> dtypes; // several when they share one peak ("bf16, fp16")
    double gflops = 0;
    CeilingOrigin origin = CeilingOrigin::Measured;
    std::string label; // "fp8 (MI300X): 2.61 PFLOP/s"
};

struct BandwidthRoof
{
    std::string level;
    double gbs = 0;
    CeilingOrigin origin = CeilingOrigin::Measured;
    std::string label; // "HBM3 (MI300X): 5.3 TB/s"
};

struct RidgeMark
{
    std::string dtype, level; // dtype: the roof's dtypes as labelled ("fp32, fp64")
    CeilingOrigin origin = CeilingOrigin::Measured;
    double intensity = 0; // FLOP/B
    double gflops = 0;
};

// Where roofline points come from; each source has its own marker shape and colour family.
enum class PointSource { Measured, Imported, Trace, Predicted };
const char* toString(PointSource s);

struct GemmScatter
{
    std::int64_t sessionId = 0;    // 0 for the sizing model's predicted GEMMs
    std::string name;              // session title, or "<model> predicted on <device>"
    std::vector<GemmPoint> points; // those with a known intensity and rate
    PointSource source = PointSource::Measured;
    std::vector<std::string> labels; // per point when not empty: the trace kernel or the model's matmul
};

struct RooflineOptions
{
    std::optional<HardwareProfile> hardware; // its peaks and HBM/levels as a second set of ceilings
    std::optional<HardwareProfile> compareHardware; // a second profile overlaid (dotted): "MI300X vs H100"
    std::optional<GemmScatter> predicted;    // predictedGemms(): the sizing model's GEMMs of one step
    std::string title;                       // empty: derived
    // What the title suggests when nothing gives a ceiling: the GUI names its profile box (the
    // default), the CLI sets its --hardware flag.
    std::string noCeilingsHint = "select a peakflops or membw session, or choose a hardware profile in the "
                                 "\"Hardware profile\" box";
    // When a bandwidth slope is there but no roof: only a compute figure is missing.
    std::string noComputeHint = "select a peakflops session, or choose a hardware profile in the \"Hardware profile\" box";
};

// The sizing model's GEMMs of one training step per GPU (model/stepGemms, forward and backward) as
// roofline points on `hw`: per-call time by model::gemmSeconds (roofline, scaled by the measured or
// default efficiency), GFLOP/s = 2MNK / time, intensity at t.elemBytes. Throws when the profile has
// no peak for the layout's dtype.
GemmScatter predictedGemms(const model::ModelConfig& c, const model::ParallelConfig& p, const HardwareProfile& hw,
                           const model::GemmTiming& t);

struct RooflineGeometry
{
    std::vector<ComputeRoof> compute;     // highest first
    std::vector<BandwidthRoof> bandwidth; // fastest first
    std::vector<RidgeMark> ridges;        // each roof with each slope of the same origin
    std::vector<GemmScatter> gemm;
    int gemmWithoutIntensity = 0;         // points left out: element size unknown
    double xMin = 0.1, xMax = 1000;       // FLOP/B, decade-aligned
    double yMin = 1, yMax = 1e6;          // GFLOP/s, decade-aligned
};

// Measured ceilings: per dtype the best peakflops point over thread counts; per memory level the
// ceiling at the session's highest thread count (as buildMeasuredProfile does); a membw session
// without detected levels (imported STREAM/HPCC) gives one "STREAM triad" slope. Ridges pair roofs
// and slopes of the same origin only: a CPU's peak over a GPU's HBM means nothing.
RooflineGeometry rooflineGeometry(const KernelChartData& data, const RooflineOptions& options);
std::string describeGemmPoint(const GemmPoint& p); // "M=4096 N=4096 K=4096 bf16\n95.3 TFLOP/s\n..."
// Point i of a scatter for the hover: its label (trace kernel, model matmul) and figures.
std::string describeScatterPoint(const GemmScatter& s, std::size_t i);
std::string rooflineCsv(const KernelChartData& data, const RooflineOptions& options);

// ---- memory bandwidth

struct MemBwCurve
{
    std::int64_t sessionId = 0;
    std::string kernel;
    int threads = 1;
    std::string name;                 // "triad, 2 threads" (prefixed by the session with several)
    std::vector<MemBwPoint> points;   // sorted by bytes
};

struct MemBwBand
{
    std::int64_t sessionId = 0;
    MemCeiling ceiling;
    std::string label; // "L1: 212 GB/s"
};

// Curves in session order, then kernel order copy, scale, add, triad, then threads. Bands: each
// session's ceilings at its highest thread count.
std::vector<MemBwCurve> memBwCurves(const KernelChartData& data);
std::vector<MemBwBand> memBwBands(const KernelChartData& data);
std::string memBwCsv(const KernelChartData& data);

// ---- GEMM efficiency

enum class GemmYMetric { Gflops, PercentOfPeak };

struct GemmEfficiencyOptions
{
    GemmYMetric metric = GemmYMetric::Gflops;
    std::optional<HardwareProfile> hardware; // its CU count drives the wave-quantisation overlay
    model::TileShape tile;                  // output tile of the GEMM kernel
    std::string title;
};

enum class GemmDim { M, N, K };

struct GemmSweepPoint
{
    GemmPoint point;
    double x = 0;           // the swept dimension
    double value = 0;       // GFLOP/s or % of peak
    double predicted = -1;  // wave-quantisation efficiency 0..1; -1 without a profile
};

struct GemmSweep
{
    std::int64_t sessionId = 0;
    std::string dtype;
    std::string name;      // "<session> · bf16"
    double peakGflops = 0; // measured peak for % of peak; 0 when unknown
    std::vector<GemmSweepPoint> points; // sorted by x
};

struct GemmEfficiencyGeometry
{
    GemmDim dim = GemmDim::M;
    std::string dimTitle;  // "M", or "M = N = K" when they move together
    std::vector<GemmSweep> sweeps;
    // The predicted efficiency sampled densely along x (it is a sawtooth), for the first sweep's
    // fixed dimensions; empty without a profile.
    std::vector<std::pair<double, double>> predicted;
    int computeUnits = 0;
    bool percent = false; // values are % of peak (every sweep had a peak)
    model::TileShape tile;
    // The output shape at swept value v: the first sweep's fixed M and N, with the swept one (and N
    // when it moves with M) replaced. K does not change the output tiles.
    std::int64_t fixedM = 0, fixedN = 0;
    bool nFollowsM = false;
};
std::pair<std::int64_t, std::int64_t> outputShapeAt(const GemmEfficiencyGeometry& g, std::int64_t v);

// The "nearest fast size" readout for one value of the swept dimension: the predicted wave
// efficiency there, the measured figure at the nearest measured size, and the nearest multiples of
// `step` below and above whose predicted efficiency reaches `threshold` (searched up to 64 steps).
struct FastSizeReadout
{
    std::int64_t value = 0;
    double predicted = -1;                     // -1: no profile (no CU count)
    std::int64_t measuredAt = 0;               // 0: no measured point
    double measuredValue = 0;                  // GFLOP/s or % of peak, as the chart shows
    std::int64_t below = 0, above = 0;         // 0: none within the search
    double belowEfficiency = 0, aboveEfficiency = 0;
    bool dimensionIsK = false;                 // K does not quantise: every size is as fast
};
FastSizeReadout nearestFastSize(const GemmEfficiencyGeometry& g, std::int64_t value, double threshold = 0.9,
                                int step = 64);
std::string describeFastSize(const FastSizeReadout& r, const GemmEfficiencyGeometry& g);

// The swept dimension: the one of M, N, K with the most distinct values over all points.
GemmEfficiencyGeometry gemmEfficiencyGeometry(const KernelChartData& data, const GemmEfficiencyOptions& options);
std::string gemmEfficiencyCsv(const KernelChartData& data, const GemmEfficiencyOptions& options);

// "1.31 PFLOP/s": a roof label from GFLOP/s (units::formatFlops takes FLOP/s).
std::string formatGflops(double gflops);
} // namespace rl::charts
