// ridgeline-cli plan and validate --plan, through the real binary; and the sizing commands' JSON kept
// byte-identical by the layout search's refactor of the step estimate (golden files recorded from the
// build before it, tests/data/sizing-golden/README.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "childprocess.h"
#include "tempdir.h"

using rl::test::runToEnd;
using rl::test::TempDir;

namespace {
std::string readFile(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

rl::test::Finished cli(const TempDir& dir, std::vector<std::string> args, int timeout = 300)
{
    std::vector<std::string> argv{RIDGELINE_CLI, "--db", (dir.path / "ws.db").string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return runToEnd(argv, timeout);
}

// A plan row's `size_command` as arguments for cli(): its words, less "ridgeline-cli", with --json.
std::vector<std::string> sizeArgsOf(const nlohmann::json& row)
{
    std::istringstream words(row["size_command"].get<std::string>());
    std::vector<std::string> args;
    for (std::string w; words >> w;)
        args.push_back(w);
    EXPECT_EQ(args.at(0), "ridgeline-cli");
    args.erase(args.begin());
    args.push_back("--json");
    return args;
}

// A plan row's `size` command, run: it names `option` and predicts the step the search ranked the
// row by. Its arguments and its JSON, for more checks.
struct SizedRow
{
    std::vector<std::string> args;
    nlohmann::json sized;
};
SizedRow expectSizeCommandGivesTheStep(const TempDir& dir, const nlohmann::json& row, const std::string& option)
{
    const auto line = row["size_command"].get<std::string>();
    EXPECT_NE(line.find(option), std::string::npos) << line;
    SizedRow out{sizeArgsOf(row), {}};
    const auto s = cli(dir, out.args);
    EXPECT_EQ(s.exitCode, 0) << line << ": " << s.err;
    out.sized = nlohmann::json::parse(s.out, nullptr, false);
    EXPECT_FALSE(out.sized.is_discarded()) << line << ": " << s.out;
    if (!out.sized.is_discarded()) {
        EXPECT_DOUBLE_EQ(out.sized["step"]["step_s"].get<double>(), row["step_s"].get<double>()) << line;
    }
    return out;
}

struct Golden
{
    const char* file;
    std::vector<std::string> args;
};
} // namespace

// What the sizing commands print did not move when the step estimate was split into per-shape stage
// costs and the rest (plan/): the same bytes as before, for a dense and an MoE model, BF16 and FP8,
// with pipeline, interleaving, uneven stages, ZeRO 3, EP overlap and flex dispatch.
TEST(CliPlan, SizingJsonIsByteIdenticalToTheRecordedOutput)
{
    const std::vector<Golden> cases = {
        {"size-llama-3-8b-h100.json", {"size", "llama-3-8b", "--hardware", "h100-sxm", "--parallel", "dp=8,tp=2,pp=2",
                                       "--micro-batches", "8", "--sp", "--recompute", "selective", "--json"}},
        {"size-llama-3-8b-zero3.json", {"size", "llama-3-8b", "--hardware", "mi300x", "--parallel", "dp=64",
                                        "--zero", "3", "--micro-batches", "4", "--json"}},
        {"size-qwen3-30b-fp8.json", {"size", "qwen3-30b-a3b", "--hardware", "h100-sxm", "--parallel",
                                     "dp=16,tp=2,pp=4,vpp=3,ep=8,etp=1", "--sp", "--dtype", "fp8", "--ep-overlap",
                                     "--ep-dispatcher", "flex", "--attention", "cudnn", "--json"}},
        {"size-deepseek-v3-uneven.json", {"size", "deepseek-v3", "--hardware", "h100-sxm", "--parallel",
                                          "dp=64,tp=2,pp=16,ep=64,etp=1", "--first-stage-layers", "3",
                                          "--last-stage-layers", "2", "--sp", "--recompute", "full", "--json"}},
        {"moe-sweep-olmoe.json", {"moe-sweep", "olmoe-1b-7b", "--hardware", "mi300x", "--parallel", "dp=64,ep=8",
                                  "--experts", "16,64", "--top-k", "2,8", "--json"}},
        {"validate.json", {"validate", "--json"}},
        {"validate-holdout.json", {"validate", "--table", "holdout", "--json"}},
    };
    TempDir dir;
    for (const auto& g : cases) {
        const auto golden = readFile(std::filesystem::path(RIDGELINE_TEST_DATA) / "sizing-golden" / g.file);
        ASSERT_FALSE(golden.empty()) << g.file;
        const auto r = cli(dir, g.args);
        ASSERT_EQ(r.exitCode, 0) << g.file << ": " << r.err;
        // The validation table's path depends on the checkout: compared as @RESOURCES@.
        const auto out = std::regex_replace(r.out, std::regex(R"("table": "[^"]*/validation/)"),
                                            R"("table": "@RESOURCES@/validation/)");
        EXPECT_EQ(out, golden) << g.file << " changed";
    }
}

// A search run for another training stack: each row's `size` command names the stack, so it predicts
// the step the search ranked the row by (it would not under Megatron-Core's sharding).
TEST(CliPlan, SizeCommandOfAnotherStackNamesItAndGivesTheSameStep)
{
    TempDir dir;
    const auto r = cli(dir, {"plan", "llama-3-8b", "--hardware", "a100-80gb", "--gpus", "16", "--global-batch", "64",
                             "--seq", "4096", "--top", "2", "--json", "--framework", "torchtitan", "--fix",
                             "tp=1,pp=1,cp=1,zero=3,recompute=full"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_FALSE(j["top"].empty()) << r.out;
    for (const auto& row : j["top"])
        expectSizeCommandGivesTheStep(dir, row, " --framework torchtitan");
}

// A search run with bf16 gradients (as NeMo's performance recipes): each row's `size` command says so,
// and predicts the step the search ranked the row by; the gradients are half those of Megatron's fp32
// default. A type it does not know is bad usage.
TEST(CliPlan, SizeCommandKeepsTheGradientsType)
{
    TempDir dir;
    const auto r = cli(dir, {"plan", "llama-3-8b", "--hardware", "h100-sxm", "--gpus", "16", "--global-batch", "64",
                             "--seq", "4096", "--top", "2", "--json", "--grad-dtype", "bf16", "--fix",
                             "tp=1,pp=1,cp=1,zero=1,recompute=full"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_FALSE(j["top"].empty()) << r.out;
    for (const auto& row : j["top"]) {
        auto [args, sized] = expectSizeCommandGivesTheStep(dir, row, " --grad-dtype bf16");
        ASSERT_FALSE(sized.is_discarded());
        const auto line = row["size_command"].get<std::string>();
        const auto option = std::find(args.begin(), args.end(), "--grad-dtype");
        args.erase(option, option + 2); // the same layout with Megatron's default
        const auto fp32 = nlohmann::json::parse(cli(dir, args).out);
        EXPECT_DOUBLE_EQ(fp32["memory_per_gpu_bytes"]["gradients"].get<double>(),
                         2 * sized["memory_per_gpu_bytes"]["gradients"].get<double>())
            << line;
    }
    EXPECT_EQ(cli(dir, {"size", "llama-3-8b", "--grad-dtype", "fp8"}).exitCode, 2);
}

// A real search: the counts add up, the rows are ranked by step time, and each row's `size` command
// line predicts exactly the step the search ranked it by.
TEST(CliPlan, RanksLayoutsWhoseSizeCommandGivesTheSameStep)
{
    TempDir dir;
    const auto csv = (dir.path / "plan.csv").string();
    const auto r = cli(dir, {"plan", "olmoe-1b-7b", "--hardware", "h100-sxm", "--gpus", "64", "--global-batch", "256",
                             "--seq", "4096", "--top", "5", "--json", "-o", csv,
                             "--yours", "tp=1,ep=8,micro-batch=2,zero=1,dtype=bf16,attention=cudnn"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("plan: "), std::string::npos) << "no progress on stderr";
    const auto j = nlohmann::json::parse(r.out);
    const auto& n = j["counts"];
    EXPECT_GT(n["ranked"].get<double>(), 1000);
    EXPECT_EQ(n["illegal"].get<double>() + n["out_of_memory"].get<double>() + n["ranked"].get<double>(),
              n["enumerated"].get<double>());
    double byRule = 0;
    for (const auto& [id, rule] : n["illegal_by_rule"].items()) {
        byRule += rule["layouts"].get<double>();
        EXPECT_FALSE(rule["follows"].get<std::string>().empty()) << id;
    }
    EXPECT_EQ(byRule, n["illegal"].get<double>());
    ASSERT_EQ(j["top"].size(), 5u);
    double previous = 0;
    for (const auto& row : j["top"]) {
        const double step = row["step_s"];
        EXPECT_GE(step, previous);
        previous = step;
        EXPECT_FALSE(row["megatron_args"].empty());
        expectSizeCommandGivesTheStep(dir, row, "ridgeline-cli size "); // the row's own line, run
    }
    EXPECT_FALSE(j["pareto"].empty());
    ASSERT_TRUE(j.contains("yours"));
    EXPECT_GE(j["yours"]["row"]["rank"].get<long long>(), 1);
    EXPECT_EQ(j["yours"]["explanation"].get<std::string>().rfind("#", 0), 0u) << j["yours"]["explanation"];
    // The CSV: a header and one line per ranked or Pareto row.
    const auto text = readFile(csv);
    EXPECT_EQ(text.rfind("rank,tie_with_best,pareto,gap_to_best,step_s,", 0), 0u);
    EXPECT_GE(std::count(text.begin(), text.end(), '\n'), 6);
}

TEST(CliPlan, SaysWhatIsWrongWithTheRequest)
{
    TempDir dir;
    const auto bad = cli(dir, {"plan", "llama-3-8b", "--hardware", "h100-sxm", "--gpus", "8", "--global-batch", "64",
                               "--fix", "tensor=8"});
    EXPECT_NE(bad.exitCode, 0);
    EXPECT_NE(bad.err.find("unknown dimension 'tensor'"), std::string::npos) << bad.err;
    const auto png = cli(dir, {"plan", "llama-3-8b", "--hardware", "h100-sxm", "--gpus", "8", "--global-batch", "64",
                               "-o", "plan.png"});
    EXPECT_EQ(png.exitCode, 2) << png.err;
    EXPECT_NE(png.err.find(".csv"), std::string::npos) << png.err;
    // Nothing fits: said, not an empty table.
    const auto none = cli(dir, {"plan", "deepseek-v3", "--hardware", "a100-80gb", "--gpus", "8", "--global-batch", "8"});
    ASSERT_EQ(none.exitCode, 0) << none.err;
    EXPECT_NE(none.out.find("No layout fits"), std::string::npos) << none.out;
}

// validate --plan places a published row's own layout among every layout of its cluster.
TEST(CliPlan, ValidatePlanRanksThePublishedLayout)
{
    TempDir dir;
    const auto r = cli(dir, {"validate", "--plan", "--row", "narayanan21-t1-1.7B,korthikanti22-t5-22B-seqsel", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["rows"].size(), 2u);
    for (const auto& row : j["rows"]) {
        EXPECT_FALSE(row["refused"].get<bool>()) << row.dump();
        EXPECT_GT(row["layouts_ranked"].get<double>(), 0) << row.dump();
        ASSERT_FALSE(row["rank"].is_null()) << row.dump();
        EXPECT_GE(row["rank"].get<long long>(), 1);
        EXPECT_GE(row["gap_to_best"].get<double>(), 0);
    }
    // A recipe kernel without rates at the model's head dim is timed by GEMM shape, as validate times
    // the row, not left out; uneven stages with interleaving count the embedding as a layer.
    const auto holdout = cli(dir, {"validate", "--plan", "--table", "holdout", "--row",
                                   "dgxc2505-h100-bf16-Nemotron4-340B-256g,dgxc2505-h100-bf16-DeepSeekV3-512g", "--json"});
    ASSERT_EQ(holdout.exitCode, 0) << holdout.err;
    const auto placed = nlohmann::json::parse(holdout.out);
    ASSERT_EQ(placed["rows"].size(), 2u);
    for (const auto& row : placed["rows"])
        EXPECT_FALSE(row["rank"].is_null()) << row.dump();
    const auto unknown = cli(dir, {"validate", "--plan", "--row", "no-such-row"});
    EXPECT_EQ(unknown.exitCode, 2) << unknown.err;
}

// moe-sweep --best-layout: every shape at its own best layout, the base shape placed.
TEST(CliPlan, MoeSweepAtBestLayoutsPlacesTheBaseShape)
{
    TempDir dir;
    const auto r = cli(dir, {"moe-sweep", "olmoe-1b-7b", "--hardware", "h100-sxm", "--best-layout", "--gpus", "64",
                             "--global-batch", "256", "--experts", "16,64", "--top-k", "2,8", "--shared", "0", "--fix",
                             "cp=1,pp=1,micro-batch=1,zero=1", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["rows"].size(), 4u);
    EXPECT_TRUE(j["rows"][0]["base"].get<bool>());
    int front = 0;
    for (const auto& row : j["rows"]) {
        EXPECT_FALSE(row["best_layout"].is_null()) << row.dump();
        EXPECT_GT(row["tokens_per_s"].get<double>(), 0);
        front += row["pareto"].get<bool>();
    }
    EXPECT_GE(front, 1);
    const auto base = j["base"].get<std::string>();
    EXPECT_TRUE(base == "on the Pareto front" || base.rfind("dominated by ", 0) == 0) << base;
    const auto missing = cli(dir, {"moe-sweep", "olmoe-1b-7b", "--hardware", "h100-sxm", "--best-layout"});
    EXPECT_EQ(missing.exitCode, 2) << missing.err;
    EXPECT_NE(missing.err.find("--gpus"), std::string::npos) << missing.err;
}

// moe-sweep --best-layout on a dense preset: hidden x FFN multiple, the layer count solved for the
// total parameters, every shape at its own best layout, rows that say what they are, the base placed.
TEST(CliPlan, DenseShapeSearchAtBestLayoutsPlacesTheBaseShape)
{
    TempDir dir;
    const std::vector<std::string> args{"moe-sweep", "llama-3-8b", "--hardware", "h100-sxm", "--best-layout",
                                        "--gpus", "64", "--global-batch", "256", "--hidden", "2048,4096",
                                        "--ffn-mult", "2.5,3.5", "--fix", "cp=1,pp=1,micro-batch=1,zero=1"};
    auto withJson = args;
    withJson.push_back("--json");
    const auto r = cli(dir, withJson);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("shape 1 of 4"), std::string::npos) << r.err; // progress on stderr
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["kind"], "dense");
    EXPECT_EQ(j["solved"], "layers");
    ASSERT_EQ(j["rows"].size(), 4u); // 4096 x 3.5 is the base itself, listed once, first
    const auto& base = j["rows"][0];
    EXPECT_TRUE(base["base"].get<bool>());
    EXPECT_EQ(base["hidden"], 4096);
    EXPECT_EQ(base["ffn_width"], 14336);
    EXPECT_EQ(base["layers"], 32);
    EXPECT_EQ(base["heads"], 32);
    EXPECT_EQ(base["kv_heads"], 8);
    EXPECT_EQ(base["shape"], "hidden 4096, FFN 14336, 32 layers, 32/8 heads");
    const double held = j["held_value"].get<double>();
    int front = 0;
    for (const auto& row : j["rows"]) {
        for (const char* key : {"hidden", "ffn_width", "layers", "heads", "kv_heads"})
            EXPECT_GT(row[key].get<int>(), 0) << key << ": " << row.dump();
        EXPECT_EQ(row["heads"].get<int>(), 4 * row["kv_heads"].get<int>()) << row.dump();
        EXPECT_NEAR(row["total_params"].get<double>(), held, 0.03 * held) << row.dump();
        EXPECT_FALSE(row["best_layout"].is_null()) << row.dump();
        EXPECT_GT(row["tokens_per_s"].get<double>(), 0);
        EXPECT_GT(row["decode_s_per_token"].get<double>(), 0);
        EXPECT_FALSE(row.contains("experts")) << "a dense row has no experts";
        front += row["pareto"].get<bool>();
    }
    EXPECT_GE(front, 1);
    const auto verdict = j["base"].get<std::string>();
    EXPECT_TRUE(verdict == "on the Pareto front" || verdict.rfind("dominated by hidden ", 0) == 0) << verdict;

    // The table: every shape ranked, its dimensions and the front marked, then the verdict.
    const auto text = cli(dir, args);
    ASSERT_EQ(text.exitCode, 0) << text.err;
    for (const char* column : {"hidden", "FFN", "layers", "heads (q/kv)", "tokens/s", "decode/token", "Pareto",
                               "best layout"})
        EXPECT_NE(text.out.find(column), std::string::npos) << column << "\n" << text.out;
    EXPECT_NE(text.out.find("4 dense shapes of llama-3-8b"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("The base shape (llama-3-8b): " + verdict + "."), std::string::npos) << text.out;

    // -o writes every shape at its best layout (it was ignored with --best-layout): one CSV line each,
    // with the dense columns.
    const auto csvPath = (dir.path / "shapes.csv").string();
    auto withCsv = args;
    withCsv.insert(withCsv.end(), {"-o", csvPath});
    const auto written = cli(dir, withCsv);
    ASSERT_EQ(written.exitCode, 0) << written.err;
    EXPECT_NE(written.err.find("4 shapes written to " + csvPath), std::string::npos) << written.err;
    std::ifstream csv(csvPath);
    std::string header, line;
    ASSERT_TRUE(std::getline(csv, header)) << "no CSV at " << csvPath;
    for (const char* column : {"hidden", "ffn_width", "layers", "heads", "tokens_per_s"})
        EXPECT_NE(header.find(column), std::string::npos) << column << ": " << header;
    int lines = 0;
    while (std::getline(csv, line))
        lines += !line.empty();
    EXPECT_EQ(lines, 4);
}

// Bad dense axes are usage errors (exit 2) that name the option.
TEST(CliPlan, DenseShapeSearchSaysWhatIsWrongWithTheAxes)
{
    TempDir dir;
    const std::vector<std::string> search{"moe-sweep", "llama-3-8b", "--hardware", "h100-sxm", "--best-layout",
                                          "--gpus", "8", "--global-batch", "64"};
    const struct
    {
        std::vector<std::string> extra;
        const char* says;
    } bad[] = {
        {{"--hidden", "3000"}, "--hidden: hidden 3000 is not a multiple of 512"},
        {{"--hidden", "4096", "--ffn-mult", "x"}, "--ffn-mult: 'x' is not a number"},
        {{"--hidden", "4096", "--ffn-mult", "3", "--ffn", "8192"}, "--ffn and --ffn-mult"},
        {{"--hidden", "4096", "--ffn-mult", "3", "--layers", "16"}, "--layers solves the FFN width"},
        {{"--experts", "8,16"}, "llama-3-8b is dense"},
    };
    for (const auto& b : bad) {
        auto args = search;
        args.insert(args.end(), b.extra.begin(), b.extra.end());
        const auto r = cli(dir, args);
        EXPECT_EQ(r.exitCode, 2) << b.says << ": " << r.err;
        EXPECT_NE(r.err.find(b.says), std::string::npos) << r.err;
    }
    // MoE axes of a dense base, dense axes of a MoE base, and a dense base without --best-layout.
    const auto moe = cli(dir, {"moe-sweep", "olmoe-1b-7b", "--hardware", "h100-sxm", "--best-layout", "--gpus", "8",
                               "--global-batch", "64", "--hidden", "2048"});
    EXPECT_EQ(moe.exitCode, 2) << moe.err;
    EXPECT_NE(moe.err.find("olmoe-1b-7b is MoE"), std::string::npos) << moe.err;
    const auto fixed = cli(dir, {"moe-sweep", "llama-3-8b", "--hardware", "h100-sxm"});
    EXPECT_EQ(fixed.exitCode, 2) << fixed.err;
    EXPECT_NE(fixed.err.find("--best-layout"), std::string::npos) << fixed.err;
}
