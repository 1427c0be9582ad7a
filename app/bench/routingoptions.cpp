#include "routingoptions.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "collectives/collectiveop.h"

namespace rl::bench {

void addRoutingOptions(CLI::App& cmd, RoutingOptions& o)
{
    cmd.add_option("--routing", o.csv,
                   "all_to_allv: CSV file of bytes rank i sends to rank j (ranks x ranks); scaled to each size");
    cmd.add_option("--moe-experts", o.experts,
                   "all_to_allv: generate the matrix of an MoE dispatch with this many experts (over all ranks)");
    cmd.add_option("--moe-topk", o.topK, "all_to_allv: experts per token (count)")->capture_default_str();
    cmd.add_option("--moe-tokens", o.tokens, "all_to_allv: tokens per rank (count)")->capture_default_str();
    cmd.add_option("--moe-hidden", o.hidden, "all_to_allv: hidden size (elements per token)")->capture_default_str();
    cmd.add_option("--moe-dtype", o.dtype, "all_to_allv: element type of the tokens (bf16, fp8, float32, ...)")
        ->capture_default_str();
    cmd.add_option("--moe-skew", o.skew,
                   "all_to_allv: expert load: uniform, zipf:S (expert e gets 1/(e+1)^S), or hist:FILE "
                   "(a measured load per expert); experts sit on ranks in contiguous blocks")
        ->capture_default_str();
}

void readRoutingCsv(const RoutingOptions& o, SweepParams& p)
{
    if (!o.csv.empty() && o.experts > 0)
        throw std::invalid_argument("give either --routing or --moe-experts, not both");
    if (o.csv.empty())
        return;
    std::ifstream in(o.csv);
    if (!in)
        throw std::invalid_argument("--routing: cannot read " + o.csv);
    p.routing = std::make_shared<const RoutingMatrix>(parseRoutingCsv(in));
    p.routingSource = o.csv;
}

void applyRouting(const RoutingOptions& o, SweepParams& p, int nranks)
{
    if (o.experts > 0) {
        MoeRouting moe;
        moe.experts = o.experts;
        moe.topK = o.topK;
        moe.tokensPerRank = o.tokens;
        const auto elem = dtypeSize(o.dtype);
        if (!elem)
            throw std::invalid_argument("--moe-dtype: unknown type \"" + o.dtype + "\"");
        moe.bytesPerToken = o.hidden * *elem;
        parseSkew(o.skew, moe);
        p.routing = std::make_shared<const RoutingMatrix>(moeRoutingMatrix(moe, nranks));
        std::ostringstream what;
        what << "moe experts=" << o.experts << " topk=" << o.topK << " tokens=" << o.tokens << " hidden=" << o.hidden
             << " dtype=" << o.dtype << " skew=" << o.skew;
        p.routingSource = what.str();
    }
    if (p.routing && !o.sizesGiven) {
        const auto native = std::int64_t(std::llround(p.routing->total() / p.routing->n));
        p.minBytes = p.maxBytes = std::max<std::int64_t>(native, 1);
    }
}
} // namespace rl::bench
