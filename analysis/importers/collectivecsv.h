#pragma once
// Ridgeline's collective CSV: one row per point, units in the column names. The importer reads
// it back exactly (doubles are written in shortest round-trip form).
#include <ostream>
#include <vector>

#include "records/collectivepoint.h"

namespace rl {
// Header: op,nranks,dtype,redop,bytes,count,in_place,root,time_us,algbw_gbs,busbw_gbs,wrong, then
// group when some point has one (a --split run), so other files stay as they were.
void writeCollectiveCsv(std::ostream& out, const std::vector<CollectivePoint>& points);
} // namespace rl
