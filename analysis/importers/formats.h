#pragma once
// Factories of every importer, one per format file. Add a format: write its file, declare its
// factory here, list it in importerFactories().
#include <vector>

#include "importers/importer.h"

namespace rl {
using ImporterFactory = ImporterInfo (*)();

ImporterInfo ridgelineJsonlImporter();
ImporterInfo ncclTestsImporter();      // nccltests.cpp
ImporterInfo ncclTestsJsonImporter();  // nccltestsjson.cpp
ImporterInfo osuImporter();            // osu.cpp
ImporterInfo imbImporter();            // imb.cpp
ImporterInfo collectiveCsvImporter();  // collectivecsv.cpp
ImporterInfo kinetoImporter();         // kineto.cpp
ImporterInfo trainLogImporter();       // trainlog.cpp (Megatron-LM, Megatron-DeepSpeed, torchtitan)
ImporterInfo trainLogTableImporter();  // trainlogtable.cpp (CSV / JSONL metrics)

ImporterInfo rocblasBenchImporter();   // rocblasbench.cpp
ImporterInfo hipblasltBenchImporter(); // hipblasltbench.cpp
ImporterInfo gemmCsvImporter();        // gemmcsv.cpp
ImporterInfo streamImporter();         // stream.cpp
ImporterInfo hpccImporter();           // hpcc.cpp
ImporterInfo fioImporter();            // fio.cpp (fio --output-format=json)
ImporterInfo iorImporter();            // ior.cpp (IOR text output)
ImporterInfo cutlassProfilerImporter(); // cutlassprofiler.cpp (CSV report and console blocks)
ImporterInfo babelStreamImporter();    // babelstream.cpp (table and --csv)
ImporterInfo nvbandwidthImporter();    // nvbandwidth.cpp (text and -j JSON)
const std::vector<ImporterFactory>& importerFactories();
} // namespace rl
