#pragma once
// The one import path from a file on disk to sessions in a workspace, shared by the CLI and GUI:
// hash the file, skip it when the same content is already stored, parse, store all or nothing.
#include <string>
#include <vector>

#include "importers/importer.h"
#include "store/workspace.h"

namespace rl::store {

struct FileImportOutcome
{
    std::string path;
    std::string format;
    bool ok = false;
    bool alreadyImported = false;
    bool cancelled = false;
    std::string error; // names the file and the line or byte
    std::vector<std::int64_t> sessionIds;
    std::vector<ImportWarning> warnings;
};

// `path` may also be a folder of per-rank Kineto traces (as expandImportPaths reports them): it
// becomes one trace session with every rank, identified by the hash of its files' hashes.
FileImportOutcome importIntoWorkspace(Workspace& ws, const std::string& path, const ImportOptions& options = {},
                                      const std::string& formatId = {});

// A folder whose files (two or more, not counting README/hidden ones) are all Kineto traces: the
// ranks of one profiled job.
bool isTraceRankFolder(const std::string& dir);

// Files and folders (recursively) to the sorted list of files to import; hidden files and
// workspace files (*.db, *-wal, *-shm) are skipped. Missing paths are kept so they fail clearly.
// A trace rank folder is listed as the folder itself (one import), not as its files.
std::vector<std::string> expandImportPaths(const std::vector<std::string>& paths);
} // namespace rl::store
