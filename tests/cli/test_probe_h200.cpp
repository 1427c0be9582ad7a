// ridgeline-probe's real outputs from one NVIDIA H200 (tests/data/probe/h200, README there), through the
// real ridgeline-cli: imported with what the store has no table for kept in the session, built into
// a measured profile whose figures name their sessions, and the traced training step against the
// sizing model on that profile, its gap given by kernel class. No GPU or PyTorch needed here.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "childprocess.h"
#include "tempdir.h"

using nlohmann::json;
namespace fs = std::filesystem;

namespace {
using rl::test::TempDir;

const fs::path kData = fs::path(RIDGELINE_TEST_DATA) / "probe" / "h200";

std::vector<std::string> cli(const fs::path& db, std::vector<std::string> args)
{
    args.insert(args.begin(), {RIDGELINE_CLI, "--db", db.string()});
    return args;
}

json runJson(const fs::path& db, const std::vector<std::string>& args)
{
    const auto r = rl::test::runToEnd(cli(db, args));
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return r.exitCode == 0 ? json::parse(r.out) : json();
}

std::vector<json> fileRecords(const std::string& name, const std::string& record)
{
    std::ifstream in(kData / name);
    std::vector<json> out;
    for (std::string line; std::getline(in, line);)
        if (auto j = json::parse(line); j.value("record", "") == record)
            out.push_back(j);
    return out;
}

// The id of the (first) session imported from a file of the H200 folder.
std::int64_t importOne(const fs::path& db, const std::string& file)
{
    const auto r = rl::test::runToEnd(cli(db, {"--json", "import", (kData / file).string()}));
    EXPECT_EQ(r.exitCode, 0) << r.err;
    const auto j = json::parse(r.out);
    return j.at(0).at("session_ids").at(0).get<std::int64_t>();
}

json sessionById(const fs::path& db, std::int64_t id)
{
    for (const auto& s : runJson(db, {"--json", "sessions"}))
        if (s["id"] == id)
            return s;
    ADD_FAILURE() << "no session " << id;
    return {};
}

// The user's profiles go to a folder of the test's own.
struct UserDataDir
{
    explicit UserDataDir(const fs::path& dir) { setenv("XDG_DATA_HOME", dir.c_str(), 1); }
    ~UserDataDir() { unsetenv("XDG_DATA_HOME"); }
};
} // namespace

// An imported probe file keeps what `run probe` keeps: attention rates, steps, the step summary,
// the reference ratios.
TEST(ProbeH200, ImportKeepsAttentionStepsAndReferences)
{
    TempDir dir;
    const auto db = dir.path / "w.db";
    const auto attention = sessionById(db, importOne(db, "attention.jsonl"));
    EXPECT_EQ(attention["kind"], "attention");
    EXPECT_EQ(attention["params"]["attention"].size(), fileRecords("attention.jsonl", "attention").size());
    EXPECT_EQ(attention["params"]["attention"].size(), 160u);
    EXPECT_FALSE(attention["params"]["attention"][0].contains("record"));

    const auto step = sessionById(db, importOne(db, "step.jsonl"));
    EXPECT_EQ(step["params"]["timed_steps"].size(), 8u);
    EXPECT_EQ(step["params"]["steps"], 8) << "the header's --steps stays";
    EXPECT_EQ(step["params"]["optimizer"], "AdamW (fused)");
    const auto summary = fileRecords("step.jsonl", "step_summary").at(0);
    EXPECT_DOUBLE_EQ(step["params"]["step_summary"]["median_ms"].get<double>(), summary["median_ms"].get<double>());

    const auto ref = sessionById(db, importOne(db, "gemm-ref.jsonl"));
    ASSERT_EQ(ref["params"]["references"].size(), 1u);
    const double ratio = ref["params"]["references"][0]["ratio"];
    EXPECT_GT(ratio, 0.97) << "the probe's harness against a bare torch.matmul loop at 8192^3 bf16";
}

TEST(ProbeH200, MeasuredProfileNamesItsSessionsOverTheDatasheetBase)
{
    TempDir dir;
    const auto db = dir.path / "w.db";
    const auto gemm = importOne(db, "gemm.jsonl");
    const auto membw = importOne(db, "membw.jsonl");
    const auto attention = importOne(db, "attention.jsonl");
    const auto hw = runJson(db, {"--json", "profile", "measured", "--gemm", std::to_string(gemm), "--membw",
                                 std::to_string(membw), "--attention", std::to_string(attention), "--base", "h200",
                                 "--id", "my-h200"});
    ASSERT_TRUE(hw.is_object());
    EXPECT_EQ(hw["id"], "my-h200");
    EXPECT_TRUE(hw["measured"].get<bool>());
    const std::string gemmSession = "measured: session " + std::to_string(gemm);
    const std::string memSession = "measured: session " + std::to_string(membw);

    // The best bf16 GEMM of the file is the max achievable; the datasheet peak stays the MFU basis.
    double best = 0;
    for (const auto& p : fileRecords("gemm.jsonl", "gemm"))
        if (p["dtype"] == "bfloat16")
            best = std::max(best, p["gflops"].get<double>() / 1e3);
    EXPECT_NEAR(hw["max_achievable_tflops"]["bf16"]["value"].get<double>(), best, 1e-6);
    EXPECT_EQ(hw["max_achievable_tflops"]["bf16"]["source"].get<std::string>().rfind(gemmSession, 0), 0u);
    EXPECT_DOUBLE_EQ(hw["peak_tflops"]["bf16"]["value"].get<double>(), 989.4);
    EXPECT_EQ(hw["peak_tflops"]["bf16"]["source"].get<std::string>().find("measured"), std::string::npos);
    ASSERT_TRUE(hw["max_achievable_tflops"].contains("fp8"));
    EXPECT_GT(hw["max_achievable_tflops"]["fp8"]["value"].get<double>(), best) << "fp8 runs faster than bf16";

    // HBM: the plateau at 1-2 GiB (triad 4.36 TB/s), below the datasheet's 4.8 TB/s; L2 above it.
    const double hbm = hw["hbm_bandwidth_gbs"]["value"];
    EXPECT_GT(hbm, 4100);
    EXPECT_LT(hbm, 4500);
    EXPECT_EQ(hw["hbm_bandwidth_gbs"]["source"].get<std::string>().rfind(memSession, 0), 0u);
    std::set<std::string> levels;
    for (const auto& l : hw["memory_levels"]) {
        levels.insert(l["name"].get<std::string>());
        EXPECT_EQ(l["source"].get<std::string>().rfind(memSession, 0), 0u) << l.dump();
    }
    EXPECT_TRUE(levels.count("HBM")) << hw["memory_levels"].dump();
    EXPECT_GT(hw["memory_levels"][0]["bandwidth_gbs"].get<double>(), hbm * 1.2) << "an L2 plateau above HBM";
    EXPECT_NEAR(hw["hbm_capacity_gb"]["value"].get<double>(), 150.1, 0.1);

    // Each backend of scaled_dot_product_attention as a kernel, at both head dims.
    for (const char* k : {"flash", "cudnn", "efficient", "math"}) {
        ASSERT_TRUE(hw["attention_kernels"].contains(k)) << k;
        std::set<int> dims;
        for (const auto& set : hw["attention_kernels"][k]) {
            dims.insert(set["head_dim"].get<int>());
            EXPECT_NE(set["source"].get<std::string>().find("session " + std::to_string(attention)), std::string::npos);
        }
        EXPECT_EQ(dims, (std::set<int>{64, 128})) << k;
    }
    // cuDNN's forward at 4096 tokens, head dim 128, as measured (655 TFLOP/s), not the FA3 paper's H100 bar.
    const auto& cudnn128 = hw["attention_kernels"]["cudnn"][1];
    EXPECT_NEAR(cudnn128["forward"]["4096"].get<double>(), 655, 1);

    // The link from a collective run of several GPUs of one node (the bundled 8x H100 nccl-tests sweep,
    // whose all_reduce saturates near 465 GB/s busbw); the H200 machine had one GPU, and says so.
    const auto nccl = runJson(db, {"--json", "import",
                                   (fs::path(RIDGELINE_TEST_DATA) / ".." / ".." / "sample_data" /
                                    "nccl-tests_8xH100_all_collectives.txt").string()});
    const auto allReduce = nccl.at(0).at("session_ids").at(0).get<std::int64_t>();
    const auto linked = runJson(db, {"--json", "profile", "measured", "--gemm", std::to_string(gemm), "--membw",
                                     std::to_string(membw), "--collectives", std::to_string(allReduce)});
    EXPECT_GT(linked["intra_node_link_gbs"]["value"].get<double>(), 400);
    EXPECT_LT(linked["intra_node_link_gbs"]["value"].get<double>(), 500);
    EXPECT_NE(linked["intra_node_link_gbs"]["source"].get<std::string>().find("8 ranks"), std::string::npos);
    const auto oneRank = rl::test::runToEnd(cli(db, {"profile", "measured", "--gemm", std::to_string(gemm), "--membw",
                                                    std::to_string(membw), "--collectives",
                                                    std::to_string(importOne(db, "collectives-1rank.jsonl"))}));
    EXPECT_EQ(oneRank.exitCode, 1);
    EXPECT_NE(oneRank.err.find("one rank moves nothing"), std::string::npos) << oneRank.err;

    // A GEMM session cannot stand for memory, and an unknown base is named.
    const auto wrong = rl::test::runToEnd(cli(db, {"profile", "measured", "--gemm", std::to_string(gemm), "--membw",
                                                  std::to_string(gemm)}));
    EXPECT_EQ(wrong.exitCode, 1);
    EXPECT_NE(wrong.err.find("is of kind gemm, not membw"), std::string::npos) << wrong.err;
    const auto base = rl::test::runToEnd(cli(db, {"profile", "measured", "--gemm", std::to_string(gemm), "--membw",
                                                 std::to_string(membw), "--base", "no-such-gpu"}));
    EXPECT_EQ(base.exitCode, 1);
    EXPECT_NE(base.err.find("no-such-gpu"), std::string::npos) << base.err;
}

// The step the probe traced (Llama-3-8B's shape with 4 layers, dp=1, 2 x 4096 tokens) against the
// model on the measured profile with the measured cuDNN attention: GEMM and attention kernels as
// predicted; the gap sits in the element-wise kernels a plain PyTorch model does not fuse.
TEST(ProbeH200, StepAgainstTheModelOnTheMeasuredProfileByKernelClass)
{
    TempDir dir;
    const auto db = dir.path / "w.db";
    UserDataDir user(dir.path / "data");
    const auto gemm = importOne(db, "gemm.jsonl");
    const auto membw = importOne(db, "membw.jsonl");
    const auto attention = importOne(db, "attention.jsonl");
    const auto trace = importOne(db, "step_trace.json.gz");
    const auto step = importOne(db, "step.jsonl");
    const auto saved = rl::test::runToEnd(cli(db, {"profile", "measured", "--gemm", std::to_string(gemm), "--membw",
                                                  std::to_string(membw), "--attention", std::to_string(attention),
                                                  "--base", "h200", "--id", "h200-measured", "--save"}));
    ASSERT_EQ(saved.exitCode, 0) << saved.err;

    // The probe's model: llama-3-8b with 4 layers (the step session's header says so).
    auto config = json::parse(std::ifstream(fs::path(RIDGELINE_SOURCE_RESOURCE_DIR) / "models" / "llama-3-8b.json"));
    config["num_hidden_layers"] = 4;
    const auto cfg = dir.path / "llama-3-8b-4-layers.json";
    std::ofstream(cfg) << config.dump();

    // Layout, micro-batch and sequence come from the step session that profiled the trace (its --trace
    // file is the trace's), not from defaults (dp=8, 4096 x 1).
    const auto vs = runJson(db, {"--json", "vs-measured", std::to_string(trace), cfg.string(), "--hardware",
                                 "h200-measured", "--attention", "cudnn"});
    ASSERT_TRUE(vs.is_object());
    EXPECT_EQ(vs["parallel"], "dp=1");
    const std::string from = "(ridgeline-probe step, session " + std::to_string(step) + ")";
    std::set<std::string> taken;
    for (const auto& t : vs["taken_from_measurement"])
        taken.insert(t.get<std::string>());
    EXPECT_TRUE(taken.count("layout dp=1 " + from)) << vs["taken_from_measurement"].dump();
    EXPECT_TRUE(taken.count("micro-batch 2 " + from)) << vs["taken_from_measurement"].dump();
    EXPECT_TRUE(taken.count("sequence length 4096 " + from)) << vs["taken_from_measurement"].dump();
    std::map<std::string, json> rows;
    for (const auto& r : vs["rows"])
        rows[r["quantity"].get<std::string>()] = r;
    ASSERT_TRUE(rows.count("compute: GEMM and attention")) << vs.dump();
    ASSERT_TRUE(rows.count("compute: element-wise, optimizer and other kernels")) << vs.dump();
    EXPECT_NEAR(rows["step time"]["measured"].get<double>(), 0.161, 0.005) << "the trace's two profiled steps";
    const auto& gemmRow = rows["compute: GEMM and attention"];
    const double gemmRatio = gemmRow["measured"].get<double>() / gemmRow["predicted"].get<double>();
    EXPECT_GT(gemmRatio, 0.8) << vs.dump();
    EXPECT_LT(gemmRatio, 1.25) << vs.dump();
    const auto& other = rows["compute: element-wise, optimizer and other kernels"];
    EXPECT_GT(other["measured"].get<double>(), other["predicted"].get<double>()) << "unfused norms, RoPE, SwiGLU";
    // On dp=1 there is no bubble: the optimizer is compute, not idle.
    EXPECT_LT(rows["idle and bubble"]["predicted"].get<double>(), 1e-9);
    // Each figure says its basis: the measured profile's GEMM cap and attention kernel are measured.
    int measuredBases = 0;
    for (const auto& a : vs["assumed"]) {
        const auto text = a.get<std::string>();
        measuredBases += text.rfind("max achievable TFLOP/s: measured (measured: session " + std::to_string(gemm), 0) == 0;
        measuredBases += text.rfind("attention: measured (cudnn", 0) == 0;
    }
    EXPECT_EQ(measuredBases, 2) << vs["assumed"].dump();
    ASSERT_FALSE(vs["largest_gaps"].empty());
    EXPECT_EQ(vs["largest_gaps"][0].get<std::string>().rfind("compute: element-wise", 0), 0u) << vs["largest_gaps"].dump();
}
