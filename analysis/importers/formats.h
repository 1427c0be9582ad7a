#pragma once
// Factories of every importer, one per format file. Add a format: write its file, declare its
// factory here, list it in importerFactories().
#include <vector>

#include "importers/importer.h"

namespace rl {
using ImporterFactory = ImporterInfo (*)();

ImporterInfo ridgelineJsonlImporter();

const std::vector<ImporterFactory>& importerFactories();
} // namespace rl
