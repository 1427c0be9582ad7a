#include "model/sizingrequest.h"

namespace rl::model {

SizingInputs::SizingInputs(const SizingRequest& req, const Calibration& cal)
    : m_rates(deviceRates(req.hardware, req.layout.dtype, req.attentionKernel)), m_sources(cal, m_rates)
{
}

SizingReport evaluate(const SizingRequest& req, const SizingInputs& in)
{
    return evaluateSizing(req.model, req.layout, in.rates(), in.timing(), in.collectives(), req.inference);
}

Sizing evaluate(const SizingRequest& req, const Calibration& cal)
{
    const SizingInputs in(req, cal);
    return {in.rates(), evaluate(req, in)};
}
} // namespace rl::model
