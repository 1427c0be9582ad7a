#pragma once
// `ridgeline-bench collectives --split`: which ranks run together, free of MPI so the grouping is
// unit-tested without a launcher (nccl-tests' split mode, by node or rank block). The runner splits
// MPI_COMM_WORLD by the colors given here; the labels name the groups in the points and charts.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "records/collectivepoint.h"

namespace rl {

struct SplitLevel
{
    enum class Kind { World, Node, Nodes, Ranks };
    Kind kind = Kind::World;
    int k = 1; // nodes:K, ranks:K
};

// "node", "nodes:K", "ranks:K", "world", comma separated. Throws std::invalid_argument naming the
// bad item and what is accepted.
std::vector<SplitLevel> parseSplitSpec(std::string_view spec);
std::string toString(const SplitLevel& level); // as parsed: "nodes:2"

struct SplitGroup
{
    std::string label;      // "node vm", "nodes a+b", "ranks 0-1", "world"
    std::vector<int> ranks; // world ranks, ascending
};

// The groups of one level over the ranks whose host names are given in world-rank order. Nodes are
// numbered by their lowest rank, so "nodes:2" pairs the first two hosts the launcher filled. Throws
// std::invalid_argument when K does not divide the ranks (ranks:K) or the nodes (nodes:K) evenly:
// groups of unequal size would not be comparable.
std::vector<SplitGroup> splitGroups(const SplitLevel& level, const std::vector<std::string>& hostOfRank);
// Per world rank, the index of its group in splitGroups() (MPI_Comm_split's color).
std::vector<int> groupColors(const std::vector<SplitGroup>& groups, int nranks);

// The group that stands out in a split session: at the largest size every group measured, per op
// (and in-place mode), the group with the lowest busbw against the median over the groups of its
// level (same rank count). Empty label when no op has two groups to compare.
struct SlowestGroup
{
    std::string group;
    std::string op;
    bool inPlace = false;
    int nranks = 0;
    std::int64_t bytes = 0;
    double busbwGBs = 0;
    double medianGBs = 0;
    double fraction = 0; // busbw / median
};
SlowestGroup slowestGroup(const std::vector<CollectivePoint>& points);

// What the groups of a level share: op, in-place, dtype, redop, rank count and kind of label.
using SplitLevelKey = std::tuple<std::string, bool, std::string, std::string, int, std::string>;

// The same, one point at a time, for a session too long to hold: it keeps one bus bandwidth per
// group, size and level, not the points.
class SlowestGroupFinder
{
public:
    void add(const CollectivePoint& p);
    SlowestGroup result() const;

private:
    std::map<SplitLevelKey, std::map<std::int64_t, std::map<std::string, double>>> m_busbw;
};

// The level a group label belongs to, its first word: "ranks" of "ranks 2-3", "node" of "node a";
// empty for no group. Groups of one level are the ones compared with each other.
std::string splitLevelOf(const std::string& group);

// What a job on each group size can count on: of the groups of a level (same op, variant, dtype,
// redop, rank count and kind of label) only the slowest point at each size is kept, so fits,
// peaks and calibration describe the slowest group, not a mixture of all of them. Points without
// a group pass through; the order of the kept points is kept.
std::vector<CollectivePoint> slowestGroupAtEachSize(const std::vector<CollectivePoint>& points);

// The same over a session read twice in one order (a long session is not held): see() every point
// on a first read, then keeps() says which to keep on a second. Without a group in the first read
// every point is kept and the second read can be left out.
class SlowestGroupFilter
{
public:
    void see(const CollectivePoint& p);
    bool anyGroup() const { return !m_slowest.empty(); }
    bool keeps(const CollectivePoint& p);

private:
    struct Slowest
    {
        std::int64_t ordinal = 0; // of the point in the read
        double timeUs = 0;
    };
    std::map<std::pair<SplitLevelKey, std::int64_t>, Slowest> m_slowest;
    std::int64_t m_seen = 0, m_asked = 0;
};
} // namespace rl
