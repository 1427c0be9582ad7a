#pragma once
// The order a session's points are drawn and queried in: op (byte order, as SQLite's BINARY
// collation), in-place, bytes; points equal on those keep the order they were stored in (id
// order), as the id that ended the former ORDER BY op, in_place, bytes, id did. Built from the
// points' keys alone, read in stored order, so the points themselves can be put straight into
// their places as they are read, never moved after.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rl::store {
class CurveOrder
{
public:
    void add(std::string_view op, bool inPlace, std::int64_t bytes); // the next point in stored order
    // Where each point added goes: slots()[i] is the place in curve order of the i-th point. Sorts
    // the keys where they are (a copy would be another 24 B a point), so it ends the order's use.
    std::vector<std::size_t> slots() &&;

private:
    struct Key
    {
        std::uint32_t opAndInPlace = 0; // op's number (then its rank in slots()), times 2, plus in-place
        std::int64_t bytes = 0;
        std::size_t index = 0;
    };
    std::vector<std::string> m_ops; // as first seen; a session has a handful
    std::vector<Key> m_keys;
};
} // namespace rl::store
