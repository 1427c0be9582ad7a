// ridgeline-cli import FILE|FOLDER...: prints the new session ids; a failed file is reported with its
// name and line and does not stop the others (exit code 1 if any failed).
#include <iostream>

#include <nlohmann/json.hpp>

#include "clicommands.h"
#include "store/fileimport.h"

namespace rl::cli {
namespace {
void addImportCommand(CLI::App& app, CliContext& ctx)
{
    auto* cmd = app.add_subcommand("import", "Import benchmark outputs, traces and logs (files or folders)");
    auto paths = std::make_shared<std::vector<std::string>>();
    auto format = std::make_shared<std::string>();
    cmd->add_option("paths", *paths, "Files or folders (recursively)")->required();
    cmd->add_option("--format", *format, "Force an importer id instead of detecting the format");
    cmd->callback([&ctx, paths, format] {
        store::Workspace ws(ctx.workspacePath());
        nlohmann::json report = nlohmann::json::array();
        int failures = 0;
        for (const auto& path : store::expandImportPaths(*paths)) {
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
        if (failures)
            throw ExitCode{1};
    });
}
const bool registered = registerCommand(&addImportCommand);
} // namespace
} // namespace rl::cli
