#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "fits/alphabetafit.h"

using namespace rl::fits;

TEST(AlphaBetaFit, RecoversExactModelOverDecadesOfSizes)
{
    std::vector<SizeTime> s;
    for (double n = 8; n <= 16.0 * (1ull << 30); n *= 2)
        s.push_back({n, 12.5 + n / (180.0 * 1e3)}); // alpha 12.5 µs, beta 180 GB/s
    auto f = fitAlphaBeta(s);
    ASSERT_TRUE(f);
    EXPECT_NEAR(f->alphaUs, 12.5, 1e-6);
    EXPECT_NEAR(f->betaGBs, 180.0, 1e-6);
    EXPECT_LT(f->rmsRelError, 1e-9);
    EXPECT_EQ(f->points, static_cast<int>(s.size()));
}

TEST(AlphaBetaFit, NoisyDataStaysWithinNoise)
{
    std::mt19937 rng(7);
    std::normal_distribution<double> noise(0.0, 0.02);
    std::vector<SizeTime> s;
    for (double n = 1024; n <= 1 << 28; n *= 2)
        s.push_back({n, (30.0 + n / 50e3) * (1.0 + noise(rng))});
    auto f = fitAlphaBeta(s);
    ASSERT_TRUE(f);
    EXPECT_NEAR(f->alphaUs, 30.0, 3.0);
    EXPECT_NEAR(f->betaGBs, 50.0, 3.0);
}

TEST(AlphaBetaFit, NeedsTwoDistinctSizes)
{
    EXPECT_FALSE(fitAlphaBeta({}));
    EXPECT_FALSE(fitAlphaBeta({{1024, 5}, {1024, 6}}));
    EXPECT_FALSE(fitAlphaBeta({{1024, 0}, {2048, -1}}));
}

// A chart drawn from a long session's outline fits from sums kept per size: the same fit as the
// points give, to rounding, on noisy repeats over 31 octaves, a sum split and added in pieces,
// and the points fitAlphaBeta leaves out left out of the sums too.
TEST(AlphaBetaFit, SumsFitWhatThePointsFit)
{
    std::mt19937 rng(11);
    std::normal_distribution<double> noise(1.0, 0.05);
    std::vector<SizeTime> s;
    FitSums whole, firstHalf, secondHalf;
    for (int repeat = 0; repeat < 7; ++repeat)
        for (double n = 8; n <= 16.0 * (1ull << 30); n *= 1.5) {
            const SizeTime p{n, (20.0 + n / 180e3) * std::max(0.5, noise(rng))};
            s.push_back(p);
            whole.add(p.bytes, p.timeUs);
            (repeat < 3 ? firstHalf : secondHalf).add(p.bytes, p.timeUs);
        }
    for (const SizeTime bad : {SizeTime{0, 5}, SizeTime{64, 0}, SizeTime{64, -2}, SizeTime{64, INFINITY}}) {
        s.push_back(bad);
        whole.add(bad.bytes, bad.timeUs);
    }
    const auto byPoints = fitAlphaBeta(s);
    ASSERT_TRUE(byPoints);
    firstHalf += secondHalf;
    for (const FitSums& sums : {whole, firstHalf}) {
        const auto bySums = fitAlphaBetaFromSums(sums);
        ASSERT_TRUE(bySums);
        EXPECT_NEAR(bySums->alphaUs, byPoints->alphaUs, 1e-9 * byPoints->alphaUs);
        EXPECT_NEAR(bySums->betaGBs, byPoints->betaGBs, 1e-9 * byPoints->betaGBs);
        EXPECT_NEAR(bySums->rmsRelError, byPoints->rmsRelError, 1e-9);
        EXPECT_EQ(bySums->points, byPoints->points);
        EXPECT_EQ(bySums->minBytes, byPoints->minBytes);
        EXPECT_EQ(bySums->maxBytes, byPoints->maxBytes);
    }
    // A fit whose alpha comes out negative is drawn at 0 both ways, rms error included.
    FitSums steep;
    std::vector<SizeTime> st;
    for (double n : {1e3, 1e6, 1e9}) {
        st.push_back({n, n / 100e3 - (n == 1e3 ? 0.009 : 0.0)});
        steep.add(st.back().bytes, st.back().timeUs);
    }
    EXPECT_NEAR(fitAlphaBetaFromSums(steep)->rmsRelError, fitAlphaBeta(st)->rmsRelError, 1e-9);
    FitSums one;
    one.add(1024, 5);
    one.add(1024, 6);
    EXPECT_FALSE(fitAlphaBetaFromSums(one));
    EXPECT_FALSE(fitAlphaBetaFromSums(FitSums{}));
}
