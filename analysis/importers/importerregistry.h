#pragma once
// The one list of importers, content sniffing, and whole-file import (gzip-aware).
#include <string>
#include <vector>

#include "importers/importer.h"

namespace rl {

const std::vector<ImporterInfo>& importers();
const ImporterInfo* importerById(std::string_view id);

struct Detection
{
    const ImporterInfo* importer = nullptr;
    int confidence = 0;
};
// Candidates with confidence > 0, best first.
std::vector<Detection> detectFormat(std::string_view head, std::string_view fileName);

// Opens path (gzip or plain), picks the importer by sniffing unless formatId is given, parses.
// Never throws: every failure is an ImportResult with ok == false and an error naming the file.
// When several importers match equally, it reports the ambiguity (the GUI then asks the user).
ImportResult importFile(const std::string& path, const ImportOptions& options = {},
                        const std::string& formatId = {});
} // namespace rl
