// ridgeline-cli export SESSION... : a chart (PNG/SVG/PDF by suffix, or its data as CSV) by the
// exporter registered for its kind (chartexporters.h), or the sessions' raw points (--points, CSV
// or JSON lines) which `ridgeline-cli import` reads back unchanged.
#include <filesystem>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "chartexporters.h"
#include "chartoutput.h"
#include "clicommands.h"
#include "importers/collectivecsv.h"
#include "io/atomicfile.h"
#include "io/textbuffer.h"
#include "records/wireformat.h"
#include "store/parallelpoints.h"
#include "store/storageresults.h"
#include "store/workspace.h"
#include "views/exportformat.h"

namespace rl::cli {
namespace {
std::string chartKindsHelp()
{
    std::string kinds;
    for (const auto& e : chartExporters())
        kinds += (kinds.empty() ? "" : ", ") + e.kind;
    return kinds;
}

struct ExportArgs
{
    std::vector<std::int64_t> sessions;
    std::string chart;
    bool points = false;
    std::string output;
    CollectiveFlags collective;
    ImageSize size;
    std::string title;
    std::string hardware;
    std::string model, parallel = "dp=8";
};

// Every point of the sessions in a form the importers read back: JSON lines keep sessions apart
// (header, points, end record); CSV holds the points of one session. Points go from the store to
// the file a block at a time, read and formatted on several threads (store/parallelpoints.h): a
// 10 M-point session is written in the memory of a few blocks, at more than one core's speed.
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
        const auto write = [&f](std::string_view text) {
            f.write(text.data(), static_cast<std::streamsize>(text.size()));
            return f.good(); // a full disk stops the read too
        };
        for (auto id : a.sessions) {
            const Session s = requireSession(workspace, id);
            const auto storage = store::storagePoints(workspace.database(), id);
            if (ext == ".csv" && !storage.empty())
                throw std::runtime_error("session " + std::to_string(id) + " holds storage points: export them to .jsonl");
            if (ext == ".csv") {
                const bool groups = workspace.collectivePointsHaveGroups(id);
                io::TextBuffer header(f);
                writeCollectiveCsvHeader(header, groups);
                header.flush();
                store::formatCollectivePoints(workspace, id, [groups](io::TextBuffer& text, const CollectivePoint& p) {
                    writeCollectiveCsvRow(text, p, groups);
                }, write);
                continue;
            }
            f << wire::toJson(s).dump() << '\n';
            store::formatCollectivePoints(workspace, id, [](io::TextBuffer& text, const CollectivePoint& p) {
                wire::writeJsonLine(text, p);
            }, write);
            for (const auto& p : storage)
                f << wire::toJson(p).dump() << '\n';
            f << wire::endRecord(s.status).dump() << '\n';
        }
    });
}

void writeChart(store::Workspace& ws, const ExportArgs& a, const CliContext& ctx)
{
    const auto* exporter = findChartExporter(a.chart);
    if (!exporter)
        throw UsageError("unknown chart '" + a.chart + "': use " + chartKindsHelp());
    if (!views::exportFormatFor(a.output)) // before reading any session
        throw UsageError(views::unknownExportFormat(a.output));
    exporter->run({ws, a.sessions, a.output, a.size.width, a.size.height, a.title, a.hardware, a.model, a.parallel,
                   &ctx, a.collective});
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
    cmd->add_option("--metric", a->collective.metric, "busbw or algbw (bandwidth, scaling and compare charts)")
        ->capture_default_str();
    cmd->add_flag("--no-fits", a->collective.noFits, "Leave out the alpha-beta fit curves");
    cmd->add_option("--fit-min", a->collective.fitMin, "Smallest message size the fit uses (e.g. 1M)")->capture_default_str();
    cmd->add_option("--fit-max", a->collective.fitMax, "Largest message size the fit uses; default: no limit");
    cmd->add_option("--size", a->collective.scalingSize, "Message size compared across rank counts (scaling chart)")
        ->capture_default_str();
    addImageSizeOptions(cmd, a->size);
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
