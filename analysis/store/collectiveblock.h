#pragma once
// The bytes of a block of collective points, as a row of collective_blocks holds them
// (store/collectiverows.h). One point after another, each self-contained, so a running session's
// last block grows by one point appended, and a reader that listed the block with fewer points
// finds those points unchanged. Numbers are fixed-width, little-endian:
//   u8 flags (1: in place, 2: has call statistics)
//   op, dtype, redop, group: each a u32 length and its bytes
//   i32 nranks, i32 root, i64 bytes, i64 count, i64 wrong
//   f64 time_us, algbw, busbw, imbalance
//   with statistics: i32 iters, warmup, calls_per_sample; f64 min_us, max_us, p50_us, p99_us, cv
// This is format 1 (the row's `format`): a new layout gets a new number, never a change here.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "records/collectivepoint.h"
#include "store/packedbytes.h"

namespace rl::store {
inline constexpr int kCollectiveBlockFormat = 1;

// Appends p's encoding to block.
void appendEncodedPoint(std::string& block, const CollectivePoint& p);

// Reads a block's points in order. A read that would run past the end (a damaged block) returns
// false with offset() at the point that did not decode.
class CollectiveBlockReader
{
public:
    explicit CollectiveBlockReader(std::string_view bytes) : m_in(bytes) {}
    bool atEnd() const { return m_in.atEnd(); }
    std::size_t offset() const { return m_in.offset(); }
    // The next point into p; its strings keep their buffers from one point to the next.
    bool read(CollectivePoint& p);
    // The next point's curve keys only (store/curveorder.h), the rest skipped.
    bool readKey(std::string_view& op, bool& inPlace, std::int64_t& bytes);

private:
    PackedReader m_in;
};
} // namespace rl::store
