#pragma once
// Shape rules that decide whether GEMMs run at full speed, each finding explained with the
// nearest compliant values, and a "find fast width" search near a target MLP/expert width.
#include <string>
#include <vector>

#include "model/gemmefficiencysource.h"
#include "model/modelconfig.h"
#include "model/wavequantization.h"

namespace rl::model {

enum class RuleSeverity { Pass, Info, Warning };
const char* toString(RuleSeverity s);

struct RuleFinding
{
    std::string rule;     // "head_dim", "d_model", "mlp_width", "expert_width", "vocab", "tokens_tile",
                          // "heads_tp", "kv_heads_tp", "wave_quantization", "expert_tokens",
                          // "memory" (sizingreport.h, with a device)
    RuleSeverity severity = RuleSeverity::Pass;
    std::string message;  // what and why
    std::string proposal; // nearest compliant values; empty when passing
    bool passed() const { return severity == RuleSeverity::Pass; }
};

struct RuleOptions
{
    int tp = 1;
    int ep = 1;
    int microBatch = 1;
    int seqLen = 4096;
    int computeUnits = 304; // MI300X; H100 SXM has 132 SMs. 0: no device, no wave-quantization rule
    TileShape tile;
    double minWaveEfficiency = 0.9;
    int minExpertTokens = 256; // below this per-expert M, grouped GEMMs fall well off peak
};

// One finding per rule that applies to the config (passing ones included).
std::vector<RuleFinding> checkSizingRules(const ModelConfig& c, const RuleOptions& o);

// Nearest multiples of `multiple` below and above `value` ("4096" when it already is one).
std::string nearestMultiples(long long value, long long multiple);

struct WidthCandidate
{
    int width = 0;
    double efficiency = 0; // predicted (wave quantisation) or measured, of the MLP's GEMMs
    bool measured = false;
};

// Candidates in [target - range, target + range] that are multiples of 64·tp, ranked by
// efficiency (ties: nearer to target). tokens = micro-batch·sequence; gated = SwiGLU.
std::vector<WidthCandidate> findFastWidths(int target, int dModel, long long tokens, bool gated, const RuleOptions& o,
                                           const GemmEfficiencySource* measured = nullptr, int range = 512);
// The same for a model: its MLP width, or with `expert` its expert width, whose GEMMs see
// micro-batch x sequence tokens (an expert: that x top-k / experts). target 0: the model's width.
std::vector<WidthCandidate> findFastWidthsFor(const ModelConfig& c, bool expert, int target, const RuleOptions& o,
                                              const GemmEfficiencySource* measured = nullptr, int range = 512);
} // namespace rl::model
