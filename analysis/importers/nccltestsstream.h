#pragma once
// nccl-tests / rccl-tests output fed one line at a time: the importer feeds a whole file, a live
// run (ridgeline-cli run nccl-tests) feeds the tool's stdout as it prints, so both read the output
// with the same code.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "records/collectivepoint.h"
#include "records/importresult.h"

namespace rl {

class NcclTestsStream
{
public:
    // `path` names the input in messages, and its file name is the last hint of the op.
    explicit NcclTestsStream(std::string path);
    ~NcclTestsStream();
    NcclTestsStream(const NcclTestsStream&) = delete;
    NcclTestsStream& operator=(const NcclTestsStream&) = delete;

    // One line as printed (launcher prefixes allowed). Returns the points of the result row it
    // completes (out-of-place, then in-place), with op, rank count and bandwidths resolved from what
    // the run has printed so far; empty for every other line.
    std::vector<CollectivePoint> feed(std::string_view line, const SourceLocation& where);
    // The warnings so far (rows skipped, failures the tool printed).
    const std::vector<ImportWarning>& warnings() const;
    // The current run printed "NCCL failure" / "CUDA failure" / "HIP failure".
    bool reportedFailure() const;
    // The end of the input: one session per test run, as an import returns them.
    ImportResult finish();

private:
    struct State;
    std::unique_ptr<State> m;
};
} // namespace rl
