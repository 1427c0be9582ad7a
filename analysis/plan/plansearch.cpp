#include "plan/plansearch.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#include "model/devicerates.h"
#include "model/memorymodel.h"
#include "model/sizingrequest.h"
#include "plan/layoutrules.h"
#include "plan/memocollectives.h"

namespace rl::plan {
namespace {
using model::ModelConfig;
using model::ParallelConfig;
using model::Recompute;
using model::StepEstimate;

// A combination by its index in each candidate list.
using Index = std::array<std::uint16_t, kDimCount>;

struct Candidate
{
    double step = 0;
    double memory = 0;
    Index idx{};
};

bool faster(const Candidate& a, const Candidate& b)
{
    return a.step != b.step ? a.step < b.step : a.idx < b.idx; // ties broken by the enumeration order
}

// Not dominated in (step down, memory down): sorted by memory ascending, step strictly descending.
// Of two rows with the same step and memory the earlier in the enumeration stays, so the front does
// not depend on the order threads offer rows in.
class ParetoFront
{
public:
    void insert(const Candidate& c)
    {
        auto it = std::lower_bound(m_rows.begin(), m_rows.end(), c.memory,
                                   [](const Candidate& r, double m) { return r.memory < m; });
        if (it != m_rows.begin() && std::prev(it)->step <= c.step)
            return; // a row using less memory is at least as fast
        if (it != m_rows.end() && it->memory == c.memory &&
            (it->step < c.step || (it->step == c.step && !(c.idx < it->idx))))
            return; // as much memory, and faster or the same and earlier
        auto end = it;
        while (end != m_rows.end() && end->step >= c.step)
            ++end; // more (or as much) memory and no faster: dominated by c
        it = m_rows.erase(it, end);
        m_rows.insert(it, c);
    }
    const std::vector<Candidate>& rows() const { return m_rows; }

private:
    std::vector<Candidate> m_rows;
};

// The per-shape stage costs' key: what stageCosts depends on besides the request's constants.
struct ShapeKey
{
    int tp, cp, etp, ep, mb, recompute, sp, dtype, attention;
    bool operator==(const ShapeKey&) const = default;
};
struct ShapeHash
{
    std::size_t operator()(const ShapeKey& k) const
    {
        std::size_t h = 0;
        for (int v : {k.tp, k.cp, k.etp, k.ep, k.mb, k.recompute, k.sp, k.dtype, k.attention})
            h = h * 1000003u ^ std::size_t(v);
        return h;
    }
};

// The device as one (dtype, attention kernel) pair times it; null where the profile rates neither.
using Timing = std::unique_ptr<model::SizingInputs>;

// One thread's share of the search.
struct Worker
{
    PlanCounts counts;
    std::vector<Candidate> best; // a max-heap on `faster`, at most `keep` long
    ParetoFront front;
    double fasterThanYours = 0;
    std::unordered_map<ShapeKey, model::StageCosts, ShapeHash> costs;
    std::vector<std::unique_ptr<MemoCollectives>> collectives; // per Timing
};

struct Search
{
    const PlanRequest& req;
    const HardwareProfile& hw;
    const LayoutRules rules;
    const LayoutSpace& s;
    const ModelConfig& c;
    const model::Calibration& cal;
    model::ParamCounts params;
    model::FlopCounts fwd;
    std::vector<Timing> timings; // dtype-major: dtype index x attention count + attention index
    std::size_t keep = 1;
    double yoursStep = -1;       // > 0: count the layouts faster than it

    Search(const PlanRequest& r, const HardwareProfile& h, const model::Calibration& cal)
        : req(r), hw(h), rules(r.base.model, h, r.cluster, r.allow), s(r.space), c(r.base.model), cal(cal)
    {
        params = model::countParams(c);
        fwd = model::forwardFlopsPerToken(c, {r.cluster.seqLen, true});
        keep = std::size_t(std::max(1, r.top));
        for (const auto& dtype : s.dtype)
            for (const auto& kernel : s.attention) {
                try {
                    timings.push_back(std::make_unique<model::SizingInputs>(requestFor(dtype, kernel), cal));
                } catch (const std::exception&) {
                    timings.push_back(nullptr); // the dtype or kernel rule says why
                }
            }
    }

    // The search's request at one dtype and attention kernel (the layout's degrees do not matter to
    // the inputs).
    model::SizingRequest requestFor(const std::string& dtype, const std::string& kernel) const
    {
        model::SizingRequest one = req.base;
        one.hardware = hw;
        one.layout.dtype = dtype;
        one.attentionKernel = kernel;
        return one;
    }

    std::size_t timingIndex(std::size_t dtype, std::size_t attention) const
    {
        return dtype * s.attention.size() + attention;
    }

    Layout layoutOf(const Index& i) const
    {
        Layout l;
        l.tp = s.tp[i[int(Dim::Tp)]];
        l.cp = s.cp[i[int(Dim::Cp)]];
        l.pp = s.pp[i[int(Dim::Pp)]];
        l.stages = s.stages[i[int(Dim::Stages)]];
        l.vpp = s.vpp[i[int(Dim::Vpp)]];
        l.etp = s.etp[i[int(Dim::Etp)]];
        l.ep = s.ep[i[int(Dim::Ep)]];
        l.microBatch = s.microBatch[i[int(Dim::MicroBatch)]];
        l.recompute = s.recompute[i[int(Dim::Recompute)]];
        l.sp = s.sp[i[int(Dim::Sp)]] != 0;
        l.dtype = s.dtype[i[int(Dim::Dtype)]];
        l.attention = s.attention[i[int(Dim::Attention)]];
        l.zero = s.zero[i[int(Dim::Zero)]];
        l.dpOverlap = s.dpOverlap[i[int(Dim::DpOverlap)]] != 0;
        l.epOverlap = s.epOverlap[i[int(Dim::EpOverlap)]] != 0;
        l.flexDispatch = s.flexDispatch[i[int(Dim::Dispatcher)]] != 0;
        l.tpOverlap = s.tpOverlap[i[int(Dim::TpOverlap)]] != 0;
        return l;
    }

    // The full estimate of one layout, uncached: the rows shown and "yours".
    StepEstimate evaluate(const Layout& l, const ParallelConfig& p) const
    {
        const auto di = std::find(s.dtype.begin(), s.dtype.end(), l.dtype);
        const auto ai = std::find(s.attention.begin(), s.attention.end(), l.attention);
        if (di != s.dtype.end() && ai != s.attention.end()) {
            const auto& t = timings[timingIndex(std::size_t(di - s.dtype.begin()), std::size_t(ai - s.attention.begin()))];
            if (t)
                return calibrated(model::estimateStep(c, params, fwd, p, t->rates(), t->timing(), t->collectives()),
                                  t->rates());
        }
        // A layout outside the space ("yours" with another dtype or kernel): its own inputs.
        const model::SizingInputs in(requestFor(l.dtype, l.attention), cal);
        return calibrated(model::estimateStep(c, params, fwd, p, in.rates(), in.timing(), in.collectives()), in.rates());
    }

    // With --calibrate-from, the measured run's factors on every layout's step.
    StepEstimate calibrated(const StepEstimate& e, const model::DeviceRates& r) const
    {
        return req.runRates ? model::applyRunRates(e, *req.runRates, r) : e;
    }

    void offer(Worker& w, const Candidate& cand) const
    {
        if (w.best.size() < keep) {
            w.best.push_back(cand);
            std::push_heap(w.best.begin(), w.best.end(), faster);
        } else if (faster(cand, w.best.front())) {
            std::pop_heap(w.best.begin(), w.best.end(), faster);
            w.best.back() = cand;
            std::push_heap(w.best.begin(), w.best.end(), faster);
        }
        w.front.insert(cand);
        if (yoursStep > 0 && cand.step < yoursStep)
            w.fasterThanYours += 1;
    }

    // Product of the candidate counts of the dimensions after `d`.
    double below(Dim d) const
    {
        double n = 1;
        for (int i = int(d) + 1; i < kDimCount; ++i)
            n *= double(s.size(Dim(i)));
        return n;
    }

    std::size_t outerItems() const
    {
        return s.tp.size() * s.cp.size() * s.pp.size() * s.stages.size() * s.vpp.size();
    }

    void runItem(Worker& w, std::size_t item) const;
};

void Search::runItem(Worker& w, std::size_t item) const
{
    Index i{};
    auto take = [&](Dim d) {
        const auto n = s.size(d);
        i[int(d)] = std::uint16_t(item % n);
        item /= n;
    };
    // The outer five dimensions, innermost first (the item index is their mixed-radix number).
    take(Dim::Vpp);
    take(Dim::Stages);
    take(Dim::Pp);
    take(Dim::Cp);
    take(Dim::Tp);
    const double itemSize = below(Dim::Vpp);
    w.counts.enumerated += itemSize;
    const Layout l = layoutOf(i); // the outer five are this item's; the rest vary below
    int firstLayers = 0, lastLayers = 0;
    auto rule = rules.tp(l.tp);
    if (!rule)
        rule = rules.cp(l.cp);
    if (!rule)
        rule = rules.pp(l.tp, l.cp, l.pp);
    if (!rule)
        rule = rules.stages(l.pp, l.stages, firstLayers, lastLayers);
    if (!rule)
        rule = rules.vpp(l.pp, l.stages, l.vpp);
    if (rule) {
        w.counts.illegal[int(*rule)] += itemSize;
        return;
    }
    const int dp = l.dp(req.cluster);
    ParallelConfig p = req.base.layout;
    p.tp = l.tp;
    p.cp = l.cp;
    p.pp = l.pp;
    p.dp = dp;
    p.vpp = l.vpp;
    p.firstStageLayers = firstLayers;
    p.lastStageLayers = lastLayers;
    p.seqLen = req.cluster.seqLen;
    p.overlap = -1;

    // Each level: skip (counting what lies below as illegal by the rule) or go on.
    auto illegal = [&](Rule r, Dim d) { w.counts.illegal[int(r)] += below(d); };
    const auto nEtp = s.etp.size(), nEp = s.ep.size(), nMb = s.microBatch.size(), nRc = s.recompute.size(),
               nSp = s.sp.size(), nDt = s.dtype.size(), nAt = s.attention.size(), nZ = s.zero.size(),
               nDo = s.dpOverlap.size(), nEo = s.epOverlap.size(), nFx = s.flexDispatch.size(), nTo = s.tpOverlap.size();
    for (std::size_t a = 0; a < nEtp; ++a) {
        const int etp = s.etp[a];
        if (auto r = rules.etp(l.tp, etp)) { illegal(*r, Dim::Etp); continue; }
        const int etpSize = etp == 0 ? l.tp : etp;
        p.etp = etp;
        for (std::size_t b = 0; b < nEp; ++b) {
            const int ep = s.ep[b];
            if (auto r = rules.ep(l.tp, l.cp, dp, etpSize, ep)) { illegal(*r, Dim::Ep); continue; }
            p.ep = ep;
            for (std::size_t m = 0; m < nMb; ++m) {
                const int mb = s.microBatch[m];
                if (auto r = rules.microBatch(dp, l.pp, l.vpp, mb)) { illegal(*r, Dim::MicroBatch); continue; }
                p.microBatch = mb;
                p.microBatches = req.cluster.globalBatch / (mb * dp);
                for (std::size_t rc = 0; rc < nRc; ++rc) {
                    p.recompute = s.recompute[rc];
                    for (std::size_t q = 0; q < nSp; ++q) {
                        const bool sp = s.sp[q] != 0;
                        if (auto r = rules.sp(l.tp, sp)) { illegal(*r, Dim::Sp); continue; }
                        p.sequenceParallel = sp;
                        for (std::size_t dt = 0; dt < nDt; ++dt) {
                            for (std::size_t at = 0; at < nAt; ++at) {
                                const auto& timing = timings[timingIndex(dt, at)];
                                if (!timing) {
                                    illegal(rules.dtypeRated(s.dtype[dt]) ? Rule::AttentionKernel : Rule::Dtype, Dim::Attention);
                                    continue;
                                }
                                p.dtype = s.dtype[dt];
                                const ShapeKey key{l.tp, l.cp, etpSize, ep, mb, int(p.recompute), sp, int(dt), int(at)};
                                const model::StageCosts* costs = nullptr; // null: estimateStep times the shape itself
                                if (req.cacheShapes) {
                                    auto it = w.costs.find(key);
                                    if (it == w.costs.end())
                                        it = w.costs.emplace(key, model::stageCosts(c, p, timing->rates(), timing->timing())).first;
                                    costs = &it->second;
                                }
                                const model::CollectiveTimeSource& coll =
                                    req.cacheShapes ? static_cast<const model::CollectiveTimeSource&>(*w.collectives[timingIndex(dt, at)])
                                                    : timing->collectives();
                                for (std::size_t z = 0; z < nZ; ++z) {
                                    const int zero = s.zero[z];
                                    if (auto r = rules.zero(l.pp, ep, dp * l.cp, zero)) { illegal(*r, Dim::Zero); continue; }
                                    p.zeroStage = zero;
                                    const auto mem = model::trainingMemory(c, params, p);
                                    const bool fits = model::fitsMemory(mem.total(), timing->rates().hbmCapacityBytes);
                                    const auto part = largestPart(mem);
                                    for (std::size_t o = 0; o < nDo; ++o) {
                                        const bool dpOverlap = s.dpOverlap[o] != 0;
                                        if (auto r = rules.dpOverlap(dp * l.cp, dpOverlap)) { illegal(*r, Dim::DpOverlap); continue; }
                                        p.dpOverlap = dpOverlap ? -1 : 0;
                                        for (std::size_t e = 0; e < nEo; ++e) {
                                            const bool epOverlap = s.epOverlap[e] != 0;
                                            if (auto r = rules.epOverlap(ep, p.recompute, l.pp, l.vpp, epOverlap)) {
                                                illegal(*r, Dim::EpOverlap);
                                                continue;
                                            }
                                            p.epOverlap = epOverlap;
                                            for (std::size_t f = 0; f < nFx; ++f) {
                                                const bool flex = s.flexDispatch[f] != 0;
                                                if (auto r = rules.dispatcher(ep, flex)) { illegal(*r, Dim::Dispatcher); continue; }
                                                p.flexDispatch = flex;
                                                for (std::size_t t = 0; t < nTo; ++t) {
                                                    const bool tpOverlap = s.tpOverlap[t] != 0;
                                                    if (auto r = rules.tpOverlap(sp, tpOverlap)) { illegal(*r, Dim::TpOverlap); continue; }
                                                    if (!fits) {
                                                        w.counts.outOfMemory[int(part)] += 1;
                                                        continue;
                                                    }
                                                    p.tpOverlap = tpOverlap ? double(l.tp - 1) / l.tp : 0;
                                                    const auto step = calibrated(
                                                        costs ? model::estimateStep(c, params, fwd, p, timing->rates(),
                                                                                    timing->timing(), coll, *costs)
                                                              : model::estimateStep(c, params, fwd, p, timing->rates(),
                                                                                    timing->timing(), coll),
                                                        timing->rates());
                                                    w.counts.ranked += 1;
                                                    Candidate cand;
                                                    cand.step = step.stepSeconds;
                                                    cand.memory = mem.total();
                                                    cand.idx = i;
                                                    cand.idx[int(Dim::Etp)] = std::uint16_t(a);
                                                    cand.idx[int(Dim::Ep)] = std::uint16_t(b);
                                                    cand.idx[int(Dim::MicroBatch)] = std::uint16_t(m);
                                                    cand.idx[int(Dim::Recompute)] = std::uint16_t(rc);
                                                    cand.idx[int(Dim::Sp)] = std::uint16_t(q);
                                                    cand.idx[int(Dim::Dtype)] = std::uint16_t(dt);
                                                    cand.idx[int(Dim::Attention)] = std::uint16_t(at);
                                                    cand.idx[int(Dim::Zero)] = std::uint16_t(z);
                                                    cand.idx[int(Dim::DpOverlap)] = std::uint16_t(o);
                                                    cand.idx[int(Dim::EpOverlap)] = std::uint16_t(e);
                                                    cand.idx[int(Dim::Dispatcher)] = std::uint16_t(f);
                                                    cand.idx[int(Dim::TpOverlap)] = std::uint16_t(t);
                                                    offer(w, cand);
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

std::string pct(double v)
{
    char b[32];
    std::snprintf(b, sizeof b, "%.0f %%", v * 100);
    return b;
}

std::string thousands(double v)
{
    std::string s = std::to_string((long long)(v + 0.5));
    for (int i = int(s.size()) - 3; i > 0; i -= 3)
        s.insert(std::size_t(i), ",");
    return s;
}
} // namespace

double PlanCounts::illegalTotal() const
{
    double n = 0;
    for (double v : illegal)
        n += v;
    return n;
}

double PlanCounts::outOfMemoryTotal() const
{
    double n = 0;
    for (double v : outOfMemory)
        n += v;
    return n;
}

const char* toString(MemoryPart p)
{
    return model::memoryPartName(int(p));
}

MemoryPart largestPart(const model::TrainingMemory& m)
{
    int largest = 0;
    for (int i = 1; i < model::kMemoryParts; ++i)
        if (model::memoryPart(m, i) > model::memoryPart(m, largest))
            largest = i;
    return MemoryPart(largest);
}

std::optional<Rule> checkLayout(const Layout& l, const ModelConfig& c, const HardwareProfile& hw, const Cluster& cl,
                                const Allowances& allow)
{
    const LayoutRules rules(c, hw, cl, allow);
    int first = 0, last = 0;
    if (auto r = rules.tp(l.tp)) return r;
    if (auto r = rules.cp(l.cp)) return r;
    if (auto r = rules.pp(l.tp, l.cp, l.pp)) return r;
    if (auto r = rules.stages(l.pp, l.stages, first, last)) return r;
    if (auto r = rules.vpp(l.pp, l.stages, l.vpp)) return r;
    if (auto r = rules.etp(l.tp, l.etp)) return r;
    const int dp = l.dp(cl);
    if (auto r = rules.ep(l.tp, l.cp, dp, l.etpSize(), l.ep)) return r;
    if (auto r = rules.microBatch(dp, l.pp, l.vpp, l.microBatch)) return r;
    if (auto r = rules.sp(l.tp, l.sp)) return r;
    if (!rules.dtypeRated(l.dtype)) return Rule::Dtype;
    if (!rules.attentionRated(l.attention)) return Rule::AttentionKernel;
    if (auto r = rules.zero(l.pp, l.ep, dp * l.cp, l.zero)) return r;
    if (auto r = rules.dpOverlap(dp * l.cp, l.dpOverlap)) return r;
    if (auto r = rules.epOverlap(l.ep, l.recompute, l.pp, l.vpp, l.epOverlap)) return r;
    if (auto r = rules.dispatcher(l.ep, l.flexDispatch)) return r;
    if (auto r = rules.tpOverlap(l.sp, l.tpOverlap)) return r;
    return std::nullopt;
}

std::string explainGap(const StepEstimate& row, const StepEstimate& best)
{
    if (best.stepSeconds <= 0)
        return {};
    const std::pair<const char*, double> parts[] = {
        {"GEMMs", row.gemmSeconds - best.gemmSeconds},
        {"element-wise", row.elementwiseSeconds - best.elementwiseSeconds},
        {"recompute", row.recomputeSeconds - best.recomputeSeconds},
        {"pipeline bubble", row.bubbleSeconds - best.bubbleSeconds},
        {"exposed DP", row.exposedDpSeconds - best.exposedDpSeconds},
        {"exposed TP", row.exposedTpSeconds - best.exposedTpSeconds},
        {"exposed EP", row.exposedEpSeconds - best.exposedEpSeconds},
        {"exposed PP/CP", row.exposedOtherSeconds - best.exposedOtherSeconds},
        {"optimizer", row.optimizerSeconds - best.optimizerSeconds + row.gradAccumulationSeconds - best.gradAccumulationSeconds},
    };
    std::vector<std::pair<const char*, double>> grew;
    for (const auto& pr : parts)
        if (pr.second / best.stepSeconds >= 0.005)
            grew.push_back(pr);
    std::sort(grew.begin(), grew.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string out;
    for (const auto& [what, sec] : grew)
        out += std::string(out.empty() ? "" : ", ") + what + " +" + pct(sec / best.stepSeconds);
    return out;
}

PlanResult runPlan(const PlanRequest& req, const model::Calibration& cal, const PlanProgress& progress)
{
    // The device, its scale-up domain the cluster's (what --gpus-per-node says for `size`).
    HardwareProfile hw = req.base.hardware;
    hw.gpusPerNode = req.cluster.gpusPerNode;
    hw.scaleUpGpus = {double(req.cluster.gpusPerNode), "the cluster's GPUs per node"};
    if (req.cluster.gpus <= 0)
        throw std::invalid_argument("plan: the GPU count must be positive");
    if (req.cluster.globalBatch <= 0)
        throw std::invalid_argument("plan: the global batch (sequences per step) must be positive");
    if (req.cluster.seqLen <= 0)
        throw std::invalid_argument("plan: the sequence length must be positive");
    if (req.base.model.layers <= 0 || req.base.model.heads <= 0)
        throw std::invalid_argument("plan: the model has no layers or heads");
    for (int d = 0; d < kDimCount; ++d)
        if (req.space.size(Dim(d)) == 0)
            throw std::invalid_argument(std::string("plan: no candidate values for ") + dimName(Dim(d)));
    const auto started = std::chrono::steady_clock::now();
    Search search(req, hw, cal);
    PlanResult result;
    result.band = model::modelErrorBand(req.base.model.isMoe(), hw.id, req.base.layout.framework);

    // "Yours" first: its step time is what the search counts the faster layouts against.
    if (req.yours) {
        YourLayout y;
        y.layout = *req.yours;
        y.illegal = checkLayout(y.layout, req.base.model, hw, req.cluster, req.allow);
        if (!y.illegal) {
            const auto p = toParallel(y.layout, req.base.model, req.cluster, req.base.layout);
            PlanRow row;
            row.layout = y.layout;
            row.parallel = p;
            row.step = search.evaluate(y.layout, p);
            if (!row.step.fitsMemory()) {
                y.outOfMemory = model::memoryFitProblem(row.step.memory.total(), row.step.memoryCapacity) + " (largest: " +
                                toString(largestPart(row.step.memory)) + ")";
            } else {
                search.yoursStep = row.step.stepSeconds;
                y.row = row;
            }
        }
        result.yours = y;
    }

    const unsigned threads = req.threads > 0 ? req.threads : std::max(1u, std::thread::hardware_concurrency());
    result.threads = threads;
    const std::size_t items = search.outerItems();
    const double total = req.space.total();
    std::vector<Worker> workers(threads);
    for (auto& w : workers)
        for (const auto& t : search.timings)
            w.collectives.push_back(t ? std::make_unique<MemoCollectives>(t->collectives()) : nullptr);
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> done{0};
    std::atomic<bool> cancel{false};
    std::mutex mutex;
    std::condition_variable finished;
    unsigned running = threads;
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            for (std::size_t item; !cancel.load(std::memory_order_relaxed) && (item = next.fetch_add(1)) < items;) {
                search.runItem(workers[t], item);
                done.fetch_add(1, std::memory_order_relaxed);
            }
            std::lock_guard lock(mutex);
            if (--running == 0)
                finished.notify_all();
        });
    {
        std::unique_lock lock(mutex);
        while (running > 0) {
            finished.wait_for(lock, std::chrono::milliseconds(100));
            if (running > 0 && progress) {
                lock.unlock();
                const bool go = progress(total * double(done.load()) / double(std::max<std::size_t>(1, items)), total);
                lock.lock();
                if (!go)
                    cancel = true;
            }
        }
    }
    for (auto& th : pool)
        th.join();
    result.cancelled = cancel.load();

    // Merge the threads' shares.
    std::vector<Candidate> best;
    ParetoFront front;
    double fasterThanYours = 0;
    for (auto& w : workers) {
        result.counts.enumerated += w.counts.enumerated;
        result.counts.ranked += w.counts.ranked;
        for (int r = 0; r < kRuleCount; ++r)
            result.counts.illegal[r] += w.counts.illegal[r];
        for (int m = 0; m < int(MemoryPart::Count); ++m)
            result.counts.outOfMemory[m] += w.counts.outOfMemory[m];
        best.insert(best.end(), w.best.begin(), w.best.end());
        for (const auto& c : w.front.rows())
            front.insert(c);
        fasterThanYours += w.fasterThanYours;
        result.distinctShapes += w.costs.size();
    }
    std::sort(best.begin(), best.end(), faster);
    if (best.size() > search.keep)
        best.resize(search.keep);
    auto rowOf = [&](const Candidate& cand) {
        PlanRow row;
        row.layout = search.layoutOf(cand.idx);
        row.parallel = toParallel(row.layout, req.base.model, req.cluster, req.base.layout);
        row.step = search.evaluate(row.layout, row.parallel);
        return row;
    };
    const double bestStep = best.empty() ? 0 : best.front().step;
    for (std::size_t k = 0; k < best.size(); ++k) {
        auto row = rowOf(best[k]);
        row.rank = (long long)k + 1;
        row.gapToBest = bestStep > 0 ? row.step.stepSeconds / bestStep - 1 : 0;
        row.tieWithBest = row.gapToBest <= result.band.median;
        result.top.push_back(std::move(row));
    }
    // The front, fastest first; a row's rank is the number of ranked layouts faster than it + 1
    // only for the top N (the others show their gap to #1).
    const auto& fr = front.rows();
    for (auto it = fr.rbegin(); it != fr.rend(); ++it) {
        auto row = rowOf(*it);
        row.gapToBest = bestStep > 0 ? row.step.stepSeconds / bestStep - 1 : 0;
        row.tieWithBest = row.gapToBest <= result.band.median;
        for (const auto& t : result.top)
            if (toSpec(t.layout) == toSpec(row.layout))
                row.rank = t.rank;
        result.pareto.push_back(std::move(row));
    }
    if (result.yours) {
        auto& y = *result.yours;
        if (y.illegal) {
            const auto& info = ruleInfo(*y.illegal);
            y.explanation = std::string("left out: ") + info.text + " (" + info.source + ")";
        } else if (!y.outOfMemory.empty()) {
            y.explanation = "left out: " + y.outOfMemory;
        } else if (y.row) {
            y.row->rank = (long long)fasterThanYours + 1;
            y.row->gapToBest = bestStep > 0 ? y.row->step.stepSeconds / bestStep - 1 : 0;
            y.row->tieWithBest = y.row->gapToBest <= result.band.median;
            y.explanation = "#" + thousands(double(y.row->rank)) + " of " + thousands(result.counts.ranked);
            if (!result.top.empty() && y.row->gapToBest > 0) {
                y.explanation += ", " + pct(y.row->gapToBest) + " slower than #1";
                const auto why = explainGap(y.row->step, result.top.front().step);
                if (!why.empty())
                    y.explanation += ": " + why;
                if (y.row->tieWithBest)
                    y.explanation += " (within the model's error band: a tie with #1)";
            }
        }
    }
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}
} // namespace rl::plan
