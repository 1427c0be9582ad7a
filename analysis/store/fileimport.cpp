#include "store/fileimport.h"

#include <algorithm>
#include <filesystem>

#include "importers/importerregistry.h"
#include "io/inputfile.h"

namespace rl::store {
namespace fs = std::filesystem;

FileImportOutcome importIntoWorkspace(Workspace& ws, const std::string& path, const ImportOptions& options,
                                      const std::string& formatId)
{
    FileImportOutcome out;
    out.path = path;
    std::string sha;
    try {
        sha = io::sha256File(path);
    } catch (const std::exception& e) {
        out.error = e.what();
        return out;
    }
    if (auto existing = ws.importedFileBySha(sha)) {
        out.ok = true;
        out.alreadyImported = true;
        out.format = existing->format;
        out.sessionIds = ws.sessionsOfFile(existing->id);
        return out;
    }
    ImportResult result = importFile(path, options, formatId);
    out.format = result.format;
    out.warnings = result.warnings;
    out.cancelled = result.cancelled;
    if (result.cancelled) {
        out.error = path + ": import cancelled";
        return out;
    }
    if (!result.ok) {
        out.error = result.error;
        return out;
    }
    std::error_code ec;
    const auto size = static_cast<std::int64_t>(fs::file_size(path, ec));
    const auto absolute = fs::absolute(path, ec).string();
    try {
        StoredImport stored = ws.storeImport(absolute.empty() ? path : absolute, sha, size, result);
        out.alreadyImported = stored.alreadyImported;
        out.sessionIds = stored.sessionIds;
        out.ok = true;
    } catch (const std::exception& e) {
        out.error = e.what();
    }
    return out;
}

std::vector<std::string> expandImportPaths(const std::vector<std::string>& paths)
{
    auto skip = [](const fs::path& p) {
        const std::string name = p.filename().string();
        return name.starts_with('.') || name.ends_with(".db") || name.ends_with("-wal") || name.ends_with("-shm") ||
               name == "README.md";
    };
    std::vector<std::string> out;
    for (const auto& p : paths) {
        std::error_code ec;
        if (!fs::is_directory(p, ec)) {
            out.push_back(p);
            continue;
        }
        std::vector<std::string> found;
        for (auto it = fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied, ec);
             it != fs::recursive_directory_iterator(); it.increment(ec)) {
            if (ec)
                break;
            if (skip(it->path())) {
                if (it->is_directory(ec))
                    it.disable_recursion_pending();
                continue;
            }
            if (it->is_regular_file(ec))
                found.push_back(it->path().string());
        }
        std::sort(found.begin(), found.end());
        out.insert(out.end(), found.begin(), found.end());
    }
    return out;
}
} // namespace rl::store
