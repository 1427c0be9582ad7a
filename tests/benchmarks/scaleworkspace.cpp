#include "scaleworkspace.h"

#include <cmath>
#include <random>

#include "records/collectivepoint.h"
#include "store/collectiveoutline.h"
#include "store/collectiverows.h"
#include "store/database.h"
#include "store/workspace.h"

namespace rl::scale {
namespace {
const char* const kOps[] = {"all_reduce", "all_gather", "reduce_scatter", "all_to_all"};

// A point as nccl-tests would measure it on a fast fabric: latency-bound small sizes, a
// bandwidth plateau for large ones, a few percent of noise.
struct PointMaker
{
    std::mt19937_64 rng{7};
    std::normal_distribution<double> noise{1.0, 0.03};

    void fill(CollectivePoint& p, std::int64_t bytes, double slowdown)
    {
        const double alphaUs = 20, betaGBs = 180;
        p.bytes = bytes;
        p.count = bytes / 4;
        p.timeUs = (alphaUs + double(bytes) / (betaGBs * 1e3)) * slowdown * std::max(0.5, noise(rng));
        p.algbwGBs = double(bytes) / (p.timeUs * 1e3);
        p.busbwGBs = p.algbwGBs * 2.0 * (p.nranks - 1) / p.nranks;
    }
};

std::int64_t newSession(store::Workspace& ws, const std::string& title, int nranks)
{
    Session s;
    s.kind = kind::Collectives;
    s.title = title;
    s.tool = "ridgeline-bench";
    s.host = "scale-node";
    s.params["nranks"] = nranks;
    return ws.createSession(s);
}
} // namespace

std::int64_t pointBytes(std::int64_t points) { return points * std::int64_t(sizeof(CollectivePoint)); }

std::int64_t addLongSession(store::Workspace& ws, const LongSession& spec)
{
    store::Transaction t(ws.database());
    const std::int64_t id = newSession(ws, spec.title, 16);
    store::CollectiveBlockWriter ins(ws.database(), id); // as an import stores them
    PointMaker make;
    CollectivePoint p;
    p.nranks = 16;
    p.dtype = "float32";
    const int curves = spec.ops * 2;
    const std::int64_t perCurve = spec.points / curves;
    for (int c = 0; c < curves; ++c) {
        p.op = kOps[c / 2 % 4];
        p.redop = p.op == std::string("all_reduce") || p.op == std::string("reduce_scatter") ? "sum" : "";
        p.inPlace = c % 2 == 1;
        const std::int64_t n = c + 1 == curves ? spec.points - perCurve * (curves - 1) : perCurve;
        for (std::int64_t i = 0; i < n; ++i) {
            const int k = static_cast<int>(i % spec.sizes);
            const auto bytes = static_cast<std::int64_t>(8.0 * std::pow(2.0, 31.0 * k / std::max(1, spec.sizes - 1)));
            make.fill(p, bytes & ~std::int64_t{7}, 1.0);
            ins.add(p);
        }
    }
    ins.finish();
    store::storeCollectiveOutline(ws.database(), id); // as an import stores it
    t.commit();
    return id;
}

std::vector<std::int64_t> addSplitSessions(store::Workspace& ws, const SplitSessions& spec)
{
    std::vector<std::int64_t> ids;
    PointMaker make;
    for (int s = 0; s < spec.sessions; ++s) {
        store::Transaction t(ws.database());
        const std::int64_t id = newSession(ws, spec.title + " " + std::to_string(s + 1), spec.groups * 2);
        // A run appends point by point to its last block (store/collectiverows.h): the blocks are
        // the size a run leaves, written here in one transaction.
        store::CollectiveBlockWriter ins(ws.database(), id, store::kLiveBlockPoints);
        CollectivePoint p;
        p.nranks = 2;
        p.dtype = "float32";
        // The runner prints groups in rank order, one size at a time, all groups at each size.
        for (int o = 0; o < spec.ops; ++o)
            for (int inPlace = 0; inPlace < 2; ++inPlace)
                for (int k = 0; k < spec.sizes; ++k)
                    for (int g = 0; g < spec.groups; ++g) {
                        p.op = kOps[o % 4];
                        p.redop = o % 4 == 0 || o % 4 == 2 ? "sum" : "";
                        p.inPlace = inPlace == 1;
                        p.group = "ranks " + std::to_string(2 * g) + "-" + std::to_string(2 * g + 1);
                        make.fill(p, std::int64_t{8} << k, g == 5 ? 1.6 : 1.0); // one slow group
                        ins.add(p);
                    }
        ins.finish();
        t.commit();
        ids.push_back(id);
    }
    return ids;
}
} // namespace rl::scale
