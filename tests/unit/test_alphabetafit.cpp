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
