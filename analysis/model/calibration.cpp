#include "model/calibration.h"

#include "model/attentionkernel.h"

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "model/trainingstep.h"
#include "store/kernelresults.h"
#include "store/workspace.h"
#include "units/units.h"

namespace rl::model {
namespace {
// A profile figure's basis: overridden on the command line, or the profile's cited datasheet.
// A profile figure's basis: given on the command line, measured (a measured profile's figures read
// "measured: session N ..."), or the datasheet the shipped profiles cite.
std::string profileBasis(const std::string& source)
{
    if (source == "command line")
        return source;
    return source.rfind("measured", 0) == 0 ? std::string("measured") : std::string("datasheet");
}

int elemBytesOf(const std::string& dtype)
{
    return dtype == "fp8" || dtype == "int8" ? 1 : dtype == "fp32" || dtype == "tf32" ? 4 : 2;
}
} // namespace

MeasuredGemmEfficiency storedGemmEfficiency(store::Workspace& ws, std::int64_t session)
{
    MeasuredGemmEfficiency measured;
    for (const auto& g : store::gemmPoints(ws.database(), session))
        if (g.efficiency > 0)
            measured.addPoint(double(g.m), double(g.n), double(g.k), g.efficiency);
    if (measured.empty())
        throw std::runtime_error("session " + std::to_string(session) +
                                 " has no GEMM points with an efficiency (run ridgeline-bench gemm)");
    return measured;
}

Calibration::Calibration(store::Workspace* ws, const CalibrationChoice& choice) : m_choice(choice)
{
    if (choice.readsStore() && !ws)
        throw std::invalid_argument("measured calibration needs a workspace");
    if (choice.measuresCollectives())
        m_collectives = choice.collectiveSessions.empty()
                            ? std::make_shared<const StoreCalibration>(*ws)
                            : std::make_shared<const StoreCalibration>(*ws, choice.collectiveSessions);
    if (choice.gemmSession > 0) {
        m_gemms = std::make_shared<const MeasuredGemmEfficiency>(storedGemmEfficiency(*ws, choice.gemmSession));
        const auto s = ws->session(choice.gemmSession);
        m_gemmSession = {choice.gemmSession, s ? s->title : std::string()};
    }
}

std::string Calibration::collectiveBasis(CollectiveOp op, int ranks, bool measured, double routedImbalance) const
{
    if ((measured || routedImbalance > 0) && m_collectives)
        if (const auto* s = m_collectives->sessionFor(op, ranks, routedImbalance))
            return basisLabel(*s);
    return "datasheet";
}

std::string Calibration::collectiveBases(const StepEstimate& step) const
{
    std::vector<std::pair<std::string, std::string>> groups; // basis, the collectives it timed
    for (int i = 0; i < step.commCount; ++i) {
        const auto& o = step.comm[static_cast<std::size_t>(i)];
        const std::string basis = collectiveBasis(o.op, o.ranks, o.measured, o.routedImbalance);
        auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == basis; });
        if (it == groups.end())
            groups.push_back({basis, o.what});
        else
            it->second += std::string(", ") + o.what;
    }
    std::string out;
    for (const auto& [basis, what] : groups)
        out += (out.empty() ? "" : "; ") + basis + ": " + what;
    return out.empty() ? std::string("none") : out;
}

std::vector<std::string> Calibration::assumptions(const DeviceRates& r, const StepEstimate& step) const
{
    std::vector<std::string> out;
    for (const auto& b : bases(r))
        if (b.figure == "GEMM efficiency" || b.figure == "max achievable TFLOP/s" || b.figure == "attention")
            out.push_back(b.figure + ": " + b.basis + (b.detail.empty() ? "" : " (" + b.detail + ")"));
    out.push_back("collectives: " + collectiveBases(step));
    return out;
}

std::vector<FigureBasis> Calibration::bases(const DeviceRates& r) const
{
    std::vector<FigureBasis> out;
    out.push_back({"peak TFLOP/s (" + r.dtype + ")", "datasheet", ""});
    out.push_back({"max achievable TFLOP/s", r.maxAchievablePublished ? profileBasis(r.maxAchievableSource) : "default",
                   r.maxAchievableSource});
    if (m_gemms)
        out.push_back({"GEMM efficiency", basisLabel(m_gemmSession), "measured efficiencies, interpolated by shape"});
    else if (m_choice.flatEfficiency > 0)
        out.push_back({"GEMM efficiency", "command line",
                       "flat " + units::formatPercent(m_choice.flatEfficiency, 0) + " of peak"});
    else
        out.push_back({"GEMM efficiency", "default", "by shape (roofline, tile and wave quantisation), capped at max achievable"});
    if (const auto* k = r.attentionKernel.get())
        out.push_back({"attention", !k->empty() && k->front().source.rfind("measured", 0) == 0 ? "measured" : "published measurement",
                       describeAttentionKernel(*k)});
    else
        out.push_back({"attention", "default", "fused, timed as GEMMs by shape (no attention kernel chosen)"});
    out.push_back({"scale-up links", "datasheet", std::to_string(r.gpusPerNode) + " GPUs per domain"});
    out.push_back({"scale-out network", r.nicBytesPerSec > 0 ? profileBasis(r.nicSource) : "default",
                   r.nicBytesPerSec > 0 ? r.nicSource : "none in the profile: cross-node collectives cost 0"});
    if (m_collectives) {
        for (const auto& s : m_collectives->sessions())
            out.push_back({"collectives", basisLabel(s), m_collectives->coverage(s.id)});
        out.push_back({"other collectives", "datasheet", "the profile's links with nccl-tests bus factors"});
    } else {
        out.push_back({"collectives", "datasheet", "the profile's links with nccl-tests bus factors"});
    }
    return out;
}

CalibratedSources::CalibratedSources(const Calibration& cal, const DeviceRates& r) : m_profile(r)
{
    if (cal.collectives()) {
        m_measured = cal.collectives()->collectiveSource(&m_profile);
        if (cal.choice().moeImbalance > 0)
            m_measured->setAllToAllImbalance(cal.choice().moeImbalance);
    }
    m_timing.defaultEfficiency = cal.choice().flatEfficiency;
    m_timing.measured = cal.gemms();
    m_timing.elemBytes = elemBytesOf(r.dtype);
}

const CollectiveTimeSource& CalibratedSources::collectives() const
{
    return m_measured ? static_cast<const CollectiveTimeSource&>(*m_measured) : m_profile;
}
} // namespace rl::model
