// ridgeline-cli export SESSION... : a chart (PNG/SVG/PDF by suffix, or its data as CSV) drawn by
// the same code as the GUI's export, or the sessions' raw points (--points, CSV or JSON lines)
// which `ridgeline-cli import` reads back unchanged.
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "chartexporters.h"
#include "chartimages.h"
#include "clicommands.h"
#include "importers/collectivecsv.h"
#include "io/atomicfile.h"
#include "records/wireformat.h"
#include "store/storageresults.h"
#include "store/workspace.h"
#include "units/units.h"
#include "views/collectivecsv.h"

namespace rl::cli {
namespace {
std::string chartKindsHelp()
{
    std::string kinds = "bandwidth, latency, scaling, compare";
    for (const auto& e : chartExporters())
        kinds += ", " + e.kind;
    return kinds;
}

struct ExportArgs
{
    std::vector<std::int64_t> sessions;
    std::string chart;
    bool points = false;
    std::string output;
    std::string metric = "busbw";
    bool noFits = false;
    std::string fitMin = "0", fitMax, scalingSize = "256M";
    int width = 1200, height = 800;
    std::string title;
    std::string hardware;
    std::string model, parallel = "dp=8";
};

std::int64_t sizeOption(const std::string& text, const char* option)
{
    const auto v = units::parseBytes(text);
    if (!v || *v < 0)
        throw UsageError(std::string("bad ") + option + " '" + text + "': use sizes like 8, 64K, 1M, 2G");
    return *v;
}

// Every point of the sessions in a form the importers read back: JSON lines keep sessions apart
// (header, points, end record); CSV holds the points of one session.
void writePoints(store::Workspace& ws, const ExportArgs& a)
{
    const std::filesystem::path out(a.output);
    const std::string ext = out.extension().string();
    if (ext != ".jsonl" && ext != ".csv")
        throw UsageError("--points writes .jsonl or .csv, not '" + a.output + "'");
    if (ext == ".csv" && a.sessions.size() != 1)
        throw std::runtime_error("a CSV holds one session; export several sessions to .jsonl");
    store::Workspace& workspace = ws;
    io::writeFileAtomically(a.output, [&](std::ostream& f) { // readers never see half a file
        for (auto id : a.sessions) {
            const Session s = requireSession(workspace, id);
            const auto points = workspace.collectivePoints(id);
            const auto storage = store::storagePoints(workspace.database(), id);
            if (ext == ".csv" && !storage.empty())
                throw std::runtime_error("session " + std::to_string(id) + " holds storage points: export them to .jsonl");
            if (ext == ".csv") {
                writeCollectiveCsv(f, points);
                continue;
            }
            f << wire::toJson(s).dump() << '\n';
            for (const auto& p : points)
                f << wire::toJson(p).dump() << '\n';
            for (const auto& p : storage)
                f << wire::toJson(p).dump() << '\n';
            f << wire::endRecord(s.status).dump() << '\n';
        }
    });
}

void writeChart(store::Workspace& ws, const ExportArgs& a, const CliContext& ctx)
{
    if (const auto* exporter = findChartExporter(a.chart)) {
        exporter->run({ws, a.sessions, a.output, a.width, a.height, a.title, a.hardware, a.model, a.parallel, &ctx});
        return;
    }
    const auto kind = charts::chartKindFromString(a.chart);
    if (!kind) {
        std::string message = "unknown chart '" + a.chart + "': use " + chartKindsHelp();
        if (!chartImagesAvailable())
            message += " (" + chartImagesMissing() + ")";
        throw UsageError(message);
    }
    std::string ext = std::filesystem::path(a.output).extension().string();
    for (char& ch : ext)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const bool image = ext == ".png" || ext == ".svg" || ext == ".pdf";
    if (!image && ext != ".csv")
        throw UsageError("cannot tell the format of '" + a.output + "': use .png, .svg, .pdf or .csv");
    if (a.metric != "busbw" && a.metric != "algbw")
        throw UsageError("--metric is busbw or algbw, not '" + a.metric + "'");
    charts::ChartOptions o;
    o.metric = a.metric == "busbw" ? charts::BandwidthMetric::BusBw : charts::BandwidthMetric::AlgBw;
    o.showFits = !a.noFits;
    o.fitMinBytes = sizeOption(a.fitMin, "--fit-min");
    o.fitMaxBytes = a.fitMax.empty() ? INT64_MAX : sizeOption(a.fitMax, "--fit-max");
    o.scalingBytes = sizeOption(a.scalingSize, "--size");
    o.width = a.width;
    o.height = a.height;
    o.title = a.title;
    const auto sessions = charts::loadSessionCurves(ws, a.sessions);
    if (const std::string problem = charts::collectiveExportProblem(*kind, sessions); !problem.empty())
        throw std::runtime_error(a.output + ": " + problem);
    if (image)
        writeCollectiveChartImage(*kind, sessions, o, a.output);
    else
        io::writeFileAtomically(a.output, charts::collectiveCsv(*kind, sessions, o));
}

void addExportCommand(CLI::App& app, CliContext& ctx)
{
    auto a = std::make_shared<ExportArgs>();
    auto* cmd = app.add_subcommand("export", "Export a chart of sessions (PNG, SVG, PDF or its data as CSV), "
                                             "or their raw points (--points) for re-import");
    cmd->add_option("sessions", a->sessions, "Session ids (compare takes exactly two)")->required();
    // Registered kinds come from other files' static initialisers, all done before main().
    auto* chart = cmd->add_option("--chart", a->chart, "Chart kind: " + chartKindsHelp());
    auto* points = cmd->add_flag("--points", a->points, "Write the raw points (.jsonl, or .csv for one session)");
    chart->excludes(points);
    cmd->add_option("-o,--output", a->output, "Output file; the format follows the suffix")->required();
    cmd->add_option("--metric", a->metric, "busbw or algbw (bandwidth, scaling and compare charts)")
        ->capture_default_str();
    cmd->add_flag("--no-fits", a->noFits, "Leave out the alpha-beta fit curves");
    cmd->add_option("--fit-min", a->fitMin, "Smallest message size the fit uses (e.g. 1M)")->capture_default_str();
    cmd->add_option("--fit-max", a->fitMax, "Largest message size the fit uses; default: no limit");
    cmd->add_option("--size", a->scalingSize, "Message size compared across rank counts (scaling chart)")
        ->capture_default_str();
    cmd->add_option("--width", a->width, "Image width in pixels")->capture_default_str()->check(CLI::Range(200, 20000));
    cmd->add_option("--height", a->height, "Image height in pixels")->capture_default_str()->check(CLI::Range(150, 20000));
    cmd->add_option("--title", a->title, "Chart title; default: derived from the chart");
    cmd->add_option("--hardware", a->hardware,
                    "Hardware profile (name or file) for charts with ceilings; the roofline takes two, "
                    "comma-separated, to overlay them");
    cmd->add_option("--model", a->model,
                    "Roofline: also draw this model config's GEMMs of one training step as predicted on the "
                    "first --hardware (config.json, saved config or preset)");
    cmd->add_option("--parallel", a->parallel, "Parallel layout for --model")->capture_default_str();
    cmd->callback([&ctx, a] {
        if (a->chart.empty() && !a->points)
            throw UsageError("say what to export: --chart KIND or --points");
        io::requireOutputFolder(a->output, "-o");
        store::Workspace ws(ctx.workspacePath());
        if (a->points)
            writePoints(ws, *a);
        else
            writeChart(ws, *a, ctx);
        if (ctx.json)
            std::cout << nlohmann::json{{"output", a->output}}.dump() << '\n';
        else
            std::cout << "wrote " << a->output << '\n';
    });
}

const bool registered = registerCommand(&addExportCommand);
} // namespace
} // namespace rl::cli
