// Roofline geometry, checked numerically.
#include <gtest/gtest.h>

#include "model/roofline.h"

using namespace rl;

namespace {
Roofline sample()
{
    Roofline r;
    r.addCompute("fp64", 1000); // GFLOP/s
    r.addCompute("bf16", 8000);
    r.addBandwidth("L2", 400); // GB/s
    r.addBandwidth("HBM", 100);
    return r;
}
} // namespace

TEST(Roofline, AttainableIsMinOfRoofAndSlope)
{
    const auto r = sample();
    EXPECT_DOUBLE_EQ(*r.attainable(1.0, "fp64", "HBM"), 100);   // memory bound
    EXPECT_DOUBLE_EQ(*r.attainable(10.0, "fp64", "HBM"), 1000); // exactly at the ridge
    EXPECT_DOUBLE_EQ(*r.attainable(50.0, "fp64", "HBM"), 1000); // compute bound
    EXPECT_DOUBLE_EQ(*r.attainable(0.5, "bf16", "L2"), 200);
    EXPECT_DOUBLE_EQ(*r.attainable(0.0, "bf16", "L2"), 0);
}

TEST(Roofline, RidgePointsAndIntersections)
{
    const auto r = sample();
    EXPECT_DOUBLE_EQ(*r.ridgePoint("fp64", "HBM"), 10);
    EXPECT_DOUBLE_EQ(*r.ridgePoint("fp64", "L2"), 2.5);
    EXPECT_DOUBLE_EQ(*r.ridgePoint("bf16", "HBM"), 80);
    const auto p = r.intersection("bf16", "L2");
    ASSERT_TRUE(p);
    EXPECT_DOUBLE_EQ(p->intensity, 20);
    EXPECT_DOUBLE_EQ(p->gflops, 8000);
    // The corner lies on both lines.
    EXPECT_DOUBLE_EQ(400 * p->intensity, p->gflops);
}

TEST(Roofline, AllLevelsTakesTheSlowestSlope)
{
    const auto r = sample();
    EXPECT_DOUBLE_EQ(*r.attainableAllLevels(4.0, "fp64"), 400);
    EXPECT_DOUBLE_EQ(*r.attainableAllLevels(20.0, "fp64"), 1000);
}

TEST(Roofline, MissingCeilingsGiveNothing)
{
    const auto r = sample();
    EXPECT_FALSE(r.attainable(1, "fp8", "HBM"));
    EXPECT_FALSE(r.ridgePoint("fp64", "L3"));
    EXPECT_FALSE(r.attainable(-1, "fp64", "HBM"));
}

TEST(Roofline, FromProfileConvertsTflopsToGflops)
{
    HardwareProfile hw;
    hw.peakTflops["bf16"] = {989.4, "x"};
    hw.hbmBandwidthGBs = {3350, "x"};
    const auto r = Roofline::fromProfile(hw);
    EXPECT_NEAR(*r.ridgePoint("bf16", "HBM"), 989.4e3 / 3350, 1e-9);
}
