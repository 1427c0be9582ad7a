// Ridgeline's own JSON lines (what ridgeline-bench prints, and `ridgeline-cli export --format jsonl`).
#include <filesystem>

#include "importers/figurecheck.h"
#include "importers/formats.h"
#include "io/linereader.h"
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
        } else if (auto* p = std::get_if<CollectivePoint>(&*rec)) {
            ensureSession();
            current->collectives.push_back(*p);
        } else if (auto* g = std::get_if<GemmPoint>(&*rec)) {
            ensureSession();
            current->gemms.push_back(*g);
        } else if (auto* m = std::get_if<MemBwPoint>(&*rec)) {
            ensureSession();
            current->membw.push_back(*m);
        } else if (auto* c = std::get_if<MemCeiling>(&*rec)) {
            ensureSession();
            current->memCeilings.push_back(*c);
        } else if (auto* f = std::get_if<PeakFlopsPoint>(&*rec)) {
            ensureSession();
            current->peaks.push_back(*f);
        } else if (auto* st = std::get_if<StoragePoint>(&*rec)) {
            ensureSession();
            current->storage.push_back(*st);
        } else if (auto* pp = std::get_if<PairPoint>(&*rec)) {
            ensureSession();
            current->pairs.push_back(*pp);
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
