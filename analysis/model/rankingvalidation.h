#pragma once
// Does the model order layouts as they measured? Groups of published runs in which one model was
// measured under several layouts on one cluster at one global batch
// (resources/validation/ranking_groups.json, `ridgeline-cli validate --ranking`): per group the
// measured and predicted order, Spearman's rank correlation, whether the measured fastest is the
// predicted fastest of the layouts predicted to fit, and whether layouts that ran out of memory
// are flagged (and layouts that ran are not).
#include <string>
#include <vector>

#include "model/validation.h"

namespace rl::model {

struct RankingGroup
{
    std::string id, source;
    std::vector<std::string> members; // run ids
};

struct RankingTable
{
    std::string path;
    std::vector<RankingGroup> groups;
    std::vector<ValidationRun> runs; // the file's own runs, then the bundled tables' (members resolve here)
};

// Throws std::runtime_error naming the file and group on a malformed file or a member no table has.
RankingTable loadRankingTable(const std::string& path);
std::string rankingTablePath(); // <resources>/validation/ranking_groups.json

struct RankedMember
{
    ValidationRow row;
    int measuredRank = 0;  // 1 = fastest measured; 0 when it ran out of memory
    int predictedRank = 0; // 1 = fastest predicted among the members that ran
};

struct RankingGroupResult
{
    RankingGroup group;
    std::vector<RankedMember> members; // in the file's order
    int ran = 0;                      // members with a measured step time
    double spearman = 0;              // over the members that ran (needs two or more)
    bool fastestFound = false;        // the measured fastest is the fastest of those predicted to fit
    int outOfMemory = 0, outOfMemoryFlagged = 0; // published out of memory; of them predicted not to fit
    int ranButPredictedOut = 0;                  // ran, but predicted not to fit
    int refused = 0;
};

struct RankingSummary
{
    std::vector<RankingGroupResult> groups;
    double medianSpearman = 0; // over groups with two or more members that ran
    int spearmanGroups = 0;
    int fastestFound = 0, scored = 0; // of the groups with a run and another member, none refused
    int outOfMemory = 0, outOfMemoryFlagged = 0, ranButPredictedOut = 0;
};

RankingSummary runRankingValidation(const RankingTable& table);

// Spearman's rank correlation of two equally long series (average ranks for ties); 0 when either
// is constant or shorter than 2. Ranks: 1 for the smallest value.
double spearman(const std::vector<double>& a, const std::vector<double>& b);
std::vector<double> averageRanks(const std::vector<double>& values);
} // namespace rl::model
