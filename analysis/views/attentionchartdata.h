#pragma once
// What the attention chart draws: the PyTorch probe's scaled_dot_product_attention rates, which the
// store keeps in an attention session's params["attention"] (records/keptrecords.h: each record is
// the probe's JSON object without its "record" field), as TFLOP/s against sequence length, one curve
// per session, backend, pass, mask and head dim; and a hardware profile's published rates of its
// attention kernels (HardwareProfile::attentionKernels, e.g. the FlashAttention-3 paper's H100
// bars) as reference curves, so a measured cuDNN reads next to the paper's. Without Qt, so the unit
// tests and the CLI can check the numbers.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/hardwareprofile.h"
#include "records/session.h"
#include "views/kernelchartdata.h"

namespace rl::charts {

struct AttentionPoint
{
    std::string backend; // "flash", "cudnn", "efficient", "math"; a reference: the profile's kernel ("fa3")
    std::string pass;    // "forward", "backward"
    bool causal = false;
    int headDim = 0;
    std::int64_t seq = 0; // tokens
    double tflops = 0;
    // Measured points only (0 / empty for a reference):
    std::int64_t batch = 0, heads = 0;
    std::string dtype;
    double timeUs = 0; // median per call
};

// The attention records kept in the session's params, in file order; records without a backend,
// pass, head dim, a positive seq or a positive rate (a skipped case) are left out.
std::vector<AttentionPoint> attentionPoints(const Session& session);

// What the chart shows of the measured points; the default is one readable slice of a full probe
// run (160 points are 32 curves).
struct AttentionFilter
{
    int headDim = 0;            // 0: every head dim
    std::string pass;           // empty: forward and backward
    std::optional<bool> causal; // nullopt: with and without the causal mask
};

// The head dims, passes and masks the sessions measured, for the chart's filter boxes.
struct AttentionChoices
{
    std::vector<int> headDims;       // ascending
    std::vector<std::string> passes; // "forward" before "backward", then others
    bool causal = false, nonCausal = false;
};
AttentionChoices attentionChoices(const KernelChartData& data);
// Head dim 128 when measured (the common one in today's models), else the largest; forward when
// measured; no mask when measured. An empty choice leaves that part open.
AttentionFilter defaultAttentionFilter(const AttentionChoices& choices);

struct AttentionChartOptions
{
    AttentionFilter filter;
    std::optional<HardwareProfile> hardware; // its attention kernels' published rates as references
    std::string title;                       // empty: derived
};

struct AttentionCurve
{
    std::int64_t sessionId = 0; // 0 for a reference
    std::string backend, pass;
    bool causal = false;
    int headDim = 0;
    bool reference = false;
    std::string name;   // "cudnn forward causal, d=128"; a reference: "fa3 forward, d=128 (h100-sxm, published)"
    std::string source; // a reference: where the profile's figures come from
    std::vector<AttentionPoint> points; // sorted by seq
};

struct AttentionGeometry
{
    // Measured curves in session order, then backend (flash, cudnn, efficient, math, others), pass,
    // mask, head dim; then the references in the profile's kernel order.
    std::vector<AttentionCurve> curves;
    int measuredCurves = 0;    // the first measuredCurves of curves
    int allMeasuredPoints = 0; // before the filter, over every session
    std::int64_t seqMin = 0, seqMax = 0; // over the curves drawn; 0 when none
    double tflopsMax = 0;
    // Why there are no references, when that is worth saying (no profile, or one without
    // published attention rates for what the filter shows); empty otherwise.
    std::string referenceNote;
};
AttentionGeometry attentionGeometry(const KernelChartData& data, const AttentionChartOptions& options);

// The curve's name without its session prefix: "cudnn forward causal, d=128".
std::string attentionCurveName(const std::string& backend, const std::string& pass, bool causal, int headDim);
// Point i of a curve for the hover: the curve, "seq 4096 tokens: 655 TFLOP/s" and, when measured,
// the time per call and the shape.
std::string describeAttentionPoint(const AttentionCurve& curve, std::size_t i);
// The drawn curves' points, measured and reference, one row each.
std::string attentionCsv(const KernelChartData& data, const AttentionChartOptions& options);
} // namespace rl::charts
