#pragma once
// A hardware profile built from the user's own stored benchmark sessions: "this machine, measured".
// Every figure names the session it came from; what was not measured comes from a base profile
// (a shipped datasheet one) with that profile's sources, or is left out.
#include <cstdint>
#include <string>

#include "model/hardwareprofile.h"

namespace rl::store {
class Workspace;
}

namespace rl {

struct MeasuredProfileSources
{
    // Compute: a peakflops session (ridgeline-bench, CPU) or a GEMM sweep (ridgeline-probe gemm, or
    // an imported GEMM bench): per dtype the best measured rate.
    std::int64_t compute = 0;
    // Memory: a membw session. Its stored ceilings (ridgeline-bench) at the highest thread count,
    // else plateaus found in its points; the slowest, largest one is DRAM (HBM on a GPU).
    std::int64_t memory = 0;
    // Optional: a ridgeline-probe attention session: each scaled_dot_product_attention backend
    // becomes an attention kernel of the profile ("flash", "cudnn", "efficient", "math").
    std::int64_t attention = 0;
    // Optional: a collective session of 2+ ranks within one node (the probe's, ridgeline-bench's,
    // nccl-tests'): the all_reduce busbw plateau becomes the intra-node link bandwidth per GPU.
    std::int64_t collectives = 0;
    // Optional: a profile id (or file) for everything not measured: links, NICs, scale-up, and the
    // datasheet peak (the MFU denominator; the measured best GEMM is then the max achievable).
    std::string base;
};

// Throws ProfileError (model/hardwareprofileloader.h) naming the session when one is missing, of
// the wrong kind, or has no usable records, and when the base profile is unknown.
HardwareProfile buildMeasuredProfile(store::Workspace& ws, const MeasuredProfileSources& from);
} // namespace rl
