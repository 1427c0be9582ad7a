// Issue 25: NVIDIA's C-level tools through the real registry and ridgeline-cli, with the stand-ins
// (tests/standins/nvidia_standins.cpp: each tool's output layout, H100 SXM figures) under the real
// program names: `run cutlass`, `run babelstream`, `run nvbandwidth` store what the tool printed;
// the files the tools write import to the same figures; `tools` finds all three.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "childprocess.h"
#include "gputoolcli.h"
#include "store/kernelresults.h"
#include "store/workspace.h"

using namespace rl;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {
class CliNvTools : public test::GpuToolCli
{
protected:
    std::vector<std::string> run(const std::string& tool, std::vector<std::string> args) const
    {
        args.insert(args.begin(), {"run", tool, "--tool-dir", RIDGELINE_STANDIN_BIN});
        return cli(args);
    }
    // A tool's own output saved to a file, as a user would keep it.
    fs::path save(const std::string& program, const std::vector<std::string>& args, const std::string& name)
    {
        std::vector<std::string> argv{std::string(RIDGELINE_STANDIN_BIN) + "/" + program};
        argv.insert(argv.end(), args.begin(), args.end());
        const auto r = test::runToEnd(argv);
        EXPECT_EQ(r.exitCode, 0) << r.err;
        const fs::path file = dir.path / name;
        std::ofstream(file) << r.out;
        return file;
    }
};
} // namespace

TEST_F(CliNvTools, CutlassOverTwoShapesStoresEachKernelsRuntimeAndRate)
{
    const auto r = test::runToEnd(run("cutlass", {"--shape", "8192x8192x8192xTN,1024x1024x1024", "--dtype", "bf16"}));
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    const auto all = sessions();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_NE(all[0].commandLine.find("--operation=Gemm --m=8192 --n=8192 --k=8192 --A=bf16:row --B=bf16:column"),
              std::string::npos) << all[0].commandLine;
    EXPECT_EQ(all[0].kind, "gemm");
    EXPECT_EQ(all[0].tool, "cutlass_profiler");
    EXPECT_EQ(all[0].toolVersion, "3.9.2"); // `cutlass_profiler --version`
    EXPECT_EQ(all[0].status, SessionStatus::Complete) << all[0].notes;
    EXPECT_NE(r.out.find("\"message\":\"4 results of 2 shapes\""), std::string::npos) << r.out;
    store::Workspace ws(db.string());
    const auto g = store::gemmPoints(ws.database(), all[0].id);
    ASSERT_EQ(g.size(), 4u) << "two kernels per shape, each printed once (blocks, not the trailing CSV again)";
    EXPECT_EQ(g[0].m, 8192);
    EXPECT_EQ(g[0].dtype, "bfloat16");
    EXPECT_EQ(g[0].transA, "T");
    EXPECT_EQ(g[0].transB, "N");
    // The stand-in's H100 model: 740 TFLOP/s x (1 - e^(-2MNK / 5e9)) + 100 GFLOP/s, the second tile 96 %.
    EXPECT_NEAR(g[0].gflops, 740100, 1);
    EXPECT_NEAR(g[0].timeUs, 2.0 * 8192 * 8192 * 8192 / 740100e3, 0.05); // 6 digits of ms
    EXPECT_NEAR(g[1].gflops, 740100 * 0.96, 1);
    EXPECT_NE(g[1].solution.find("256x128x64_2x1x1"), std::string::npos) << g[1].solution;
    EXPECT_EQ(g[2].m, 1024);
    EXPECT_NEAR(g[2].gflops, 740000 * (1 - std::exp(-2.0 * 1024 * 1024 * 1024 / 5e9)) + 100, 1);
}

TEST_F(CliNvTools, CutlassWrongResultFailsTheRunAndItsCsvReportImports)
{
    setenv("STANDIN_WRONG_ROW", "1", 1);
    auto r = test::runToEnd(run("cutlass", {"--shape", "2048x2048x2048", "--dtype", "fp8"}));
    EXPECT_EQ(r.exitCode, 1);
    auto all = sessions();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].status, SessionStatus::Failed);
    EXPECT_NE(all[0].notes.find("disposition Incorrect"), std::string::npos) << all[0].notes;
    unsetenv("STANDIN_WRONG_ROW");
    // --output=FILE writes FILE.gemm.csv: the report imports with the same figures.
    save("cutlass_profiler", {"--operation=Gemm", "--m=4096", "--n=4096", "--k=4096", "--A=e4m3:row", "--B=e4m3:column",
                              "--output=" + (dir.path / "report.csv").string()},
         "console.txt");
    r = test::runToEnd(cli({"import", (dir.path / "report.gemm.csv").string()}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    all = sessions();
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].tool, "cutlass_profiler");
    store::Workspace ws(db.string());
    const auto g = store::gemmPoints(ws.database(), all[0].id);
    ASSERT_EQ(g.size(), 2u);
    EXPECT_EQ(g[0].dtype, "float8_e4m3");
    const double flops = 2.0 * 4096 * 4096 * 4096;
    EXPECT_NEAR(g[0].gflops, 1450000 * (1 - std::exp(-flops / 5e9)) + 100, 2);
}

TEST_F(CliNvTools, BabelStreamRunStoresFiveKernelsInGBs)
{
    const auto r = test::runToEnd(run("babelstream", {"--", "--arraysize", "33554432"}));
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    const auto all = sessions();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].kind, "membw");
    EXPECT_EQ(all[0].tool, "babelstream");
    EXPECT_EQ(all[0].status, SessionStatus::Complete) << all[0].notes;
    EXPECT_EQ(all[0].params["version"], "5.0");
    EXPECT_EQ(all[0].toolVersion, "5.0"); // from its header: BabelStream is not asked before
    EXPECT_EQ(all[0].params["unit"], "MB");
    store::Workspace ws(db.string());
    const auto p = store::memBwPoints(ws.database(), all[0].id);
    ASSERT_EQ(p.size(), 5u);
    EXPECT_EQ(p[0].kernel, "copy");
    EXPECT_EQ(p[1].kernel, "scale");
    EXPECT_EQ(p[4].kernel, "dot");
    // "Array size: 268.4 MB": the table does not print the element count, so 268.4e6 / 8 elements.
    EXPECT_EQ(p[0].bytes, 2LL * 268400000);
    EXPECT_NEAR(p[0].bandwidthGBs, 2934.0, 0.001);
    EXPECT_EQ(p[3].bytes, 3LL * 268400000);
    EXPECT_NEAR(p[3].bandwidthGBs, 3041.0, 0.001);
}

TEST_F(CliNvTools, BabelStreamCsvInMibibytesImportsExactAndAFailingRunKeepsItsKernels)
{
    const auto file = save("cuda-stream", {"--csv", "--mibibytes", "--float", "--arraysize", "1048576"}, "bs.csv");
    auto r = test::runToEnd(cli({"import", file.string()}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    auto all = sessions();
    ASSERT_EQ(all.size(), 1u);
    store::Workspace ws(db.string());
    auto p = store::memBwPoints(ws.database(), all[0].id);
    ASSERT_EQ(p.size(), 5u);
    EXPECT_EQ(p[2].kernel, "add");
    EXPECT_EQ(p[2].bytes, 3LL * 4 * 1048576);
    EXPECT_NEAR(p[2].bandwidthGBs, 3038.0, 0.01); // MiB/s x 2^20 / 1e9: the stand-in's 3.038e12 B/s
    setenv("STANDIN_FAIL_AFTER", "3", 1);
    r = test::runToEnd(run("babelstream", {}));
    EXPECT_EQ(r.exitCode, 1);
    all = sessions();
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].status, SessionStatus::Failed);
    EXPECT_NE(all[0].notes.find("illegal memory access"), std::string::npos) << all[0].notes;
    EXPECT_EQ(store::memBwPoints(ws.database(), all[0].id).size(), 3u);
    // BabelStream's own check of the arrays failing (on stderr; it still exits 0) fails the run.
    unsetenv("STANDIN_FAIL_AFTER");
    setenv("STANDIN_WRONG_ROW", "0", 1);
    r = test::runToEnd(run("babelstream", {}));
    EXPECT_EQ(r.exitCode, 1);
    all = sessions();
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(all[0].status, SessionStatus::Failed);
    EXPECT_NE(all[0].notes.find("Validation failed on c[]"), std::string::npos) << all[0].notes;
}

TEST_F(CliNvTools, NvbandwidthRunKeepsEachMatrixAndItsJsonImportsTheSame)
{
    setenv("STANDIN_GPUS", "4", 1);
    auto r = test::runToEnd(run("nvbandwidth", {"--", "-t", "host_to_device_memcpy_ce", "-t", "device_to_device_memcpy_read_ce"}));
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    auto all = sessions();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].kind, "copybw");
    EXPECT_EQ(all[0].toolVersion, "v0.8"); // `nvbandwidth --list`
    EXPECT_EQ(all[0].status, SessionStatus::Complete) << all[0].notes;
    const json& m = all[0].params["matrices"];
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(m[0]["description"], "memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)");
    ASSERT_EQ(m[0]["values"].size(), 1u);
    ASSERT_EQ(m[0]["values"][0].size(), 4u);
    EXPECT_DOUBLE_EQ(m[0]["values"][0][1].get<double>(), 55.3); // 55.21 + 0.03 x 3
    EXPECT_DOUBLE_EQ(m[0]["sum"].get<double>(), 221.38);
    EXPECT_TRUE(m[1]["values"][3][3].is_null());
    EXPECT_DOUBLE_EQ(m[1]["values"][1][0].get<double>(), 389.73); // 389.52 + 0.03 x 7
    EXPECT_EQ(all[0].params["devices"].size(), 4u);
    // `results` shows each matrix as a table.
    r = test::runToEnd(cli({"results", std::to_string(all[0].id)}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("389.73"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("N/A"), std::string::npos) << r.out;
    // The same testcases saved with -j import to the same matrices.
    const auto file = save("nvbandwidth", {"-j", "-t", "host_to_device_memcpy_ce", "-t", "device_to_device_memcpy_read_ce"},
                           "nvb.json");
    r = test::runToEnd(cli({"import", file.string()}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    all = sessions();
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].params["matrices"][0]["values"], all[1].params["matrices"][0]["values"]);
    EXPECT_EQ(all[0].params["matrices"][1]["values"], all[1].params["matrices"][1]["values"]);
    // -j cannot be read as it prints: said before anything runs.
    r = test::runToEnd(run("nvbandwidth", {"--", "-j"}));
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("leave -j out"), std::string::npos) << r.err;
}

TEST_F(CliNvTools, ToolsListsTheNvidiaToolsWithTheirVersions)
{
    const auto r = test::runToEnd(cli({"--json", "tools", "--add-folder", RIDGELINE_STANDIN_BIN}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const json j = json::parse(r.out);
    std::map<std::string, json> byId;
    for (const auto& t : j["tools"])
        byId[t["id"]] = t;
    ASSERT_EQ(byId.count("cutlass_profiler"), 1u) << r.out;
    EXPECT_TRUE(byId["cutlass_profiler"]["found"].get<bool>());
    EXPECT_EQ(byId["cutlass_profiler"]["version"], "3.9.2");
    EXPECT_EQ(byId["babelstream"]["programs"], json::array({"cuda-stream"}));
    EXPECT_EQ(byId["babelstream"]["version"], "");
    EXPECT_NE(byId["babelstream"]["version_source"].get<std::string>().find("output header"), std::string::npos);
    EXPECT_EQ(byId["nvbandwidth"]["version"], "v0.8");
    EXPECT_EQ(byId["nvbandwidth"]["version_source"], "--list");
}
