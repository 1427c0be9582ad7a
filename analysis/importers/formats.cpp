#include "importers/formats.h"

namespace rl {
const std::vector<ImporterFactory>& importerFactories()
{
    static const std::vector<ImporterFactory> list{
        ridgelineJsonlImporter,
        ncclTestsImporter,
        ncclTestsJsonImporter,
        osuImporter,
        imbImporter,
        collectiveCsvImporter,
        kinetoImporter,
        trainLogImporter,
        trainLogTableImporter,
        rocblasBenchImporter,
        hipblasltBenchImporter,
        gemmCsvImporter,
        streamImporter,
        hpccImporter,
        fioImporter,
        iorImporter,
        cutlassProfilerImporter,
        babelStreamImporter,
        nvbandwidthImporter,
    };
    return list;
}
} // namespace rl
