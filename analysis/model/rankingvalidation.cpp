#include "model/rankingvalidation.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "fits/median.h"
#include "io/resourcedirs.h"

namespace rl::model {
namespace {
using json = nlohmann::json;

[[noreturn]] void fail(const std::string& where, const std::string& what)
{
    throw std::runtime_error(where + ": " + what);
}

} // namespace

std::string rankingTablePath()
{
    return (io::findResourceDir("validation") / "ranking_groups.json").string();
}

RankingTable loadRankingTable(const std::string& path)
{
    RankingTable t;
    t.path = path;
    const json root = readValidationFile(path);
    t.runs = validationRunsOf(root, path); // the file's own runs (its "runs" array), checked as any table's
    if (!root.contains("groups") || !root["groups"].is_array())
        fail(path, "expected a \"groups\" array");
    appendBundledRuns(t.runs);
    int i = 0;
    for (const auto& g : root["groups"]) {
        const std::string where = path + ": groups[" + std::to_string(i++) + "]";
        RankingGroup group;
        group.id = g.value("id", std::string{});
        group.source = g.value("source", std::string{});
        if (group.id.empty() || group.source.size() < 20)
            fail(where, "needs an id and a source (paper, table)");
        if (!g.contains("members") || !g["members"].is_array() || g["members"].size() < 2)
            fail(where, "needs two or more members (run ids)");
        for (const auto& m : g["members"]) {
            const std::string id = m.is_string() ? m.get<std::string>() : std::string{};
            const bool known = std::any_of(t.runs.begin(), t.runs.end(), [&](const auto& r) { return r.id == id; });
            if (!known)
                fail(where, "member '" + id + "' is a run of neither this file nor the bundled tables");
            group.members.push_back(id);
        }
        t.groups.push_back(std::move(group));
    }
    return t;
}

std::vector<double> averageRanks(const std::vector<double>& values)
{
    std::vector<size_t> order(values.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] < values[b]; });
    std::vector<double> ranks(values.size());
    for (size_t i = 0; i < order.size();) {
        size_t j = i;
        while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]])
            ++j;
        const double rank = 0.5 * double(i + j) + 1; // ties share the average of their positions
        for (size_t k = i; k <= j; ++k)
            ranks[order[k]] = rank;
        i = j + 1;
    }
    return ranks;
}

double spearman(const std::vector<double>& a, const std::vector<double>& b)
{
    if (a.size() != b.size() || a.size() < 2)
        return 0;
    // Pearson's correlation of the ranks (exact with ties, unlike 1 - 6Σd²/(n(n²-1))).
    const auto ra = averageRanks(a), rb = averageRanks(b);
    const double n = double(a.size());
    const double ma = std::accumulate(ra.begin(), ra.end(), 0.0) / n, mb = std::accumulate(rb.begin(), rb.end(), 0.0) / n;
    double cov = 0, va = 0, vb = 0;
    for (size_t i = 0; i < ra.size(); ++i) {
        cov += (ra[i] - ma) * (rb[i] - mb);
        va += (ra[i] - ma) * (ra[i] - ma);
        vb += (rb[i] - mb) * (rb[i] - mb);
    }
    return va > 0 && vb > 0 ? cov / std::sqrt(va * vb) : 0;
}

RankingSummary runRankingValidation(const RankingTable& table)
{
    std::map<std::string, const ValidationRun*> byId;
    for (const auto& r : table.runs)
        byId.emplace(r.id, &r); // the file's own run wins over a bundled one of the same id
    RankingSummary s;
    std::vector<double> spearmans;
    for (const auto& group : table.groups) {
        RankingGroupResult g;
        g.group = group;
        std::vector<ValidationRun> runs;
        for (const auto& id : group.members)
            runs.push_back(*byId.at(id));
        const auto validated = runValidation(runs);
        std::vector<double> measured, predicted;
        std::vector<size_t> ranIndex;
        for (size_t i = 0; i < validated.rows.size(); ++i) {
            RankedMember m;
            m.row = validated.rows[i];
            const bool oom = m.row.run.ranOutOfMemory;
            g.refused += m.row.refused;
            if (oom) {
                ++g.outOfMemory;
                g.outOfMemoryFlagged += !m.row.refused && !m.row.step.fitsMemory();
            } else if (!m.row.refused) {
                ++g.ran;
                g.ranButPredictedOut += !m.row.step.fitsMemory();
                measured.push_back(m.row.run.measuredStepSeconds);
                predicted.push_back(m.row.predictedStepSeconds);
                ranIndex.push_back(i);
            }
            g.members.push_back(std::move(m));
        }
        const auto mr = averageRanks(measured), pr = averageRanks(predicted);
        for (size_t k = 0; k < ranIndex.size(); ++k) {
            g.members[ranIndex[k]].measuredRank = int(std::floor(mr[k]));
            g.members[ranIndex[k]].predictedRank = int(std::floor(pr[k]));
        }
        // The measured fastest against what a search would recommend: the fastest of the members
        // (out-of-memory ones included) predicted to fit.
        const RankedMember* best = nullptr;
        for (const auto& m : g.members)
            if (!m.row.refused && m.row.step.fitsMemory() && (!best || m.row.predictedStepSeconds < best->row.predictedStepSeconds))
                best = &m;
        g.fastestFound = best && !best->row.run.ranOutOfMemory && best->measuredRank == 1;
        if (g.ran >= 2) {
            g.spearman = spearman(measured, predicted);
            spearmans.push_back(g.spearman);
            ++s.spearmanGroups;
        }
        if (g.ran >= 1 && g.ran + g.outOfMemory >= 2 && g.refused == 0) {
            ++s.scored;
            s.fastestFound += g.fastestFound;
        }
        s.outOfMemory += g.outOfMemory;
        s.outOfMemoryFlagged += g.outOfMemoryFlagged;
        s.ranButPredictedOut += g.ranButPredictedOut;
        s.groups.push_back(std::move(g));
    }
    s.medianSpearman = fits::median(spearmans);
    return s;
}
} // namespace rl::model
