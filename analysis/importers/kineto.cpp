// PyTorch profiler (Kineto) Chrome traces, .json or .json.gz; the work is in analysis/trace/.
#include "importers/formats.h"
#include "trace/traceimport.h"

namespace rl {
ImporterInfo kinetoImporter()
{
    return {"kineto", "PyTorch profiler (Kineto) trace", trace::sniffKineto,
            [](ImportInput& input, const ImportOptions& options) { return trace::importKineto(input, options); }};
}
} // namespace rl
