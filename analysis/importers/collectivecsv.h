#pragma once
// Ridgeline's collective CSV: one row per point, units in the column names. The importer reads
// it back exactly (doubles are written in shortest round-trip form).
#include <ostream>
#include <vector>

#include "io/textbuffer.h"
#include "records/collectivepoint.h"

namespace rl {
// Header: op,nranks,dtype,redop,bytes,count,in_place,root,time_us,algbw_gbs,busbw_gbs,wrong, then
// group when some point has one (a --split run), so other files stay as they were.
void writeCollectiveCsv(std::ostream& out, const std::vector<CollectivePoint>& points);

// The same file one row at a time, for points streamed from the store: whether there is a group
// column must be known before the first row (Workspace::collectivePointsHaveGroups).
void writeCollectiveCsvHeader(io::TextBuffer& out, bool groups);
void writeCollectiveCsvRow(io::TextBuffer& out, const CollectivePoint& p, bool groups);

// The same on a stream.
class CollectiveCsvWriter
{
public:
    CollectiveCsvWriter(std::ostream& out, bool groups); // writes the header
    void write(const CollectivePoint& p);
    void finish(); // hands the last rows to the stream; check the stream after

private:
    io::TextBuffer m_buf;
    bool m_groups;
};
} // namespace rl
