#include "store/fileimport.h"

#include <algorithm>
#include <filesystem>

#include "importers/importerregistry.h"
#include "io/inputfile.h"
#include "trace/columnmapping.h"
#include "trace/traceimport.h"

namespace rl::store {
namespace fs = std::filesystem;
namespace {
bool skipped(const fs::path& p)
{
    const std::string name = p.filename().string();
    return name.starts_with('.') || name.ends_with(".db") || name.ends_with("-wal") || name.ends_with("-shm") ||
           name == "README.md";
}

// The regular files directly in dir that an import would read, sorted.
std::vector<fs::path> filesIn(const fs::path& dir)
{
    std::vector<fs::path> files;
    std::error_code ec;
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
        if (it->is_regular_file(ec) && !skipped(it->path()))
            files.push_back(it->path());
    std::sort(files.begin(), files.end());
    return files;
}

// Hash of "name sha" per file: the same ranks with the same content are the same import.
std::string folderSha(const fs::path& dir)
{
    std::string list;
    for (const auto& f : filesIn(dir))
        list += f.filename().string() + ' ' + io::sha256File(f.string()) + '\n';
    return io::sha256Text(list);
}
} // namespace

bool isTraceRankFolder(const std::string& dir)
{
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return false;
    const auto files = filesIn(dir);
    if (files.size() < 2)
        return false;
    for (const auto& f : files) {
        std::string head;
        try {
            head = io::InputFile::head(f.string());
        } catch (const std::exception&) {
            return false;
        }
        const auto found = detectFormat(head, f.filename().string());
        if (found.empty() || found.front().importer->id != "kineto")
            return false;
    }
    return true;
}

FileImportOutcome importIntoWorkspace(Workspace& ws, const std::string& path, const ImportOptions& options,
                                      const std::string& formatId)
{
    FileImportOutcome out;
    out.path = path;
    std::error_code dirEc;
    if (!fs::exists(path, dirEc)) {
        out.error = path + ": no such file or folder";
        return out;
    }
    const bool folder = fs::is_directory(path, dirEc);
    std::string sha;
    try {
        sha = folder ? folderSha(path) : io::sha256File(path);
    } catch (const std::exception& e) {
        out.error = e.what();
        return out;
    }
    if (options.trainColumns) // a user's column mapping makes another import of the same bytes
        sha = io::sha256Text(sha + "\ncolumns " + trace::mappingKey(*options.trainColumns));
    if (auto existing = ws.importedFileBySha(sha)) {
        out.ok = true;
        out.alreadyImported = true;
        out.format = existing->format;
        out.sessionIds = ws.sessionsOfFile(existing->id);
        return out;
    }
    ImportResult result = folder ? trace::importKinetoFolder(path, options) : importFile(path, options, formatId);
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
    std::int64_t size = 0;
    if (folder)
        for (const auto& f : filesIn(path))
            size += static_cast<std::int64_t>(fs::file_size(f, ec));
    else
        size = static_cast<std::int64_t>(fs::file_size(path, ec));
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
    std::vector<std::string> out;
    for (const auto& p : paths) {
        std::error_code ec;
        if (!fs::is_directory(p, ec) || isTraceRankFolder(p)) {
            out.push_back(p);
            continue;
        }
        std::vector<std::string> found;
        for (auto it = fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied, ec);
             it != fs::recursive_directory_iterator(); it.increment(ec)) {
            if (ec)
                break;
            const bool dir = it->is_directory(ec);
            if (skipped(it->path()) || (dir && isTraceRankFolder(it->path().string()))) {
                if (dir) {
                    it.disable_recursion_pending();
                    if (!skipped(it->path()))
                        found.push_back(it->path().string()); // the ranks of one job: one import
                }
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
