// `ridgeline-cli export SESSION... --chart KIND` for kernel benchmarks: the roofline (GEMM points,
// trace kernels and --model's predicted GEMMs under measured and --hardware ceilings), memory bandwidth against working-set size, and GEMM
// efficiency along the swept dimension with the predicted wave quantisation. The data as CSV from
// analysis/views/kernelchartdata.h in any build; the image by the GUI's own chart code (chartimages.h).
#include <algorithm>
#include <initializer_list>
#include <sstream>
#include <stdexcept>

#include "chartexporters.h"
#include "chartimages.h"
#include "chartoutput.h"
#include "model/hardwareprofileloader.h"
#include "sizingoptions.h"
#include "views/kernelchartdata.h"

namespace rl::cli {
namespace {
std::string joinKinds(std::initializer_list<const char*> kinds)
{
    std::string s;
    std::size_t i = 0;
    for (const char* k : kinds) {
        s += (i == 0 ? "'" : i + 1 == kinds.size() ? " or '" : ", '") + std::string(k) + "'";
        ++i;
    }
    return s;
}

// Loads the sessions and checks their kinds, so a wrong id fails with what the chart needs.
charts::KernelChartData load(const ChartExportRequest& r, const std::string& chart,
                             std::initializer_list<const char*> allowed, const char* required)
{
    auto data = charts::loadKernelCharts(r.workspace, r.sessions);
    bool hasRequired = required == nullptr;
    for (const auto& s : data.sessions) {
        if (std::find_if(allowed.begin(), allowed.end(), [&](const char* k) { return s.session.kind == k; })
            == allowed.end())
            throw std::runtime_error("session " + std::to_string(s.session.id) + " is a '" + s.session.kind
                                     + "' session; --chart " + chart + " needs " + joinKinds(allowed) + " sessions");
        hasRequired = hasRequired || s.session.kind == required;
    }
    if (!hasRequired)
        throw std::runtime_error("--chart " + chart + " needs at least one '" + required + "' session");
    return data;
}

// --hardware as up to `most` profiles ("mi300x,h100-sxm"); ProfileError lists the known ids.
std::vector<HardwareProfile> hardware(const ChartExportRequest& r, std::size_t most, const std::string& chart)
{
    std::vector<HardwareProfile> out;
    std::stringstream list(r.hardware);
    std::string id;
    while (std::getline(list, id, ','))
        if (!id.empty())
            out.push_back(findHardwareProfile(id));
    if (out.size() > most)
        throw std::runtime_error("--chart " + chart + " takes " + (most == 1 ? "one --hardware profile" : "at most "
                                 + std::to_string(most) + " --hardware profiles"));
    return out;
}

std::optional<HardwareProfile> first(const std::vector<HardwareProfile>& v, std::size_t i = 0)
{
    return i < v.size() ? std::optional(v[i]) : std::nullopt;
}

void exportRoofline(const ChartExportRequest& r)
{
    const auto data = load(r, "roofline", {kind::Gemm, kind::PeakFlops, kind::MemBandwidth, kind::Trace}, nullptr);
    charts::RooflineOptions o;
    const auto profiles = hardware(r, 2, "roofline");
    o.hardware = first(profiles);
    o.compareHardware = first(profiles, 1);
    if (!r.model.empty()) {
        if (!o.hardware)
            throw std::runtime_error("--model needs --hardware: the device the GEMMs are predicted on");
        StepArgs step;
        step.config = r.model;
        step.parallel = r.parallel;
        const auto config = loadConfigFor(step, *r.context);
        model::GemmTiming timing;
        timing.defaultEfficiency = step.efficiency;
        o.predicted = charts::predictedGemms(config, parallelOf(step, config), *o.hardware, timing);
    }
    o.title = r.title;
    o.noCeilingsHint = "add a peakflops or membw session, or --hardware";
    o.noComputeHint = "add a peakflops session, or --hardware";
    writeChartOutput(r.path, [&] { return charts::rooflineCsv(data, o); }, [&] { writeRooflineImage(r, data, o); });
}

void exportMemBw(const ChartExportRequest& r)
{
    const auto data = load(r, "membw", {kind::MemBandwidth}, kind::MemBandwidth);
    writeChartOutput(r.path, [&] { return charts::memBwCsv(data); }, [&] { writeMemBwImage(r, data); });
}

void exportGemmEfficiency(const ChartExportRequest& r)
{
    const auto data = load(r, "gemm-efficiency", {kind::Gemm, kind::PeakFlops}, kind::Gemm);
    charts::GemmEfficiencyOptions o;
    o.hardware = first(hardware(r, 1, "gemm-efficiency"));
    o.title = r.title;
    writeChartOutput(r.path, [&] { return charts::gemmEfficiencyCsv(data, o); },
                     [&] { writeGemmEfficiencyImage(r, data, o); });
}

const bool registered = [] {
    registerChartExporter({"roofline", "gemm/peakflops/membw/trace sessions: GEMM points and trace kernels under "
                                       "the measured ceilings (and one or two --hardware profiles; --model adds "
                                       "a config's predicted GEMMs)",
                           &exportRoofline});
    registerChartExporter({"membw", "membw sessions: bandwidth vs working-set size per kernel and thread count, "
                                    "cache levels marked",
                           &exportMemBw});
    registerChartExporter({"gemm-efficiency", "gemm sessions: GFLOP/s along the swept dimension, with --hardware's "
                                              "predicted wave-quantisation efficiency (256x256 tiles)",
                           &exportGemmEfficiency});
    return true;
}();
} // namespace
} // namespace rl::cli
