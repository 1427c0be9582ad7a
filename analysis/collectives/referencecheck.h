#pragma once
// Points against a reference session (another cluster, an earlier run): the busbw the reference's
// alpha-beta fit expects at each point's size (same op and in-place flavour; busbw with the
// reference's rank count, since busbw and not algbw is comparable across rank counts), and whether
// the point falls below it by more than a threshold.
#include <optional>
#include <vector>

#include "records/collectivepoint.h"

namespace rl {

struct ReferenceVerdict
{
    double expectedBusGBs = 0;
    double ratio = 0;     // measured busbw / expected
    bool flagged = false; // ratio < threshold
};

// One entry per point; nullopt where the reference has no fit for the point's op and flavour.
std::vector<std::optional<ReferenceVerdict>> compareToReference(const std::vector<CollectivePoint>& points,
                                                                const std::vector<CollectivePoint>& reference,
                                                                double threshold);
} // namespace rl
