// Issue 26 item 11: a session's points held once in memory, its curves slices of them, copied only
// when a live point is appended to points another holder reads; and the helpers that spread a
// selection's preparation over the cores.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "io/parallelfor.h"
#include "records/sharedpoints.h"

using namespace rl;

namespace {
std::vector<CollectivePoint> sweep(int n)
{
    std::vector<CollectivePoint> points(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        points[std::size_t(i)].op = "all_reduce";
        points[std::size_t(i)].bytes = std::int64_t{8} << i;
    }
    return points;
}
} // namespace

TEST(SharedPoints, ASliceReadsItsPartOfTheSameStore)
{
    const SharedPoints all = sweep(6);
    const SharedPoints mid = all.slice(2, 3);
    ASSERT_EQ(mid.size(), 3u);
    EXPECT_TRUE(mid.sharesStoreWith(all));
    EXPECT_EQ(&mid.front(), &all[2]) << "no copy";
    EXPECT_EQ(mid.back().bytes, 8 << 4);
    EXPECT_EQ(mid.span().size(), 3u);
    EXPECT_EQ(all.slice(4, 10).size(), 2u) << "clamped to the points there are";
    EXPECT_TRUE(all.slice(9, 1).empty());
    EXPECT_EQ(mid.slice(1, 1)[0].bytes, 8 << 3) << "a slice of a slice counts from its own start";
}

TEST(SharedPoints, AppendingToSharedPointsLeavesTheOtherHoldersAsTheyWere)
{
    SharedPoints session = sweep(4);
    const SharedPoints curve = session.slice(0, 4);
    const CollectivePoint* before = &curve[0];
    CollectivePoint live;
    live.op = "all_reduce";
    live.bytes = 1 << 20;
    session.push_back(live);
    EXPECT_EQ(session.size(), 5u);
    EXPECT_EQ(session.back().bytes, 1 << 20);
    EXPECT_FALSE(session.sharesStoreWith(curve)) << "the session took a copy";
    EXPECT_EQ(curve.size(), 4u);
    EXPECT_EQ(&curve[0], before) << "the curve still reads the points it had";

    session.push_back(live);
    EXPECT_EQ(session.size(), 6u);

    // An append to a slice copies the slice only.
    SharedPoints part = curve.slice(1, 2);
    part.push_back(live);
    ASSERT_EQ(part.size(), 3u);
    EXPECT_EQ(part[0].bytes, 8 << 1);
    EXPECT_EQ(part[2].bytes, 1 << 20);
    EXPECT_EQ(curve.size(), 4u);
    EXPECT_EQ(curve[3].bytes, 8 << 3) << "the store behind the slice is unchanged";
}

TEST(SharedPoints, AnEditChangesOnlyItsOwnCopy)
{
    SharedPoints a = sweep(3);
    const SharedPoints b = a; // a copy shares
    EXPECT_TRUE(a.sharesStoreWith(b));
    a.edit([](std::vector<CollectivePoint>& v) { v[1].timeUs = 42; v.pop_back(); });
    EXPECT_EQ(a.size(), 2u);
    EXPECT_EQ(a[1].timeUs, 42);
    EXPECT_EQ(b.size(), 3u);
    EXPECT_EQ(b[1].timeUs, 0);
    const CollectivePoint* own = &a[0];
    a.edit([](std::vector<CollectivePoint>& v) { v[0].timeUs = 7; });
    EXPECT_EQ(&a[0], own) << "held alone: edited in place";
    EXPECT_EQ(a[0].timeUs, 7);
    EXPECT_EQ(a, SharedPoints(std::vector<CollectivePoint>(a.begin(), a.end()))) << "equal by their points";
    EXPECT_FALSE(a == b);
    a.clear();
    EXPECT_TRUE(a.empty());
    EXPECT_EQ(a.begin(), a.end());
}

TEST(ParallelFor, RunsEveryPieceOnceOnSeveralThreads)
{
    constexpr std::size_t n = 1000;
    std::vector<std::atomic<int>> runs(n);
    std::mutex m;
    std::set<std::thread::id> threads;
    parallelFor(n, [&](std::size_t i) {
        runs[i]++;
        std::lock_guard lock(m);
        threads.insert(std::this_thread::get_id());
    }, 4);
    for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(runs[i].load(), 1) << i;
    EXPECT_GE(threads.size(), 1u);
    EXPECT_LE(threads.size(), 4u);

    int serial = 0;
    parallelFor(5, [&](std::size_t) { ++serial; }, 1); // one thread: the caller, in order
    EXPECT_EQ(serial, 5);
    parallelFor(0, [](std::size_t) { FAIL() << "no pieces"; });
}

TEST(ParallelFor, AFailingPieceIsRethrownAfterEveryThreadStopped)
{
    // The other thread runs pieces while the failing one unwinds (a process's first throw took
    // longer than 10,000 empty pieces under load): so many that it cannot finish them all first.
    constexpr std::size_t pieces = 100'000'000;
    std::atomic<std::size_t> ran{0};
    std::atomic<int> inside{0};
    EXPECT_THROW(parallelFor(pieces, [&](std::size_t i) {
        inside++;
        ran++;
        if (i == 3) {
            inside--;
            throw std::runtime_error("piece 3");
        }
        inside--;
    }, 2),
                 std::runtime_error);
    EXPECT_EQ(inside.load(), 0) << "a piece still ran after the failure was rethrown";
    EXPECT_LT(ran.load(), pieces) << "no more pieces handed out after the failure";
}

TEST(ParallelFor, PrefaultingKeepsWhatTheMemoryHolds)
{
    std::vector<unsigned char> buffer(std::size_t(8) << 20);
    for (std::size_t i = 0; i < buffer.size(); ++i)
        buffer[i] = static_cast<unsigned char>(i * 7);
    prefaultInParallel(buffer.data() + 3, buffer.size() - 5, 2); // unaligned ends
    for (std::size_t i = 0; i < buffer.size(); i += 4093)
        ASSERT_EQ(buffer[i], static_cast<unsigned char>(i * 7)) << i;
    prefaultInParallel(buffer.data(), 10); // less than a page: nothing to do
    prefaultInParallel(nullptr, 0);

    std::vector<CollectivePoint> fresh;
    fresh.reserve(100000);
    prefaultInParallel(fresh.data(), fresh.capacity() * sizeof(CollectivePoint));
    fresh.resize(100000);
    EXPECT_EQ(fresh.back().op, "");
}
