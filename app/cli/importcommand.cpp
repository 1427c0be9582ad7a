// ridgeline-cli import FILE|FOLDER...: prints the new session ids; a failed file is reported with its
// name and line and does not stop the others (exit code 1 if any failed).
#include <iostream>

#include <nlohmann/json.hpp>

#include "clicommands.h"
#include "importers/importerregistry.h"
#include "store/fileimport.h"

namespace rl::cli {
namespace {
void addImportCommand(CLI::App& app, CliContext& ctx)
{
    auto* cmd = app.add_subcommand("import", "Import benchmark outputs, traces and logs (files or folders)");
    auto paths = std::make_shared<std::vector<std::string>>();
    auto format = std::make_shared<std::string>();
    cmd->add_option("paths", *paths, "Files or folders (recursively)")->required();
    std::vector<std::string> ids;
    for (const auto& imp : importers())
        ids.push_back(imp.id);
    cmd->add_option("--format", *format, "Force an importer instead of detecting the format")->check(CLI::IsMember(ids));
    cmd->callback([&ctx, paths, format] {
        store::Workspace ws(ctx.workspacePath(CliContext::Access::Create));
        ws.requireWritable("import into it");
        nlohmann::json report = nlohmann::json::array();
        int failures = 0;
        const auto expanded = store::expandImportPaths(*paths);
        for (const auto& path : expanded) {
            const auto r = store::importIntoWorkspace(ws, path, {}, *format);
            nlohmann::json entry{{"file", path}, {"ok", r.ok}, {"format", r.format},
                                 {"already_imported", r.alreadyImported}, {"session_ids", r.sessionIds}};
            nlohmann::json warnings = nlohmann::json::array();
            for (const auto& w : r.warnings) {
                warnings.push_back({{"line", w.where.line}, {"byte", w.where.byteOffset}, {"message", w.message}});
                if (!ctx.json)
                    std::cerr << describeLocation(path, w.where) << ": warning: " << w.message << '\n';
            }
            entry["warnings"] = warnings;
            if (!r.ok) {
                ++failures;
                entry["error"] = r.error;
                if (!ctx.json)
                    std::cerr << "error: " << r.error << '\n';
            } else if (!ctx.json) {
                std::cout << path << ": " << (r.alreadyImported ? "already imported as session" : "session");
                if (r.sessionIds.size() > 1)
                    std::cout << 's';
                for (auto id : r.sessionIds)
                    std::cout << ' ' << id;
                std::cout << " (" << r.format << ")\n";
            }
            report.push_back(std::move(entry));
        }
        if (ctx.json)
            std::cout << report.dump(2) << '\n';
        if (failures) {
            // Importing again is safe (stored files are recognised), so the way out is to fix and rerun.
            std::cerr << "ridgeline-cli: " << failures << " of " << expanded.size()
                      << " not imported (the others are stored): fix or leave out the paths above and run the import "
                         "again; files already imported are skipped. --format ID names a format that detection "
                         "missed (`ridgeline-cli import --help` lists them).\n";
            throw ExitCode{1};
        }
    });
}
const bool registered = registerCommand(&addImportCommand);
} // namespace
} // namespace rl::cli
