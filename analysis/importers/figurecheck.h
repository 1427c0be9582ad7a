#pragma once
// The ranges a stored figure must be in, defined once for every importer: sizes and counts are not
// negative, times and rates are finite and not negative, and a time is more than zero wherever
// bytes moved or work was done (a 0-byte nccl-tests or IMB row has a real, small time; 0 there is
// the tool rounding). A value outside them (`-1 MiB`, `inf s`, a `nan` the store would turn into
// NULL) is a corrupt row, not a measurement.
//
// Records do not carry the line they came from, so the check happens where each importer builds a
// record and still knows the line (figuresInRange); importFile runs the same check over the whole
// result once more (dropOutOfRange) for the formats that have no lines (JSON) and for any importer
// that forgets, so nothing out of range reaches the store or a chart.
#include <string>
#include <string_view>
#include <vector>

#include "records/importresult.h"

namespace rl {

enum class FigureRange { NonNegative, Positive };

// "time -123 us is negative", "time nan us is not a number", "bandwidth inf GB/s is infinite";
// empty when the value is finite and in range.
std::string figureProblem(std::string_view figure, double value, std::string_view unit,
                          FigureRange range = FigureRange::NonNegative);

// The first figure of the record out of range, worded as above; empty when all are in range.
std::string figureProblem(const CollectivePoint& p);
std::string figureProblem(const GemmPoint& p);
std::string figureProblem(const MemBwPoint& p);
std::string figureProblem(const MemCeiling& c);
std::string figureProblem(const PeakFlopsPoint& p);
std::string figureProblem(const StoragePoint& p);
std::string figureProblem(const PairPoint& p);
// Training logs leave unprinted values NaN (kNoValue), and a NaN or infinite loss or gradient norm
// is what the log reported (the NaN-loss event reads it): only the times and rates are checked.
std::string figureProblem(const TrainStep& s);

// Where an importer builds a record from a row: true when its figures are in range, else false
// with "<problem>; row skipped" at `where` (printed as "file:line: warning: ...").
template <class Record>
bool figuresInRange(const Record& record, const SourceLocation& where, std::vector<ImportWarning>& warnings)
{
    std::string problem = figureProblem(record);
    if (problem.empty())
        return true;
    warnings.push_back({where, std::move(problem) + "; row skipped"});
    return false;
}

// Removes every record out of range from the result, with a warning naming the session and the
// record (no line: it is no longer known); a session left without records is removed.
void dropOutOfRange(ImportResult& result);
} // namespace rl
