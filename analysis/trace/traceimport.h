#pragma once
// Kineto trace files to sessions: one file is one rank; a folder of rank files is one session
// with every rank, so stragglers can be compared across ranks.
#include <string>

#include "importers/importer.h"
#include "trace/kernelclassifier.h"
#include "trace/tracedata.h"

namespace rl::trace {

// Content sniffing for the registry (0..100).
int sniffKineto(std::string_view head, std::string_view fileName);

// Parses one rank's trace from input into data. On failure returns false with result.ok = false
// and result.error / errorAt set (byte offset of the decompressed JSON).
bool readKinetoInput(ImportInput& input, const ImportOptions& options, TraceData& data, ImportResult& result);

// One file -> one "trace" session.
ImportResult importKineto(ImportInput& input, const ImportOptions& options, const KernelClassifier& classifier = {});

// Every *.json / *.json.gz in dir (not recursive) -> one "trace" session with all ranks. All or
// nothing: the first bad file fails the import with its own error.
ImportResult importKinetoFolder(const std::string& dir, const ImportOptions& options = {},
                                const KernelClassifier& classifier = {});
} // namespace rl::trace
