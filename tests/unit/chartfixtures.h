#pragma once
// Realistic collective sessions for the chart tests, stored in a temporary workspace and read back
// the way the GUI and CLI read them. Times follow exact alpha-beta models so fits can be checked:
// t(n) = alpha + n / (beta * 1e3) µs, algbw = n / t / 1e3 GB/s, busbw = algbw x busFactor.
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>
#include <unistd.h>

#include "views/chartdata.h"
#include "collectives/collectiveop.h"
#include "store/workspace.h"
#include "tempdir.h"

namespace rl::test {

inline CollectivePoint modelPoint(const std::string& op, int nranks, std::int64_t bytes, double alphaUs,
                                  double betaGBs, bool inPlace = false)
{
    CollectivePoint p;
    p.op = op;
    p.nranks = nranks;
    p.dtype = "float32";
    p.redop = op == "all_reduce" || op == "reduce_scatter" ? "sum" : "";
    p.bytes = bytes;
    p.count = bytes / 4;
    p.inPlace = inPlace;
    p.timeUs = alphaUs + static_cast<double>(bytes) / (betaGBs * 1e3);
    p.algbwGBs = static_cast<double>(bytes) / p.timeUs / 1e3;
    p.busbwGBs = p.algbwGBs * busFactor(*collectiveOpFromString(op), nranks);
    p.wrong = 0;
    return p;
}

// nccl-tests' default sweep -b 8 -e 16G -f 2 (or a shorter one).
inline std::vector<std::int64_t> sweep(std::int64_t from = 8, std::int64_t to = std::int64_t{16} << 30)
{
    std::vector<std::int64_t> s;
    for (std::int64_t b = from; b <= to; b *= 2)
        s.push_back(b);
    return s;
}

inline Session session(const std::string& title, const std::string& tool)
{
    Session s;
    s.title = title;
    s.tool = tool;
    s.host = "node01";
    s.created = "2026-11-20T10:00:00Z";
    return s;
}

// Two 8-rank sessions (H100 NVLink and MI300X xGMI flavoured numbers) and a rank sweep.
struct ChartWorkspace
{
    TempDir dir;
    store::Workspace ws{(dir.path / "charts.db").string()};
    std::int64_t h100 = 0, mi300 = 0;
    std::vector<std::int64_t> scaling; // all_reduce + all_gather at 2, 4, 8, 16 ranks

    ChartWorkspace()
    {
        SessionData a{session("H100 8 ranks", "nccl-tests"), {}};
        for (auto b : sweep()) {
            a.collectives.push_back(modelPoint("all_reduce", 8, b, 25.0, 150.0));
            a.collectives.push_back(modelPoint("all_reduce", 8, b, 24.0, 155.0, true));
        }
        for (auto b : sweep(1024, std::int64_t{1} << 30))
            a.collectives.push_back(modelPoint("all_gather", 8, b, 18.0, 160.0));
        h100 = ws.storeSession(a);

        SessionData m{session("MI300X 8 ranks", "rccl-tests"), {}};
        for (auto b : sweep())
            m.collectives.push_back(modelPoint("all_reduce", 8, b, 30.0, 120.0));
        mi300 = ws.storeSession(m);

        for (int n : {2, 4, 8, 16}) {
            SessionData s{session("sweep " + std::to_string(n) + " ranks", "ridgeline-bench"), {}};
            // The 16-rank run stopped at 128 MiB: the scaling view must take its nearest size.
            const std::int64_t top = n == 16 ? std::int64_t{128} << 20 : std::int64_t{1} << 30;
            for (auto b : sweep(std::int64_t{1} << 20, top)) {
                s.collectives.push_back(modelPoint("all_reduce", n, b, 10.0 + n, 200.0 - 5 * n));
                s.collectives.push_back(modelPoint("all_gather", n, b, 8.0 + n, 210.0 - 5 * n));
            }
            scaling.push_back(ws.storeSession(s));
        }
    }

    std::vector<charts::SessionCurves> load(const std::vector<std::int64_t>& ids)
    {
        return charts::loadSessionCurves(ws, ids);
    }
};
} // namespace rl::test
