// Issue 26 item 11: the bytes a block of collective points is stored as (store/collectiveblock.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "store/collectiveblock.h"

using namespace rl;
using rl::store::CollectiveBlockReader;

namespace {
// Points with every field set, with and without statistics, strings empty, long and not ASCII.
std::vector<CollectivePoint> samplePoints()
{
    CollectivePoint plain;
    plain.op = "all_reduce";
    plain.nranks = 16;
    plain.dtype = "bfloat16";
    plain.redop = "sum";
    plain.bytes = std::int64_t(1) << 34;
    plain.count = plain.bytes / 2;
    plain.root = -1;
    plain.timeUs = 81234.5;
    plain.algbwGBs = 211.5;
    plain.busbwGBs = 396.5625;
    plain.wrong = -1;
    plain.imbalance = 0;

    CollectivePoint timed = plain;
    timed.op = "all_to_allv";
    timed.inPlace = true;
    timed.root = 3;
    timed.redop = "";
    timed.imbalance = 1.75;
    timed.group = "nodes a+b, ранги 0–7"; // a user's text: any bytes
    timed.stats = CallStats{20, 5, 4, timed.timeUs, 70000.25, 90000.5, 80000.0, 89999.0, 0.0625};

    CollectivePoint empty; // every string empty, every number zero
    CollectivePoint longName = plain;
    longName.op = std::string(70000, 'x'); // past a 16-bit length
    return {plain, timed, empty, longName};
}

std::string encoded(const std::vector<CollectivePoint>& points)
{
    std::string block;
    for (const auto& p : points)
        store::appendEncodedPoint(block, p);
    return block;
}
} // namespace

TEST(CollectiveBlock, PointsRoundTripExactly)
{
    const auto points = samplePoints();
    const std::string block = encoded(points);
    CollectiveBlockReader r(block);
    CollectivePoint p;
    for (const auto& want : points) {
        ASSERT_TRUE(r.read(p));
        EXPECT_EQ(p, want); // every field, the statistics' mean (the point's time) included
    }
    EXPECT_TRUE(r.atEnd());
    EXPECT_FALSE(r.read(p));
}

TEST(CollectiveBlock, KeysAreReadWithTheRestSkipped)
{
    const auto points = samplePoints();
    const std::string block = encoded(points);
    CollectiveBlockReader r(block);
    std::string_view op;
    bool inPlace = false;
    std::int64_t bytes = 0;
    for (const auto& want : points) {
        ASSERT_TRUE(r.readKey(op, inPlace, bytes));
        EXPECT_EQ(op, want.op);
        EXPECT_EQ(inPlace, want.inPlace);
        EXPECT_EQ(bytes, want.bytes);
    }
    EXPECT_TRUE(r.atEnd());
}

// A block cut anywhere (a damaged file) decodes the points before the cut and refuses the one it
// cuts, leaving the offset at that point's start; nothing is read past the end (ASan checks).
TEST(CollectiveBlock, ACutBlockIsRefusedAtThePointItCuts)
{
    auto points = samplePoints();
    points.pop_back(); // the 70 kB name makes every cut a long loop: three points are enough
    const std::string block = encoded(points);
    std::vector<std::size_t> starts{0};
    for (std::size_t i = 1; i <= points.size(); ++i)
        starts.push_back(encoded({points.begin(), points.begin() + std::ptrdiff_t(i)}).size());
    for (std::size_t cut = 0; cut < block.size(); ++cut) {
        const std::string_view bytes(block.data(), cut);
        for (bool keysOnly : {false, true}) {
            CollectiveBlockReader r(bytes);
            CollectivePoint p;
            std::string_view op;
            bool inPlace = false;
            std::int64_t size = 0;
            std::size_t decoded = 0;
            while (keysOnly ? r.readKey(op, inPlace, size) : r.read(p))
                ++decoded;
            EXPECT_GT(starts[decoded + 1], cut) << cut;
            EXPECT_EQ(r.offset(), starts[decoded]) << "cut at " << cut;
            EXPECT_EQ(r.atEnd(), cut == starts[decoded]) << cut;
        }
    }
}

// A length that claims more than the block holds is refused, not followed.
TEST(CollectiveBlock, ALengthPastTheEndIsRefused)
{
    std::string block = encoded({samplePoints()[0]});
    block[1] = '\xff';
    block[4] = '\x7f'; // op's length: 0x7f....ff bytes
    CollectiveBlockReader r(block);
    CollectivePoint p;
    EXPECT_FALSE(r.read(p));
    EXPECT_EQ(r.offset(), 0u);
    EXPECT_FALSE(r.atEnd());
}
