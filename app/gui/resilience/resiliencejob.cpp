#include "gui/resilience/resiliencejob.h"

#include <algorithm>
#include <exception>
#include <stdexcept>

#include "resilience/inputsources.h"
#include "store/workspace.h"
#include "units/duration.h"
#include "units/units.h"

namespace rl {
namespace {
std::string layoutText(const model::ParallelConfig& p)
{
    return "tp=" + std::to_string(p.tp) + " pp=" + std::to_string(p.pp) + " dp=" + std::to_string(p.dp) +
           (p.ep > 1 ? " ep=" + std::to_string(p.ep) : "") + (p.cp > 1 ? " cp=" + std::to_string(p.cp) : "") +
           ", ZeRO-" + std::to_string(p.zeroStage);
}

// The degrees of spec on the defaults the CLI uses (micro-batch 1, 4096 tokens): a checkpoint's
// size does not depend on them, the layout's validity does not either.
model::ParallelConfig layoutOf(const model::ModelConfig& c, const std::string& spec, int zero)
{
    model::ParallelConfig base;
    base.zeroStage = zero;
    return model::parallelLayout(c, spec, base);
}
} // namespace

ResilienceOutcome computeResilience(const ResilienceRequest& r)
{
    ResilienceOutcome out;
    out.configError = r.configError;
    if (!r.config) {
        if (out.configError.empty())
            out.configError = "choose a model";
        return out;
    }
    const auto& c = *r.config;
    bool layoutOk = true;
    try {
        out.layout = layoutOf(c, r.parallel, r.zero);
        out.subject = c.name + ", " + layoutText(out.layout);
    } catch (const std::exception& e) {
        out.layoutError = e.what();
        layoutOk = false;
    }
    auto& in = out.inputs;
    in.contents = r.contents;
    in.gpusPerNode = r.gpusPerNode;
    in.async = r.async;
    in.snapshotGBs = r.snapshotGBs;
    in.relaunchS = r.relaunchS;
    const int nodes = layoutOk ? std::max(1, (out.layout.worldSize() + r.gpusPerNode - 1) / std::max(1, r.gpusPerNode)) : 1;
    bool storageOk = true, mtbfOk = true;
    try {
        if (r.storageSession > 0) {
            store::Workspace ws(r.workspace);
            in.storage = resilience::storageSessionRates(ws, r.storageSession, "storage");
        } else {
            in.storage = resilience::typedRates(r.typedRates, r.perRankRates, "storage GB/s", "per-rank GB/s");
        }
    } catch (const std::exception& e) {
        out.storageError = e.what();
        storageOk = false;
    }
    try {
        resilience::MtbfEstimate e;
        switch (r.mtbf) {
        case ResilienceRequest::Mtbf::Typed: e = resilience::typedMtbf(r.typedMtbfHours, "node MTBF"); break;
        case ResilienceRequest::Mtbf::Table:
            e = resilience::tableMtbf(resilience::publishedFailureRates(), r.tableName, "failure table");
            break;
        case ResilienceRequest::Mtbf::Log: {
            if (!layoutOk && r.logNodes <= 0)
                throw std::invalid_argument("training log: the nodes of the logged job follow the layout, which is invalid");
            store::Workspace ws(r.workspace);
            e = resilience::trainingLogMtbf(ws, r.logSession, r.logNodes > 0 ? r.logNodes : nodes, r.logNodes <= 0,
                                            "training log");
            break;
        }
        }
        in.nodeMtbfHours = e.nodeMtbfHours;
        in.mtbfSource = e.source;
        if (r.mtbf == ResilienceRequest::Mtbf::Log && r.relaunchFromLog && e.relaunchS) {
            in.relaunchS = *e.relaunchS;
            in.mtbfSource += "; relaunch " + units::formatDuration(in.relaunchS) + " (mean restart gap in the log)";
        }
    } catch (const std::exception& e) {
        out.mtbfError = e.what();
        mtbfOk = false;
    }
    if (layoutOk && storageOk && mtbfOk) {
        try {
            out.plan = resilience::planResilience(c, out.layout, in);
        } catch (const std::exception& e) {
            out.planError = e.what();
        }
    }
    if (layoutOk && !r.reshapeTo.empty()) {
        try {
            out.reshapeLayout = layoutOf(c, r.reshapeTo, r.reshapeZero);
            resilience::ReshapeInputs ri;
            ri.contents = r.contents;
            ri.networkGBs = r.networkGBs;
            if (storageOk)
                ri.storage = in.storage;
            out.reshape = resilience::planReshape(c, out.layout, out.reshapeLayout, ri);
        } catch (const std::exception& e) {
            out.reshapeError = e.what();
        }
    }
    return out;
}

ResilienceSources readResilienceSources(const std::string& workspace)
{
    ResilienceSources s;
    try {
        store::Workspace ws(workspace);
        for (auto& session : ws.sessions()) {
            if (session.kind == kind::Storage)
                s.storage.push_back(std::move(session));
            else if (session.kind == kind::TrainingLog)
                s.trainingLogs.push_back(std::move(session));
        }
    } catch (const std::exception& e) {
        s.error = e.what();
    }
    return s;
}
} // namespace rl
