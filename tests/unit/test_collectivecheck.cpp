#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "collectives/collectivecheck.h"

using namespace rl;

namespace {
// Every rank's buffers, and an in-process reference of what MPI does with them.
struct Ranks
{
    PlannedPoint p;
    int n;
    std::vector<std::vector<double>> send, recv;

    Ranks(const PlannedPoint& pt, int nranks) : p(pt), n(nranks)
    {
        const auto bytes = bufferBytes({pt});
        for (int r = 0; r < n; ++r) {
            send.emplace_back(std::size_t(bytes.send / 8 + 1), 0.0);
            recv.emplace_back(std::size_t(bytes.recv / 8 + 1), 0.0);
            fillCheckBuffers(p, r, n, send[r].data(), recv[r].data());
        }
    }
    const std::vector<double>& input(int r) const { return p.inPlace ? recv[r] : send[r]; }
    double reduce(double a, double b) const
    {
        switch (p.redop.value_or(ReduceOp::Sum)) {
        case ReduceOp::Sum: return a + b;
        case ReduceOp::Max: return std::max(a, b);
        case ReduceOp::Min: return std::min(a, b);
        }
        return a;
    }
    void simulate()
    {
        const std::int64_t c = p.shape.count;
        std::vector<std::vector<double>> out = recv;
        for (int r = 0; r < n; ++r)
            switch (p.op) {
            case CollectiveOp::AllReduce:
            case CollectiveOp::ReduceScatter: {
                const std::int64_t off = p.op == CollectiveOp::ReduceScatter ? r * c : 0;
                for (std::int64_t i = 0; i < c; ++i) {
                    double acc = input(0)[off + i];
                    for (int q = 1; q < n; ++q)
                        acc = reduce(acc, input(q)[off + i]);
                    out[r][i] = acc;
                }
                break;
            }
            case CollectiveOp::AllGather:
                for (int q = 0; q < n; ++q)
                    for (std::int64_t j = 0; j < c; ++j)
                        out[r][q * c + j] = p.inPlace ? recv[q][q * c + j] : send[q][j];
                break;
            case CollectiveOp::Broadcast:
                if (r != p.root || p.inPlace)
                    for (std::int64_t i = 0; i < c; ++i)
                        out[r][i] = input(p.root)[i];
                break;
            case CollectiveOp::AllToAll:
                for (int q = 0; q < n; ++q)
                    for (std::int64_t j = 0; j < c; ++j)
                        out[r][q * c + j] = input(q)[r * c + j];
                break;
            default: break;
            }
        recv = out;
    }
    std::int64_t wrong(const PlannedPoint& expect) const
    {
        std::int64_t total = 0;
        for (int r = 0; r < n; ++r)
            total += countWrongElements(expect, r, n, send[r].data(), recv[r].data());
        return total;
    }
};

PlannedPoint point(CollectiveOp op, bool inPlace, int nranks, std::optional<ReduceOp> redop = ReduceOp::Sum)
{
    PlannedPoint p;
    p.op = op;
    p.dtype = DataType::Float64;
    p.redop = hasReduction(op) ? redop : std::nullopt;
    p.shape = pointShape(op, 8 * 200, 8, nranks);
    p.inPlace = inPlace;
    p.root = hasRoot(op) ? 1 : -1;
    return p;
}
} // namespace

TEST(CollectiveCheck, InputsAreSmallExactIntegers)
{
    for (int r = 0; r < 70; ++r)
        for (std::int64_t i = 0; i < 100; ++i) {
            const double v = checkInputValue(r, i);
            EXPECT_EQ(v, double(int(v)));
            EXPECT_LE(std::abs(v), 15.0);
        }
    EXPECT_NE(checkInputValue(0, 0), checkInputValue(1, 0)); // ranks differ, so a swap is caught
    EXPECT_EQ(checkInputValue(3, std::int64_t{1} << 40), checkInputValue(3, (std::int64_t{1} << 40) % 31));
}

TEST(CollectiveCheck, CorrectResultsOfEveryOpHaveNoWrongElements)
{
    for (auto op : benchmarkedOps())
        for (bool inPlace : {false, true})
            for (int n : {1, 2, 3, 4, 7}) {
                Ranks ranks(point(op, inPlace, n), n);
                if (ranks.p.root >= n)
                    continue;
                ranks.simulate();
                EXPECT_EQ(ranks.wrong(ranks.p), 0) << toString(op) << " in_place=" << inPlace << " n=" << n;
            }
}

TEST(CollectiveCheck, EveryReductionIsChecked)
{
    for (auto redop : {ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min}) {
        Ranks ranks(point(CollectiveOp::AllReduce, false, 5, redop), 5);
        ranks.simulate();
        EXPECT_EQ(ranks.wrong(ranks.p), 0) << toString(redop);
    }
}

TEST(CollectiveCheck, CountsCorruptedAndUntouchedElements)
{
    Ranks ranks(point(CollectiveOp::AllGather, false, 4), 4);
    ranks.simulate();
    ranks.recv[2][5] += 1;
    ranks.recv[3][0] = -ranks.recv[3][0] + 1; // v -> 1 - v differs for every integer v
    EXPECT_EQ(ranks.wrong(ranks.p), 2);

    // A call that never ran leaves the receive buffers as filled: every element is wrong.
    Ranks untouched(point(CollectiveOp::AllToAll, false, 3), 3);
    EXPECT_EQ(untouched.wrong(untouched.p), 3 * untouched.p.shape.recvElems);
}

TEST(CollectiveCheck, DetectsADeliberatelyWrongExpectation)
{
    Ranks ranks(point(CollectiveOp::AllReduce, false, 4, ReduceOp::Sum), 4);
    ranks.simulate();
    PlannedPoint wrongRedop = ranks.p;
    wrongRedop.redop = ReduceOp::Max;
    EXPECT_GT(ranks.wrong(wrongRedop), ranks.p.shape.count); // most elements on each rank
    std::int64_t wrongRanks = 0;                            // expecting 3 ranks' sums instead of 4
    for (int r = 0; r < 4; ++r)
        wrongRanks += countWrongElements(ranks.p, r, 3, ranks.send[r].data(), ranks.recv[r].data());
    EXPECT_GT(wrongRanks, 0);

    Ranks bcast(point(CollectiveOp::Broadcast, true, 3), 3);
    bcast.simulate();
    PlannedPoint otherRoot = bcast.p;
    otherRoot.root = 0;
    EXPECT_GT(bcast.wrong(otherRoot), 0);
}

TEST(CollectiveCheck, Float32SumsStayExactForManyRanks)
{
    PlannedPoint p = point(CollectiveOp::AllReduce, false, 1024);
    p.dtype = DataType::Float32;
    p.shape = pointShape(p.op, 31 * 4, 4, 1024);
    std::vector<float> result(31, 0.0f);
    for (int r = 0; r < 1024; ++r)
        for (int i = 0; i < 31; ++i)
            result[std::size_t(i)] += float(checkInputValue(r, i)); // float accumulation, as MPI does
    EXPECT_EQ(countWrongElements(p, 0, 1024, nullptr, result.data()), 0);
}

TEST(CollectiveCheck, Int32UsesTheSameValues)
{
    PlannedPoint p = point(CollectiveOp::AllGather, false, 2);
    p.dtype = DataType::Int32;
    p.shape = pointShape(p.op, 64, 4, 2);
    std::vector<std::int32_t> send(p.shape.sendElems), recv(p.shape.recvElems);
    fillCheckBuffers(p, 0, 2, send.data(), recv.data());
    EXPECT_EQ(countWrongElements(p, 0, 2, send.data(), recv.data()), p.shape.recvElems); // sentinels everywhere
    for (int q = 0; q < 2; ++q)
        for (std::int64_t j = 0; j < p.shape.count; ++j)
            recv[std::size_t(q * p.shape.count + j)] = std::int32_t(checkInputValue(q, j));
    EXPECT_EQ(countWrongElements(p, 0, 2, send.data(), recv.data()), 0);
}
