#pragma once
// Large workspaces for the scale benchmark and the scale tests (issue 26 item 11), written
// straight into the store in one transaction per session (no 10 M-point vector in memory):
//  - a long collective session: ops x in-place x a fine size sweep, repeated, e.g. 3.4 M or 10 M
//    points in a handful of curves;
//  - --split sessions: groups of ranks ("ranks 0-1", ...) x ops x in-place x sizes, e.g. 10
//    sessions of 324 curves (3,240 curves) as `ridgeline-bench collectives --split` stores them.
#include <cstdint>
#include <string>
#include <vector>

namespace rl::store {
class Workspace;
}

namespace rl::scale {

// The bytes a point's numbers take in memory (sizeof CollectivePoint without its strings'
// heap): the "points' size" memory is measured against.
std::int64_t pointBytes(std::int64_t points);

struct LongSession
{
    std::int64_t points = 3'400'000;
    int ops = 4;        // all_reduce, all_gather, reduce_scatter, all_to_all
    int sizes = 4096;   // distinct sizes, log-spaced from 8 B to 16 GiB
    std::string title = "long sweep";
};
// Returns the session id.
std::int64_t addLongSession(store::Workspace& ws, const LongSession& spec);

struct SplitSessions
{
    int sessions = 10;
    int groups = 81;   // x ops x 2 (in-place) curves per session: 81 x 2 x 2 = 324
    int ops = 2;
    int sizes = 24;    // 8 B .. 64 MiB, x2
    std::string title = "split";
};
std::vector<std::int64_t> addSplitSessions(store::Workspace& ws, const SplitSessions& spec);
} // namespace rl::scale
