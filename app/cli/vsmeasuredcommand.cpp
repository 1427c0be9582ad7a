// ridgeline-cli vs-measured SESSION CONFIG ...: the sizing model's step for CONFIG on the given
// device and layout next to what a stored trace or training log of that run measured.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "clicommands.h"
#include "model/hardwareprofileloader.h"
#include "model/measuredrun.h"
#include "model/predictedvsmeasured.h"
#include "sizingoptions.h"
#include "store/traceresults.h"
#include "store/workspace.h"
#include "texttable.h"
#include "units/units.h"

namespace rl::cli {
namespace {
using namespace rl::model;

std::string shown(const ComparisonRow& r, double v)
{
    if (std::isnan(v))
        return "n/a";
    if (r.unit == "s")
        return units::formatTime(v * 1e6);
    if (r.unit.empty())
        return units::formatPercent(v, 1);
    char b[32];
    std::snprintf(b, sizeof b, "%.1f %s", v, r.unit.c_str());
    return b;
}

void addVsMeasuredCommand(CLI::App& app, CliContext& ctx)
{
    auto* cmd = app.add_subcommand("vs-measured", "Predicted step (sizing model) vs a stored trace or training log");
    auto session = std::make_shared<std::int64_t>(0);
    auto a = std::make_shared<StepArgs>();
    auto d = std::make_shared<DeviceArgs>();
    cmd->add_option("session", *session, "Trace or training-log session id")->required();
    addStepOptions(cmd, *a);
    addDeviceOptions(cmd, *d);
    cmd->callback([&ctx, cmd, session, a, d] {
        store::Workspace ws(ctx.workspacePath());
        const Session s = requireSession(ws, *session);
        // One of the two lists is empty for any session; the kind picks which one counts.
        const MeasuredStep measured =
            measuredFromSession(s, store::stepBreakdowns(ws.database(), s.id), store::trainSteps(ws.database(), s.id));
        const auto c = loadConfigFor(*a, ctx);
        // The run's own layout, batch, sequence length and device, where it states them; options
        // given on the command line win, and everything else is reported as assumed.
        MeasuredRun run = storedMeasuredRun(ws, s);
        std::vector<std::string> profileIds;
        for (const auto& hw : availableHardwareProfiles())
            profileIds.push_back(hw.id);
        const UserSet user{cmd->count("--parallel") > 0, cmd->count("--micro-batch") + cmd->count("--micro-batches") > 0,
                           cmd->count("--seq") > 0, !d->hardware.empty()};
        const RunInputs inputs = applyMeasuredRun(run, parallelOf(*a, c), d->hardware, profileIds, user);
        const auto p = parallelLayout(c, parallelSpec(inputs.parallel), inputs.parallel);
        DeviceArgs device = *d;
        if (!inputs.hardware.empty())
            device.hardware = inputs.hardware;
        if (device.hardware.empty() && device.peakTflops <= 0)
            throw std::runtime_error("the session does not name its device: give --hardware (e.g. h100-sxm)");
        auto assumed = inputs.assumed;
        assumed.insert(assumed.begin(), "model " + c.name + " (given)");
        SizingRequest req;
        req.model = c;
        req.hardware = resolveProfile(device, a->dtype);
        req.layout = p;
        req.attentionKernel = device.attention;
        req.calibration = calibrationChoiceOf(*a);
        const auto cal = calibrationFor(*a, ctx);
        const auto sized = evaluate(req, cal);
        const auto& r = sized.rates;
        const auto& report = sized.report;
        for (auto& basis : cal.assumptions(r, report.step)) // as the GUI panel lists them
            assumed.push_back(std::move(basis));
        const auto cmp = comparePrediction(report, measured);
        if (ctx.json) {
            nlohmann::json rows = nlohmann::json::array();
            for (const auto& row : cmp.rows)
                rows.push_back({{"quantity", row.quantity}, {"unit", row.unit}, {"predicted", row.predicted},
                                {"measured", std::isnan(row.measured) ? nlohmann::json() : nlohmann::json(row.measured)}});
            std::cout << nlohmann::json{{"session", s.id}, {"measured_source", measured.source}, {"rows", rows},
                                        {"largest_gaps", cmp.largestGaps}, {"problems", cmp.problems},
                                        {"taken_from_measurement", inputs.taken},
                                        {"assumed", assumed}, {"parallel", parallelSpec(p)},
                                        {"hardware", device.hardware}}
                             .dump(2)
                      << '\n';
            return;
        }
        std::cout << c.name << " on " << p.worldSize() << " GPUs vs session " << s.id << " (" << s.title << ")\n"
                  << "measured: " << measured.source << '\n';
        std::cout << "taken from the measurement: ";
        for (std::size_t i = 0; i < inputs.taken.size(); ++i)
            std::cout << (i ? "; " : "") << inputs.taken[i];
        std::cout << (inputs.taken.empty() ? "nothing (the session does not state its configuration)" : "") << '\n'
                  << "assumed: ";
        for (std::size_t i = 0; i < assumed.size(); ++i)
            std::cout << (i ? "; " : "") << assumed[i];
        std::cout << "\n\n";
        TextTable t({"quantity", "predicted", "measured", "measured - predicted"});
        for (const auto& row : cmp.rows) {
            const bool known = !std::isnan(row.measured);
            std::string gap = "n/a";
            if (known) {
                gap = (row.gap() >= 0 ? "+" : "-") + shown(row, std::abs(row.gap()));
            }
            t.addRow({row.quantity, shown(row, row.predicted), shown(row, row.measured), gap});
        }
        t.print(std::cout);
        for (const auto& problem : cmp.problems)
            std::cout << "\nnot shown: " << problem << '\n';
        if (!cmp.largestGaps.empty()) {
            std::cout << "\nlargest gaps:\n";
            for (const auto& g : cmp.largestGaps)
                std::cout << "  " << g << '\n';
        }
    });
}

const bool registered = registerCommand(&addVsMeasuredCommand);
} // namespace
} // namespace rl::cli
