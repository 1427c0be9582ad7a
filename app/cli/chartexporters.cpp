#include "chartexporters.h"

namespace rl::cli {
namespace {
std::vector<ChartExporter>& exporters()
{
    static std::vector<ChartExporter> list;
    return list;
}
} // namespace

bool registerChartExporter(const ChartExporter& exporter)
{
    exporters().push_back(exporter);
    return true;
}

const ChartExporter* findChartExporter(const std::string& kind)
{
    for (const auto& e : exporters())
        if (e.kind == kind)
            return &e;
    return nullptr;
}

const std::vector<ChartExporter>& chartExporters() { return exporters(); }
} // namespace rl::cli
