#pragma once
// Where a published run's own layout stands among every layout the search finds for its model,
// cluster, global batch and sequence (`ridgeline-cli validate --plan`): its rank, its predicted gap
// to #1, and whether #1 is within the error band (a tie the model cannot break). The search keeps the
// run's dtype, attention kernel and recipe switches (flash attention, dropout, gradient-accumulation
// fusion) and varies the layout.
#include <string>

#include "model/validation.h"
#include "plan/plansearch.h"

namespace rl::plan {

struct PublishedRank
{
    std::string id;
    std::string published;       // the run's layout, --yours syntax
    bool refused = false;
    std::string why;             // refused: the profile or row problem; or why the layout was left out
    double ranked = 0;           // layouts ranked in its space
    long long rank = 0;          // the published layout's rank (0: left out, see why)
    double gapToBest = 0;        // its predicted step / #1's - 1
    bool tieWithBest = false;    // within the error band's median
    std::string best;            // #1's layout
    std::string bestDegrees;     // "tp8 pp4 dp32 vpp2 mb1" for a table
    double seconds = 0;
};

// Throws nothing: a row that cannot be searched comes back refused, saying why.
PublishedRank rankPublishedLayout(const model::ValidationRun& run, unsigned threads = 0);
} // namespace rl::plan
