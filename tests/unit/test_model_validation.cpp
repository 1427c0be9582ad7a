// The bundled table of published, measured training runs: it loads with provenance on every
// row, no row is refused, no prediction passes the max-achievable rate, and the step-time error
// stays within the bound the model reaches (stated in README and by `ridgeline-cli validate`).
#include <cmath>
#include <cstdio>
#include <map>

#include <gtest/gtest.h>

#include "model/validation.h"
#include "tempdir.h"

using namespace rl::model;

TEST(Validation, TableLoadsWithProvenance)
{
    const auto runs = loadValidationRuns(validationTablePath());
    ASSERT_GE(runs.size(), 18u);
    int narayanan = 0, korthikanti = 0;
    for (const auto& r : runs) {
        EXPECT_NE(r.source.find("Table"), std::string::npos) << r.id;
        EXPECT_GT(r.measuredStepSeconds, 0) << r.id;
        narayanan += r.id.starts_with("narayanan21-t1-");
        korthikanti += r.id.starts_with("korthikanti22-t5-");
    }
    EXPECT_EQ(narayanan, 10);
    EXPECT_EQ(korthikanti, 8);
}

TEST(Validation, DerivedStepTimeOfNarayananRow)
{
    // 1.7B: 96·512·2048·24·2304²·(1 + 2048/(6·2304) + 51200/(16·24·2304)) FLOPs at 137 TFLOP/s x 32 GPUs.
    for (const auto& r : loadValidationRuns(validationTablePath()))
        if (r.id == "narayanan21-t1-1.7B") {
            const double h = 2304, f = 96.0 * 512 * 2048 * 24 * h * h * (1 + 2048 / (6 * h) + 51200 / (16 * 24 * h));
            EXPECT_NEAR(r.measuredStepSeconds, f / (137e12 * 32), 1e-9);
            EXPECT_EQ(r.parallel.effectiveMicroBatches(), 1);
            return;
        }
    FAIL() << "row missing";
}

TEST(Validation, ErrorWithinTheStatedBound)
{
    const auto s = runValidation(loadValidationRuns(validationTablePath()));
    EXPECT_EQ(s.refused, 0);
    EXPECT_EQ(s.aboveMaxAchievable, 0);
    for (const auto& r : s.rows)
        EXPECT_FALSE(r.refused) << r.run.id << ": " << r.why;
    // The bound reached (uncalibrated); the issue's target is 10 % / 25 %.
    EXPECT_LE(s.medianAbsError, kValidationMedianBound) << "median";
    EXPECT_LE(s.maxAbsError, kValidationMaxBound) << "worst: " << s.worstRow;
}

TEST(Validation, StatedBandIsOverEveryPublishedRunOfTheSameKind)
{
    // The band next to a prediction covers both bundled tables, dense and MoE apart.
    int dense = 0, moe = 0;
    for (const auto& path : {validationTablePath(), holdoutTablePath()})
        for (const auto& row : runValidation(loadValidationRuns(path)).rows)
            if (!row.refused)
                ++(row.run.model.isMoe() ? moe : dense);
    EXPECT_EQ(modelErrorBand(false).rows, dense);
    EXPECT_EQ(modelErrorBand(true).rows, moe);
    EXPECT_GT(moe, 5);
    EXPECT_GT(modelErrorBand(true).median, modelErrorBand(false).median); // MoE steps are the harder ones
    EXPECT_NE(describe(modelErrorBand(true)).find("published MoE runs"), std::string::npos);
}

TEST(Validation, StatedBandIsTheDevicesOwnWhereItHasEnoughRuns)
{
    std::map<std::string, std::vector<double>> dense; // signed errors by device
    for (const auto& path : {validationTablePath(), holdoutTablePath()})
        for (const auto& row : runValidation(loadValidationRuns(path)).rows)
            if (!row.refused && !row.run.model.isMoe())
                dense[row.run.hardware].push_back(row.error);
    ASSERT_GE(dense["a100-80gb"].size(), std::size_t(kMinDeviceRows));
    ASSERT_GE(dense["h100-sxm"].size(), std::size_t(kMinDeviceRows));
    for (const std::string device : {"a100-80gb", "h100-sxm"}) {
        const auto& e = dense[device];
        const auto band = modelErrorBand(false, device);
        EXPECT_EQ(band.device, device);
        EXPECT_EQ(band.rows, int(e.size()));
        double mean = 0, worst = 0;
        for (double x : e)
            mean += x / double(e.size()), worst = std::max(worst, std::fabs(x));
        EXPECT_NEAR(band.bias, mean, 1e-12) << device;
        EXPECT_DOUBLE_EQ(band.max, worst) << device;
        EXPECT_NE(describe(band).find("published dense runs on " + device), std::string::npos) << describe(band);
        EXPECT_NE(describeBias(band).find(band.bias < 0 ? "(optimistic)" : "(pessimistic)"), std::string::npos);
    }
    // The H100 runs ran faster in the model than the A100 runs: the bias is the device's, not one number.
    EXPECT_LT(modelErrorBand(false, "h100-sxm").bias, modelErrorBand(false, "a100-80gb").bias);
    // No published run on the device: every device's band, and it says so.
    const auto none = modelErrorBand(false, "mi300x");
    EXPECT_EQ(none.device, "");
    EXPECT_EQ(none.askedRows, 0);
    EXPECT_EQ(none.rows, modelErrorBand(false).rows);
    EXPECT_NE(describe(none).find(", none on mi300x"), std::string::npos) << describe(none);
}

TEST(Validation, HoldoutRunsWithinTheirBound)
{
    // Published runs kept out of the table while the model was built (H100 and A100; NeMo, NVIDIA's
    // DGX Cloud recipes, Megatron-Bridge, llm-foundry; dense and MoE).
    const auto s = runValidation(loadValidationRuns(holdoutTablePath()));
    ASSERT_GE(s.rows.size(), 33u);
    EXPECT_EQ(s.refused, 0);
    EXPECT_EQ(s.aboveMaxAchievable, 0);
    EXPECT_LE(s.medianAbsError, kHoldoutMedianBound);
    EXPECT_LE(s.maxAbsError, kHoldoutMaxBound) << "worst: " << s.worstRow;
}

TEST(Validation, MalformedTableNamesFileAndRow)
{
    rl::test::TempDir dir;
    const auto path = (dir.path / "bad_validation.json").string();
    {
        std::FILE* f = std::fopen(path.c_str(), "w");
        ASSERT_TRUE(f);
        std::fputs(R"({"runs": [{"id": "x", "hardware": "h100-sxm", "source": "somewhere, Table 9, row 1",
                      "model": {"layers": 2, "d_model": 256, "heads": 4, "mlp_width": 1024, "vocab": 1000},
                      "dp": 2, "micro_batch": 1, "global_batch": 3, "measured": {"step_seconds": 1}}]})",
                   f);
        std::fclose(f);
    }
    try {
        loadValidationRuns(path);
        FAIL() << "accepted a global batch that dp x micro_batch does not divide";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("runs[0]"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("global_batch"), std::string::npos) << e.what();
    }
    {
        std::FILE* f = std::fopen(path.c_str(), "w");
        ASSERT_TRUE(f);
        std::fputs(R"({"runs": [{"id": "x", "hardware": "h100-sxm", "source": "somewhere, Table 9, row 1",
                      "model": {"layers": 2, "d_model": 256, "heads": 4, "mlp_width": 1024, "vocab": 1000},
                      "dp": 2, "micro_batch": 1, "global_batch": 4, "ep_dispatcher": "deepep",
                      "measured": {"step_seconds": 1}}]})",
                   f);
        std::fclose(f);
    }
    try {
        loadValidationRuns(path);
        FAIL() << "accepted an unknown dispatcher";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("runs[0]: ep_dispatcher must be \"alltoall\" or \"flex\", not \"deepep\""),
                  std::string::npos)
            << e.what();
    }
}
