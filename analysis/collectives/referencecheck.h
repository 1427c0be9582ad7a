#pragma once
// Points against a reference session (another cluster, an earlier run): the busbw the reference's
// alpha-beta fit expects at each point's size (same op and in-place flavour; busbw with the
// reference's rank count, since busbw and not algbw is comparable across rank counts), and whether
// the point falls below it by more than a threshold.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fits/alphabetafit.h"
#include "records/collectivepoint.h"

namespace rl {

struct ReferenceVerdict
{
    double expectedBusGBs = 0;
    double ratio = 0;     // measured busbw / expected
    bool flagged = false; // ratio < threshold
};

// One point at a time, so the points compared need not be held (`results` of a long session);
// the reference's fit of each op and flavour is made once, when a point first asks for it.
class ReferenceCheck
{
public:
    // reference is held by the caller for the check's life.
    ReferenceCheck(const std::vector<CollectivePoint>& reference, double threshold);
    // nullopt where the reference has no fit for the point's op and flavour.
    std::optional<ReferenceVerdict> verdict(const CollectivePoint& p);

private:
    struct RefFit
    {
        std::optional<fits::AlphaBeta> fit;
        int ranks = 0; // of the reference's points: busbw is comparable across rank counts, algbw is not
    };
    const RefFit& fitFor(const CollectivePoint& p);

    const std::vector<CollectivePoint>& m_reference;
    double m_threshold;
    std::map<std::pair<std::string, bool>, RefFit> m_fits;
};

// One entry per point; nullopt where the reference has no fit for the point's op and flavour.
std::vector<std::optional<ReferenceVerdict>> compareToReference(const std::vector<CollectivePoint>& points,
                                                                const std::vector<CollectivePoint>& reference,
                                                                double threshold);
} // namespace rl
