#pragma once
// What the two goodput charts of the resilience planner show, computed from a ResiliencePlan
// (Qt-free, unit-tested; widgets/goodputchart.h draws it, ridgeline-cli exports it):
//   - goodput vs checkpoint interval, with Daly's optimum (the interval used) and Young's marked;
//   - goodput vs number of nodes for the same model (DP grows, the interval re-optimised at each
//     size), with the planned job marked.
// Axes carry their unit: the interval in s, min or h (by the optimum's size), goodput in %.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "resilience/resilienceplan.h"

namespace rl::views {

enum class GoodputChartKind { VsInterval, VsNodes };

struct GoodputChartPoint
{
    double x = 0; // display units: the interval in xUnit, or nodes
    double y = 0; // goodput, %
};

struct GoodputLine
{
    enum class Role { Curve, Optimum, Young, PlannedJob };
    Role role = Role::Curve;
    std::string name; // legend text, with the values for markers
    std::vector<GoodputChartPoint> points;
};

struct GoodputChartData
{
    GoodputChartKind kind = GoodputChartKind::VsInterval;
    std::string title;
    std::string xTitle, yTitle; // with units
    std::string xUnit;          // "s", "min", "h" or "nodes"
    double secondsPerXUnit = 1; // interval chart: display x = seconds / this
    bool logX = true;           // both curves span decades (interval/30 .. x30; 1 .. 16384 nodes)
    double xMin = 1, xMax = 10, yMin = 0, yMax = 100;
    std::vector<GoodputLine> lines; // the curve first, then its markers
    std::string description;        // the model's parameters and the inputs' basis (file metadata)
    std::string emptyReason;        // why nothing is drawn (no layout of this model fits any node count)
};

// subject: what the plan is of ("llama-3-8b, tp=2 pp=2 dp=4"), put in the title.
GoodputChartData goodputChart(const resilience::ResiliencePlan& plan, GoodputChartKind kind, const std::string& subject,
                              const std::string& basis = {});
// The hover label for a point of a line: "Daly optimum\ninterval 42.0 min: goodput 97.12 %".
std::string goodputHoverText(const GoodputChartData& data, std::size_t line, std::size_t point);
// The rows behind the charts, "series,x,goodput" (x in seconds or nodes, goodput a fraction): the
// interval curve, its optimum and Young's interval, and the nodes curve; kind picks one chart's rows.
std::string goodputCsv(const resilience::ResiliencePlan& plan, std::optional<GoodputChartKind> kind = std::nullopt);
} // namespace rl::views
