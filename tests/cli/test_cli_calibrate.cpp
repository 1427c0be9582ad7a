// Calibration from a measured run, through the real binary on a real Megatron-LM log (the sample
// GPT-8B pretraining log on 16 H100s, tp 8 x dp 2): `size --calibrate-from`, `plan --calibrate-from`
// and `validate --calibrated` / `--ranking`.
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "childprocess.h"
#include "tempdir.h"

using rl::test::runToEnd;
using rl::test::TempDir;

namespace {
rl::test::Finished cli(const TempDir& dir, std::vector<std::string> args, int timeout = 300)
{
    std::vector<std::string> argv{RIDGELINE_CLI, "--db", (dir.path / "ws.db").string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return runToEnd(argv, timeout);
}

nlohmann::json jsonOf(const rl::test::Finished& r)
{
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return nlohmann::json::parse(r.out, nullptr, false);
}

void importLog(const TempDir& dir)
{
    const auto r = cli(dir, {"import", RIDGELINE_SAMPLE_DATA "/megatron-lm_gpt-8b_16xH100_pretrain.log"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
}
} // namespace

// The run's own layout comes back at its measured step time; another layout moves by the same
// factors, and the output says what moved.
TEST(CliCalibrate, SizeFromALogPredictsTheRunAsMeasured)
{
    TempDir dir;
    importLog(dir);
    const auto other = jsonOf(cli(dir, {"size", "llama-3-8b", "--hardware", "h100-sxm", "--parallel", "dp=16",
                                        "--micro-batch", "2", "--micro-batches", "4", "--seq", "4096",
                                        "--calibrate-from", "1", "--json"}));
    ASSERT_TRUE(other.contains("run_calibration")) << other.dump();
    const auto& k = other["run_calibration"];
    EXPECT_EQ(k["run_layout"], "dp=2,tp=8");
    EXPECT_NEAR(k["residual"].get<double>(), 0.0, 1e-9);
    EXPECT_GT(k["compute"].get<double>(), 0.0);
    EXPECT_FALSE(k["moved"].empty());
    EXPECT_NE(k["basis"].get<std::string>().find("session 1"), std::string::npos);
    EXPECT_NE(other["step"]["step_s"].get<double>(), k["uncalibrated_step_s"].get<double>());

    // Asking for the run's own configuration gives its measured step.
    const auto same = jsonOf(cli(dir, {"size", "llama-3-8b", "--hardware", "h100-sxm", "--parallel", "dp=2,tp=8",
                                       "--micro-batch", "2", "--micro-batches", "32", "--seq", "4096",
                                       "--calibrate-from", "1", "--json"}));
    const double measured = same["run_calibration"]["run_measured_s"].get<double>();
    EXPECT_NEAR(same["step"]["step_s"].get<double>(), measured, 1e-9 * measured);

    // The text names the session, the factors and the residual.
    const auto text = cli(dir, {"size", "llama-3-8b", "--hardware", "h100-sxm", "--parallel", "dp=16",
                                "--micro-batch", "2", "--seq", "4096", "--calibrate-from", "1"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("Calibrated from session 1"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("rate moved"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("fit residual"), std::string::npos) << text.out;
}

TEST(CliCalibrate, AnotherModelOrDeviceOrAMissingSessionIsRefused)
{
    TempDir dir;
    importLog(dir);
    const auto model = cli(dir, {"size", "qwen3-8b", "--hardware", "h100-sxm", "--parallel", "dp=16",
                                 "--calibrate-from", "1"});
    EXPECT_NE(model.exitCode, 0);
    EXPECT_NE(model.err.find("another model"), std::string::npos) << model.err;
    const auto device = cli(dir, {"size", "llama-3-8b", "--hardware", "mi300x", "--parallel", "dp=16",
                                  "--calibrate-from", "1"});
    EXPECT_NE(device.exitCode, 0);
    EXPECT_NE(device.err.find("h100-sxm"), std::string::npos) << device.err;
    const auto missing = cli(dir, {"size", "llama-3-8b", "--hardware", "h100-sxm", "--calibrate-from", "9"});
    EXPECT_NE(missing.exitCode, 0);
    EXPECT_NE(missing.err.find("session 9"), std::string::npos) << missing.err;
}

// The search ranks calibrated steps: "yours" set to the run's layout comes back at the measured step.
TEST(CliCalibrate, PlanRanksCalibratedSteps)
{
    TempDir dir;
    importLog(dir);
    const auto plan = jsonOf(cli(dir, {"plan", "llama-3-8b", "--hardware", "h100-sxm", "--gpus", "16",
                                       "--global-batch", "128", "--seq", "4096", "--fix", "zero=1,dtype=bf16",
                                       "--top", "5", "--calibrate-from", "1", "--json"}));
    ASSERT_TRUE(plan.contains("run_calibration")) << plan.dump().substr(0, 400);
    EXPECT_EQ(plan["run_calibration"]["run_layout"], "dp=2,tp=8");
    const auto plain = jsonOf(cli(dir, {"plan", "llama-3-8b", "--hardware", "h100-sxm", "--gpus", "16",
                                        "--global-batch", "128", "--seq", "4096", "--fix", "zero=1,dtype=bf16",
                                        "--top", "5", "--json"}));
    ASSERT_FALSE(plan["top"].empty());
    ASSERT_FALSE(plain["top"].empty());
    EXPECT_NE(plan["top"][0]["step_s"].get<double>(), plain["top"][0]["step_s"].get<double>());
}

TEST(CliCalibrate, LeaveOneOutAndRankingReports)
{
    TempDir dir;
    const auto loo = jsonOf(cli(dir, {"validate", "--calibrated", "--json"}));
    EXPECT_GT(loo["predictions"].get<int>(), 10);
    for (const auto& g : loo["groups"])
        for (const auto& p : g["predictions"]) {
            const double err = p["calibrated_step_s"].get<double>() / p["measured_step_s"].get<double>() - 1;
            EXPECT_NEAR(p["error"].get<double>(), err, 1e-9);
            EXPECT_NE(p["from"], p["to"]);
        }
    const auto ranking = jsonOf(cli(dir, {"validate", "--ranking", "--json"}));
    EXPECT_EQ(ranking["groups"].size(), 10u);
    EXPECT_EQ(ranking["out_of_memory"].get<int>(), 1);
    const auto both = cli(dir, {"validate", "--ranking", "--calibrated"});
    EXPECT_EQ(both.exitCode, 2) << both.err;
}
