// ridgeline-cli report SESSION... -o out.html|out.pdf: one self-contained report of the sessions
// (summary sentences, charts drawn by the GUI's chart code, tables, provenance, fits, and the
// sizing of --model on --hardware with `size`'s training-recipe options), by analysis/report and
// widgets/reportwriter.
#include <iostream>

#include <nlohmann/json.hpp>

#include "chartimages.h"
#include "clicommands.h"
#include "io/atomicfile.h"
#include "report/report.h"
#include "report/reportsizing.h"
#include "reportwriter.h"
#include "sizingoptions.h"
#include "store/workspace.h"

namespace rl::cli {
namespace {

struct ReportArgs
{
    std::vector<std::int64_t> sessions;
    std::string output, title, hardware, model, parallel = report::SizingChoice{}.parallel, layout = "sessions";
    StepArgs recipe; // --model's training recipe, as `size` takes it (its config and --parallel unused)
    std::string attention;
    std::vector<std::string> charts{"bandwidth", "latency"};
};

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
    addRecipeOptions(cmd, a->recipe);
    addAttentionOption(cmd, a->attention);
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
            throw UsageError("a report is .html or .pdf, not '" + a->output + "'");
        io::requireOutputFolder(a->output, "-o");
        report::Options o;
        o.title = a->title;
        o.collectiveCharts = a->charts;
        o.layout = a->layout == "cluster" ? report::Template::Cluster : report::Template::Sessions;
        store::Workspace ws(ctx.workspacePath());
        for (auto id : a->sessions)
            requireSession(ws, id);
        report::SizingChoice choice;
        choice.hardware = a->hardware;
        choice.model = a->model;
        choice.parallel = a->parallel;
        choice.recipe = recipeOf(a->recipe);
        choice.attention = a->attention;
        const auto predicted = report::applySizing(ws, a->sessions, choice, o);
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
