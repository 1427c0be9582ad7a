#include "importers/formats.h"

namespace rl {
const std::vector<ImporterFactory>& importerFactories()
{
    static const std::vector<ImporterFactory> list{
        ridgelineJsonlImporter,
    };
    return list;
}
} // namespace rl
