#pragma once
// Encoded collective points (store/collectiveblock.h) put in curve order (store/curveorder.h:
// op by byte, in-place, bytes, then stored order) in bounded memory, for reads that visit a whole
// session in that order (`results`, `fit`): an external merge sort. Points are added in stored
// order into a run of at most `runBytes`; a full run is ordered in memory and, when the session
// is longer than one run, written to a temporary file; the runs are then merged (equal keys in
// run order, which is stored order). A session of one run never touches a file.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rl::store {
class CurveOrderedPoints
{
public:
    explicit CurveOrderedPoints(std::size_t runBytes = std::size_t(32) << 20);
    ~CurveOrderedPoints();
    CurveOrderedPoints(const CurveOrderedPoints&) = delete;
    CurveOrderedPoints& operator=(const CurveOrderedPoints&) = delete;

    // The next point in stored order, as its encoded bytes. Throws StoreError when a temporary
    // file cannot be written (a full disk: the folder is named).
    void add(std::string_view encodedPoint);
    // Every point added, in curve order, as its encoded bytes; visit returns false to stop. Ends
    // the sort's use.
    void visit(const std::function<bool(std::string_view encodedPoint)>& visit);
    std::size_t runsWritten() const { return m_files.size(); }

private:
    struct FileCloser
    {
        void operator()(std::FILE* f) const { std::fclose(f); }
    };
    // The current run's points, in curve order: where each starts in m_run and its length.
    std::vector<std::string_view> orderedRun() const;
    void spill();

    std::size_t m_runBytes;
    std::string m_run;                      // the current run's points, one after another
    std::vector<std::uint32_t> m_starts;    // where each of them starts in m_run
    std::vector<std::unique_ptr<std::FILE, FileCloser>> m_files; // the runs written, one file each
};
} // namespace rl::store
