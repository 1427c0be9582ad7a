#include "views/collectivecsv.h"

#include <algorithm>
#include <sstream>

#include "io/csv.h"
#include "views/exportformat.h"

namespace rl::charts {
namespace {
// A "group" column only for --split sessions, so every other export stays as it was.
bool hasGroups(const std::vector<Curve>& curves)
{
    return std::any_of(curves.begin(), curves.end(), [](const Curve& c) { return !c.key.group.empty(); });
}

void writeSizeRows(std::ostream& out, const std::vector<SessionCurves>& sessions)
{
    const auto curves = collectCurves(sessions);
    const bool groups = hasGroups(curves);
    std::vector<std::string> header{"session_id", "session", "op", "in_place", "nranks", "dtype", "redop", "bytes",
                                    "count", "time_us", "algbw_gbs", "busbw_gbs", "wrong"};
    if (groups)
        header.push_back("group");
    io::writeCsvRow(out, header);
    for (const Curve& c : curves) {
        std::string title;
        for (const auto& s : sessions)
            if (s.session.id == c.key.sessionId)
                title = s.session.title;
        for (const auto& p : c.points) {
            std::vector<std::string> row{std::to_string(c.key.sessionId), io::csvText(title), io::csvText(p.op),
                                         p.inPlace ? "1" : "0", std::to_string(p.nranks), io::csvText(p.dtype),
                                         io::csvText(p.redop), std::to_string(p.bytes),
                                         std::to_string(p.count), io::csvNumber(p.timeUs), io::csvNumber(p.algbwGBs),
                                         io::csvNumber(p.busbwGBs), std::to_string(p.wrong)};
            if (groups)
                row.push_back(io::csvText(p.group));
            io::writeCsvRow(out, row);
        }
    }
}

void writeFitRows(std::ostream& out, const std::vector<SessionCurves>& sessions, const ChartOptions& o)
{
    out << '\n';
    const auto curves = collectCurves(sessions);
    const bool groups = hasGroups(curves);
    std::vector<std::string> header{"fit_session_id", "fit_op", "fit_in_place", "alpha_us", "beta_gbs", "rms_rel_error",
                                    "points", "min_bytes", "max_bytes"};
    if (groups)
        header.push_back("fit_group");
    io::writeCsvRow(out, header);
    for (const FitCurve& f : fitCurves(curves, o.fitMinBytes, o.fitMaxBytes)) {
        std::vector<std::string> row{std::to_string(f.key.sessionId), io::csvText(f.key.op), f.key.inPlace ? "1" : "0",
                                     io::csvNumber(f.fit.alphaUs), io::csvNumber(f.fit.betaGBs),
                                     io::csvNumber(f.fit.rmsRelError), std::to_string(f.fit.points),
                                     std::to_string(f.fit.minBytes), std::to_string(f.fit.maxBytes)};
        if (groups)
            row.push_back(io::csvText(f.key.group));
        io::writeCsvRow(out, row);
    }
}
} // namespace

// Bandwidth in the stored GB/s whatever the GUI's display unit (the _gbs column names say so): a
// file exported from the GUI reads the same as the CLI's export and as the store.
std::string collectiveCsv(ChartKind kind, const std::vector<SessionCurves>& sessions, const ChartOptions& options)
{
    std::ostringstream out;
    const std::string metric = options.metric == BandwidthMetric::BusBw ? "busbw_gbs" : "algbw_gbs";
    switch (kind) {
    case ChartKind::Bandwidth:
    case ChartKind::Latency:
        writeSizeRows(out, sessions);
        // A second table after a blank line: the fits the chart draws.
        if (options.showFits)
            writeFitRows(out, sessions, options);
        break;
    case ChartKind::Scaling:
        io::writeCsvRow(out, {"op", "nranks", "session_id", "session", "bytes", metric});
        for (const auto& l : scalingLines(sessions, options.scalingBytes, options.metric))
            for (const auto& p : l.points)
                io::writeCsvRow(out, {io::csvText(l.op), std::to_string(p.nranks), std::to_string(p.sessionId),
                                      io::csvText(p.sessionTitle),
                                      std::to_string(p.bytes), io::csvNumber(p.value)});
        break;
    case ChartKind::Compare:
        if (sessions.size() != 2)
            break;
        io::writeCsvRow(out, {"op", "in_place", "bytes", "a_" + metric, "b_" + metric, "ratio_b_over_a"});
        for (const auto& c : ratioCurves(sessions[0], sessions[1], options.metric))
            for (const auto& p : c.points)
                io::writeCsvRow(out, {io::csvText(c.op), c.inPlace ? "1" : "0", std::to_string(p.bytes), io::csvNumber(p.a), io::csvNumber(p.b),
                                      io::csvNumber(p.ratio)});
        break;
    }
    return out.str();
}

ExportedPart exportedPartFor(const std::string& path)
{
    return views::exportFormatFor(path) == views::ExportFormat::Csv ? ExportedPart::Data : ExportedPart::Image;
}

std::string collectiveExportProblem(ChartKind kind, const std::vector<SessionCurves>& sessions, ExportedPart part)
{
    if (kind == ChartKind::Compare && sessions.size() != 2)
        return "compare needs exactly two sessions, got " + std::to_string(sessions.size());
    // A long session shown from its outline while its points are read: its rows are not all there.
    if (anyOutline(sessions) && (part == ExportedPart::Data || !drawnFromOutlines(kind)))
        return "the selection's points are still being read: export once the results table shows them";
    return {};
}
} // namespace rl::charts
