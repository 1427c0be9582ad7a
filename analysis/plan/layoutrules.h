#pragma once
// The legality rules of plan/layoutspace.h as checks per dimension, in the order the search
// enumerates them, so the search and checkLayout (one layout) apply the same code: each returns the
// rule a value breaks given the dimensions before it, or nullopt.
#include <optional>
#include <string>

#include "model/hardwareprofile.h"
#include "model/modelconfig.h"
#include "model/modelcounts.h"
#include "plan/layoutspace.h"

namespace rl::plan {

class LayoutRules
{
public:
    LayoutRules(const model::ModelConfig& c, const HardwareProfile& hw, const Cluster& cl, const Allowances& allow)
        : m_c(c), m_hw(hw), m_cl(cl), m_allow(allow)
    {
    }

    std::optional<Rule> tp(int tp) const
    {
        if (tp < 1 || m_c.heads % tp != 0)
            return Rule::TpHeads;
        const int kv = m_c.kvHeads > 0 ? m_c.kvHeads : m_c.heads;
        if (kv % tp != 0 && tp % kv != 0)
            return Rule::TpKvHeads;
        if (!m_allow.tpAcrossNodes && tp > m_cl.gpusPerNode)
            return Rule::TpAcrossNodes;
        return std::nullopt;
    }
    std::optional<Rule> cp(int cp) const
    {
        if (cp < 1 || (cp > 1 && m_cl.seqLen % (2 * cp) != 0))
            return Rule::CpSequence;
        return std::nullopt;
    }
    std::optional<Rule> pp(int tp, int cp, int pp) const
    {
        if (pp < 1 || m_cl.gpus % (tp * cp * pp) != 0)
            return Rule::WorldSize;
        if (pp > m_c.layers)
            return Rule::PpLayers;
        return std::nullopt;
    }
    // The first and last stages' layer counts of a split (0: the others' share), without checking it.
    static void stageLayers(int layers, int pp, const StageChoice& s, int& first, int& last)
    {
        first = last = 0;
        if (pp < 2 || s.split == StageSplit::Even)
            return;
        if (s.split == StageSplit::Custom) {
            first = s.first;
            last = s.last;
            return;
        }
        const int lighter = s.split == StageSplit::LastLighter ? 1 : 2;
        const int n = (layers + lighter) / pp; // the other stages' layer count
        last = n - 1;
        if (s.split == StageSplit::EndsLighter)
            first = n - 1;
    }
    // The layers of each stage that is neither a given first nor a given last one.
    static int middleLayers(int layers, int pp, int first, int last)
    {
        const int others = pp - (first > 0) - (last > 0);
        return others > 0 ? (layers - first - last) / others : 0;
    }
    std::optional<Rule> stages(int pp, const StageChoice& s, int& first, int& last) const
    {
        const int layers = m_c.layers;
        stageLayers(layers, pp, s, first, last);
        if (s.split == StageSplit::Even)
            return pp > 1 && layers % pp != 0 ? std::optional<Rule>(Rule::EvenSplit) : std::nullopt;
        if (s.split != StageSplit::Custom) {
            const int lighter = s.split == StageSplit::LastLighter ? 1 : 2;
            if (pp < lighter + 1 || (layers + lighter) % pp != 0 || (layers + lighter) / pp < 2)
                return Rule::UnevenSplit;
            return std::nullopt;
        }
        // Megatron's --decoder-first/last-pipeline-num-layers: the rest divides over the other stages.
        const int fixed = (first > 0) + (last > 0);
        const int rest = layers - first - last;
        if (pp < 2 || first < 0 || last < 0 || rest < 0 ||
            (pp <= fixed ? rest != 0 : (rest < pp - fixed || rest % (pp - fixed) != 0)))
            return Rule::UnevenSplit;
        return std::nullopt;
    }
    std::optional<Rule> vpp(int pp, const StageChoice& s, int vpp) const
    {
        if (vpp < 1 || (vpp > 1 && pp < 2))
            return Rule::VppNeedsPp;
        if (vpp == 1)
            return std::nullopt;
        int first = 0, last = 0;
        stageLayers(m_c.layers, pp, s, first, last);
        if (first == 0 && last == 0)
            return (m_c.layers / pp) % vpp != 0 ? std::optional<Rule>(Rule::VppLayers) : std::nullopt;
        // A first (last) stage may count the embedding (the loss) as one more layer:
        // --account-for-embedding-in-pipeline-split / --account-for-loss-in-pipeline-split.
        auto divides = [vpp](int layers) { return layers == 0 || layers % vpp == 0 || (layers + 1) % vpp == 0; };
        if (!divides(first) || !divides(last) || middleLayers(m_c.layers, pp, first, last) % vpp != 0)
            return Rule::VppLayers;
        return std::nullopt;
    }
    // etp: 0 (= tp) or a size.
    std::optional<Rule> etp(int tp, int etp) const
    {
        if (etp != 0 && etp == tp)
            return Rule::EtpSameAsTp;
        const int size = etp == 0 ? tp : etp;
        if (m_c.isMoe() && m_c.moe.expertWidth % size != 0)
            return Rule::EtpWidth;
        return std::nullopt;
    }
    std::optional<Rule> ep(int tp, int cp, int dp, int etpSize, int ep) const
    {
        if (ep < 1 || (!m_c.isMoe() && ep > 1))
            return Rule::EpDense;
        if (m_c.isMoe() && m_c.moe.experts % ep != 0)
            return Rule::EpExperts;
        if ((tp * cp * dp) % (ep * etpSize) != 0)
            return Rule::EpGroup;
        return std::nullopt;
    }
    std::optional<Rule> microBatch(int dp, int pp, int vpp, int mb) const
    {
        if (mb < 1 || m_cl.globalBatch % (mb * dp) != 0)
            return Rule::GlobalBatch;
        if (vpp > 1 && m_cl.globalBatch / (mb * dp) < pp)
            return Rule::InterleavedMicroBatches;
        return std::nullopt;
    }
    std::optional<Rule> sp(int tp, bool sp) const
    {
        if (sp && tp == 1)
            return Rule::SpNeedsTp;
        if (!sp && tp > 1 && m_c.isMoe())
            return Rule::MoeTpNeedsSp;
        return std::nullopt;
    }
    bool dtypeRated(const std::string& dtype) const
    {
        const auto it = m_hw.peakTflops.find(dtype);
        return it != m_hw.peakTflops.end() && it->second.value > 0;
    }
    bool attentionRated(const std::string& kernel) const
    {
        if (kernel.empty())
            return true;
        const auto it = m_hw.attentionKernels.find(kernel);
        if (it == m_hw.attentionKernels.end())
            return false;
        for (const auto& k : it->second)
            if (k.headDim == m_c.qkHeadDim() && k.headDim == m_c.vHeadDim())
                return true;
        return false;
    }
    // dpRanks: dp x cp, the ranks the dense gradients are reduced over.
    std::optional<Rule> zero(int pp, int ep, int dpRanks, int zero) const
    {
        if (zero >= 2 && pp > 1)
            return Rule::ZeroWithPp;
        if (zero == 3 && ep > 1)
            return Rule::ZeroWithEp;
        if (zero > 0 && dpRanks == 1)
            return Rule::OneDpRank;
        return std::nullopt;
    }
    std::optional<Rule> dpOverlap(int dpRanks, bool on) const
    {
        if (!on && dpRanks == 1)
            return Rule::OneDpRank;
        return std::nullopt;
    }
    std::optional<Rule> epOverlap(int ep, model::Recompute recompute, int pp, int vpp, bool on) const
    {
        if (!on)
            return std::nullopt;
        if (ep == 1)
            return Rule::EpOverlapNeedsEp;
        if (recompute == model::Recompute::Full)
            return Rule::EpOverlapFullRecompute;
        if (pp > 1 && vpp == 1)
            return Rule::EpOverlapPpNeedsVpp;
        return std::nullopt;
    }
    std::optional<Rule> dispatcher(int ep, bool flex) const
    {
        if (flex && ep == 1)
            return Rule::FlexNeedsEp;
        return std::nullopt;
    }
    std::optional<Rule> tpOverlap(bool sp, bool on) const
    {
        if (on && !sp)
            return Rule::TpOverlapNeedsSp;
        return std::nullopt;
    }

private:
    const model::ModelConfig& m_c;
    const HardwareProfile& m_hw;
    const Cluster& m_cl;
    const Allowances& m_allow;
};
} // namespace rl::plan
