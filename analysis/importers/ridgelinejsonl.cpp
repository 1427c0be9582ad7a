// Ridgeline's own JSON lines (what ridgeline-bench prints, and `ridgeline-cli export --format jsonl`).
#include <filesystem>

#include "importers/figurecheck.h"
#include "importers/formats.h"
#include "io/linereader.h"
#include "records/keptrecords.h"
#include "records/recordroute.h"
#include "records/wireformat.h"

namespace rl {
namespace {
int sniff(std::string_view head, std::string_view)
{
    if (head.find("\"record\":\"session\"") != std::string_view::npos ||
        head.find("\"record\": \"session\"") != std::string_view::npos)
        return 95;
    if (head.starts_with("{\"record\":\"collective\"") || head.starts_with("{\"record\": \"collective\""))
        return 90;
    return 0;
}

ImportResult parse(ImportInput& input, const ImportOptions& options)
{
    ImportResult result;
    ProgressTicker ticker(input, options);
    io::LineReader reader(input.stream);
    std::string line;
    SessionData* current = nullptr;
    auto ensureSession = [&] {
        if (!current) {
            result.sessions.emplace_back();
            current = &result.sessions.back();
            current->session.tool = "ridgeline-bench";
            current->session.title = std::filesystem::path(input.path).filename().string();
        }
    };
    while (reader.next(line)) {
        if (!ticker.tick()) {
            result.cancelled = true;
            return result;
        }
        std::optional<wire::Record> rec;
        try {
            rec = wire::parseLine(io::stripLauncherPrefix(line));
        } catch (const std::exception& e) {
            // A run killed mid-write leaves a truncated last line: warn, keep the rest.
            result.warnings.push_back({reader.location(), e.what()});
            continue;
        }
        if (!rec)
            continue;
        // Every measured record goes through the same range check; headers and end records have none.
        const std::string problem = std::visit(
            [](const auto& r) -> std::string {
                if constexpr (requires { figureProblem(r); })
                    return figureProblem(r);
                else
                    return {};
            },
            *rec);
        if (!problem.empty()) {
            result.warnings.push_back({reader.location(), problem + "; line skipped"});
            continue;
        }
        if (auto* h = std::get_if<wire::SessionHeader>(&*rec)) {
            result.sessions.push_back({h->session, {}});
            current = &result.sessions.back();
            if (!current->session.created.empty()) // the time the session was run, kept through export
                current->session.params[kCreatedFromParam] = "the session header";
            current->session.status = SessionStatus::Incomplete; // until its end record arrives
        } else if (auto* raw = std::get_if<wire::RawRecord>(&*rec); raw && !keptRecordKey(raw->record).empty()) {
            ensureSession();
            keepRecord(current->session.params, *raw);
        } else if (wire::isSessionData(*rec)) {
            ensureSession();
            appendRecord(*current, *rec);
        } else if (auto* e = std::get_if<wire::End>(&*rec)) {
            ensureSession();
            current->session.status = e->status;
            if (!e->message.empty())
                current->session.notes += e->message;
        }
    }
    return result;
}
} // namespace

ImporterInfo ridgelineJsonlImporter()
{
    return {"ridgeline-jsonl", "Ridgeline JSON lines", sniff, parse};
}
} // namespace rl
