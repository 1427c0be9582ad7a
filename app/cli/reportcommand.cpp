// ridgeline-cli report SESSION... -o out.html|out.pdf: one self-contained report of the sessions
// (summary sentences, charts drawn by the GUI's chart code, tables, provenance, fits, and the
// sizing of --model on --hardware), by analysis/report and widgets/reportwriter.
#include <iostream>

#include <nlohmann/json.hpp>

#include "chartimages.h"
#include "clicommands.h"
#include "model/hardwareprofileloader.h"
#include "model/measuredrun.h"
#include "records/session.h"
#include "store/traceresults.h"
#include "model/sizingreport.h"
#include "report/report.h"
#include "reportwriter.h"
#include "sizingoptions.h"
#include "store/workspace.h"

namespace rl::cli {
namespace {

struct ReportArgs
{
    std::vector<std::int64_t> sessions;
    std::string output, title, hardware, model, parallel = "dp=8", layout = "sessions";
    std::vector<std::string> charts{"bandwidth", "latency"};
};

struct Sizing
{
    report::SizingInput input;
    charts::GemmScatter predicted; // the step's GEMMs on the roofline
};

Sizing sizingOf(const ReportArgs& a, const HardwareProfile& hw, const CliContext& ctx)
{
    StepArgs step;
    step.config = a.model;
    step.parallel = a.parallel;
    DeviceArgs device;
    device.hardware = a.hardware;
    const auto c = loadConfigFor(step, ctx);
    const auto p = parallelOf(step, c);
    const auto r = resolveDevice(device, step.dtype);
    const auto cal = calibrationFor(step, ctx);
    const model::CalibratedSources sources(cal, r);
    model::InferenceOptions inference;
    inference.batch = step.decodeBatch;
    inference.contextTokens = step.context;
    inference.promptTokens = step.context;
    report::SizingInput in;
    in.model = c.name;
    in.layout = a.parallel;
    in.gpus = p.worldSize();
    in.device = a.hardware;
    in.dtype = step.dtype;
    const auto& timing = sources.timing();
    in.sizing = model::evaluateSizing(c, p, r, timing, sources.collectives(), inference);
    return {std::move(in), charts::predictedGemms(c, p, hw, timing)};
}

// As `ridgeline-cli vs-measured SESSION --model ... --hardware ...`: the run's own layout, batch,
// sequence length and device where the session states them, --parallel and --hardware otherwise.
report::RunPrediction predictRun(store::Workspace& ws, const Session& s, const ReportArgs& a, const CliContext& ctx)
{
    using namespace rl::model;
    StepArgs step;
    step.config = a.model;
    step.parallel = a.parallel;
    const auto c = loadConfigFor(step, ctx);
    MeasuredRun run = storedMeasuredRun(ws, s);
    std::vector<std::string> profileIds;
    for (const auto& hw : availableHardwareProfiles())
        profileIds.push_back(hw.id);
    // --hardware is the cluster's device: it wins; the layout comes from the run when it says.
    const RunInputs inputs = applyMeasuredRun(run, parallelOf(step, c), a.hardware, profileIds, UserSet{false, false, false, true});
    const auto p = parallelLayout(c, parallelSpec(inputs.parallel), inputs.parallel);
    DeviceArgs device;
    device.hardware = inputs.hardware.empty() ? a.hardware : inputs.hardware;
    const auto r = resolveDevice(device, step.dtype);
    const auto cal = calibrationFor(step, ctx);
    const CalibratedSources sources(cal, r);
    report::RunPrediction out;
    out.session = s.id;
    out.layout = parallelSpec(p);
    out.device = device.hardware;
    out.taken = inputs.taken;
    out.assumed = inputs.assumed;
    out.sizing = evaluateSizing(c, p, r, sources.timing(), sources.collectives(), InferenceOptions{});
    return out;
}

void addReportCommand(CLI::App& app, CliContext& ctx)
{
    auto a = std::make_shared<ReportArgs>();
    auto* cmd = app.add_subcommand("report", "Write a self-contained report of sessions (HTML with inline SVG charts, "
                                             "or PDF): summary, charts, tables, fits, provenance, sizing");
    cmd->add_option("sessions", a->sessions, "Session ids, in the order the report shows them")->required();
    cmd->add_option("-o,--output", a->output, "Output file: .html or .pdf")->required();
    cmd->add_option("--title", a->title, "Report title");
    cmd->add_option("--hardware", a->hardware,
                    "Hardware profile (name or file): the link/NIC and HBM ceilings the percentages are of, the "
                    "roofline's ceilings, and the device --model is sized on");
    cmd->add_option("--model", a->model, "Size this model config on --hardware (config.json, saved config or preset)");
    cmd->add_option("--parallel", a->parallel, "Parallel layout for --model")->capture_default_str();
    cmd->add_option("--charts", a->charts, "Charts of the collective sessions: bandwidth, latency (comma-separated)")
        ->delimiter(',')
        ->capture_default_str()
        ->check(CLI::IsMember({"bandwidth", "latency"}));
    cmd->add_option("--template", a->layout,
                    "sessions: one section per session; cluster: collectives by tier, kernels and roofline, "
                    "the sizing of --model")
        ->capture_default_str()
        ->check(CLI::IsMember({"sessions", "cluster"}));
    cmd->callback([&ctx, a] {
        const QString path = QString::fromStdString(a->output);
        if (!charts::isReportPath(path))
            throw std::runtime_error("a report is .html or .pdf, not '" + a->output + "'");
        report::Options o;
        o.title = a->title;
        o.collectiveCharts = a->charts;
        o.layout = a->layout == "cluster" ? report::Template::Cluster : report::Template::Sessions;
        if (!a->hardware.empty())
            o.hardware = findHardwareProfile(a->hardware);
        std::optional<charts::GemmScatter> predicted;
        if (!a->model.empty()) {
            if (!o.hardware)
                throw std::runtime_error("--model needs --hardware: the device the model is sized on");
            auto sizing = sizingOf(*a, *o.hardware, ctx);
            o.sizing = std::move(sizing.input);
            predicted = std::move(sizing.predicted);
        }
        store::Workspace ws(ctx.workspacePath());
        for (auto id : a->sessions) {
            const Session s = requireSession(ws, id);
            if (o.sizing && (s.kind == kind::Trace || s.kind == kind::TrainingLog))
                o.runs.push_back(predictRun(ws, s, *a, ctx));
        }
        const auto r = report::buildReport(ws, a->sessions, o);
        const auto data = charts::loadReportCharts(ws, r);
        chartApplication();
        QStringList problems;
        const auto svgs = charts::renderReportCharts(data, o.hardware, &problems, predicted);
        for (const auto& p : problems)
            std::cerr << "warning: chart not drawn: " << p.toStdString() << '\n';
        QString error;
        if (!charts::writeReport(r, svgs, path, &error))
            throw std::runtime_error(error.toStdString());
        if (ctx.json)
        {
            nlohmann::json j;
            j["output"] = a->output;
            j["summary"] = r.summary;
            j["charts"] = svgs.size();
            std::cout << j.dump() << '\n';
        }
        else
            std::cout << "wrote " << a->output << " (" << r.sections.size() << " sections, " << svgs.size()
                      << " charts)\n";
    });
}

const bool registered = registerCommand(&addReportCommand);
} // namespace
} // namespace rl::cli
