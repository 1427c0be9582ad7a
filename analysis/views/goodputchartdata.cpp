#include "views/goodputchartdata.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "resilience/failures.h"
#include "units/duration.h"
#include "units/units.h"

namespace rl::views {
namespace {
using Role = GoodputLine::Role;

std::string percent(double fraction) { return units::formatPercent(fraction, 2); }

// The interval's display unit follows the optimum, so its label reads "42.0 min", not "2520 s".
std::pair<std::string, double> intervalUnit(double optimumS)
{
    if (optimumS < 120)
        return {"s", 1};
    if (optimumS < 3 * 3600)
        return {"min", 60};
    return {"h", 3600};
}

// Goodput axis: from a little under the lowest value (rounded down to a whole percent step) to 100 %.
void goodputRange(GoodputChartData& d)
{
    double lo = 100;
    for (const auto& l : d.lines)
        for (const auto& p : l.points)
            lo = std::min(lo, p.y);
    const double span = std::max(1.0, 100 - lo);
    const double step = span > 20 ? 10 : span > 5 ? 2 : span > 2 ? 1 : 0.5;
    d.yMin = std::max(0.0, std::floor((lo - span * 0.1) / step) * step);
    d.yMax = 100;
}

std::string xText(const GoodputChartData& d, double x)
{
    if (d.kind == GoodputChartKind::VsNodes)
        return std::to_string(int(std::lround(x))) + (std::lround(x) == 1 ? " node" : " nodes");
    return "interval " + units::formatDuration(x * d.secondsPerXUnit);
}
} // namespace

GoodputChartData goodputChart(const resilience::ResiliencePlan& plan, GoodputChartKind kind, const std::string& subject,
                              const std::string& basis)
{
    GoodputChartData d;
    d.kind = kind;
    d.yTitle = "expected goodput (useful / wall time, %)";
    d.description = "Daly's model: goodput = tau / (M e^(R/M) (e^((tau+C)/M) - 1)); checkpoint cost C " +
                    units::formatDuration(plan.checkpointCostS) + ", restart R " + units::formatDuration(plan.restartS) +
                    ", job MTBF M " + units::formatDuration(plan.jobMtbfS) + " on " + std::to_string(plan.nodes) +
                    " nodes" + (basis.empty() ? "" : "; " + basis);
    if (kind == GoodputChartKind::VsInterval) {
        const auto [unit, scale] = intervalUnit(plan.intervalS);
        d.xUnit = unit;
        d.secondsPerXUnit = scale;
        d.title = subject + ": goodput vs checkpoint interval";
        d.xTitle = "compute time between checkpoints (" + unit + ", log scale)";
        GoodputLine curve{Role::Curve, "expected goodput", {}};
        for (const auto& p : plan.vsInterval)
            curve.points.push_back({p.x / scale, p.goodput * 100});
        if (curve.points.empty()) {
            d.emptyReason = "no goodput curve: the plan has no checkpoint interval";
            return d;
        }
        d.xMin = curve.points.front().x;
        d.xMax = curve.points.back().x;
        const bool raised = plan.intervalS > plan.dalyS * (1 + 1e-9);
        GoodputLine optimum{Role::Optimum,
                            std::string(raised ? "interval used (async drain): " : "Daly optimum: ") +
                                units::formatDuration(plan.intervalS) + ", " + percent(plan.goodput),
                            {{plan.intervalS / scale, plan.goodput * 100}}};
        const double youngGoodput =
            resilience::expectedGoodput(plan.youngS, plan.checkpointCostS, plan.restartS, plan.jobMtbfS);
        GoodputLine young{Role::Young,
                          "Young sqrt(2CM): " + units::formatDuration(plan.youngS) + ", " + percent(youngGoodput),
                          {{plan.youngS / scale, youngGoodput * 100}}};
        d.lines = {std::move(curve), std::move(optimum)};
        if (plan.youngS / scale >= d.xMin && plan.youngS / scale <= d.xMax)
            d.lines.push_back(std::move(young));
    } else {
        d.xUnit = "nodes";
        d.title = subject + ": goodput vs number of nodes";
        d.xTitle = "nodes (same model and TP x PP, DP grows; log scale)";
        GoodputLine curve{Role::Curve, "goodput at Daly's interval", {}};
        for (const auto& p : plan.vsNodes)
            curve.points.push_back({p.x, p.goodput * 100});
        if (curve.points.empty()) {
            d.emptyReason = "no node count from 1 to 16384 fits this model's TP x PP layout";
            return d;
        }
        d.xMin = std::min(curve.points.front().x, double(plan.nodes));
        d.xMax = std::max(curve.points.back().x, double(plan.nodes));
        GoodputLine job{Role::PlannedJob,
                        "this job: " + std::to_string(plan.nodes) + (plan.nodes == 1 ? " node, " : " nodes, ") +
                            percent(plan.goodput),
                        {{double(plan.nodes), plan.goodput * 100}}};
        d.lines = {std::move(curve), std::move(job)};
    }
    goodputRange(d);
    return d;
}

std::string goodputHoverText(const GoodputChartData& d, std::size_t line, std::size_t point)
{
    if (line >= d.lines.size() || point >= d.lines[line].points.size())
        return {};
    const auto& l = d.lines[line];
    const auto& p = l.points[point];
    const std::string what = l.role == Role::Curve ? l.name : l.name.substr(0, l.name.find(':'));
    return what + "\n" + xText(d, p.x) + ": goodput " + percent(p.y / 100);
}

std::string goodputCsv(const resilience::ResiliencePlan& plan, std::optional<GoodputChartKind> kind)
{
    std::ostringstream out;
    out.precision(10);
    out << "series,x,goodput\n";
    if (!kind || *kind == GoodputChartKind::VsInterval) {
        for (const auto& p : plan.vsInterval)
            out << "interval_s," << p.x << ',' << p.goodput << '\n';
        out << "optimum_interval_s," << plan.intervalS << ',' << plan.goodput << '\n';
        out << "young_interval_s," << plan.youngS << ','
            << resilience::expectedGoodput(plan.youngS, plan.checkpointCostS, plan.restartS, plan.jobMtbfS) << '\n';
    }
    if (!kind || *kind == GoodputChartKind::VsNodes)
        for (const auto& p : plan.vsNodes)
            out << "nodes," << p.x << ',' << p.goodput << '\n';
    return out.str();
}
} // namespace rl::views
