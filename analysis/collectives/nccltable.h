#pragma once
// `ridgeline-bench collectives --format nccl`: the table nccl-tests 2.13+ prints (size count type
// redop root, then time algbw busbw #wrong out-of-place and in-place), one table per op, so people
// and tools that read nccl-tests logs read ours. MPI-free so it is unit-tested.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "collectives/collectivesweep.h"

namespace rl {

// nccl-tests' number cell: two decimals while they fit in `width`, then fewer, then %e.
std::string ncclNumberCell(double value, int width);
const char* ncclTypeName(DataType t); // "float", "double", "int32" as nccl-tests spells them

class NcclTableWriter
{
public:
    NcclTableWriter(std::ostream& out, const SweepParams& params, int nranks);
    // Comment lines before the first table: the sweep, then one "#  Rank ..." line per rank.
    void begin(const std::vector<std::string>& rankDescriptions, const std::string& libraryVersion);
    // Points in plan order; a row is printed once its in-place half (if planned) is in.
    void add(const PlannedPoint& planned, const CollectivePoint& point);
    // Prints a half-finished row and the open table's summary.
    void finish();

private:
    void openTable(CollectiveOp op);
    void closeTable();
    void flushRow();
    void writeHalf(const CollectivePoint& p);

    std::ostream& m_out;
    SweepParams m_params;
    int m_nranks;
    std::optional<CollectiveOp> m_tableOp;
    std::optional<PlannedPoint> m_rowPlan;
    std::optional<CollectivePoint> m_outOfPlace;
    std::optional<CollectivePoint> m_inPlace;
    std::int64_t m_tableWrong = 0;
    double m_busbwSum = 0;
    int m_busbwCount = 0;
};
} // namespace rl
