// One home for a run (issue 24): a RunRequest becomes ridgeline-cli arguments (what the GUI's
// dialogs start and preview), the real CLI binds them back into the same request
// (--print-request), launches the command the request describes (--dry-run), and refuses what
// validate() refuses with the same sentence.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "childprocess.h"
#include "runs/runrequest.h"
#include "tempdir.h"

namespace {
using rl::runs::Launch;
using rl::runs::RunKind;
using rl::runs::RunRequest;

std::vector<std::string> cliArgv(const std::filesystem::path& db, const RunRequest& r,
                                 std::initializer_list<const char*> flags)
{
    std::vector<std::string> argv{RIDGELINE_CLI, "--db", (db / "ws.db").string()};
    const auto args = r.toCliArgs();
    // The CLI's own flags go before "--" (what follows belongs to the runner or tool).
    auto dashes = std::find(args.begin(), args.end(), "--");
    argv.insert(argv.end(), args.begin(), dashes);
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), dashes, args.end());
    return argv;
}

std::vector<RunRequest> table()
{
    std::vector<RunRequest> t;
    RunRequest r = RunRequest::defaults(RunKind::Collectives);
    r.launch.np = 4;
    r.launch.mpirunArgs = {"--oversubscribe", "--mca", "btl", "self,vader"};
    r.title = "it's a \"sweep\" & more";
    r.pointTimeoutS = 30;
    r.args = {"--ops", "all_reduce,all_gather", "-b", "8", "-e", "1M", "-f", "4"};
    t.push_back(r);

    r = RunRequest::defaults(RunKind::Collectives);
    r.launch.mode = Launch::Mode::Hostfile;
    r.launch.hostfile = "/etc/hosts list";
    r.launch.mpirun = "/opt/ompi/bin/mpirun";
    r.launch.np = 16;
    r.program = "/opt/ridgeline/bin/ridgeline-bench";
    t.push_back(r);

    r = RunRequest::defaults(RunKind::Pairs);
    r.launch.mode = Launch::Mode::Template;
    r.launch.templ = "srun --mpi=pmix -N {nodes} --ntasks-per-node {ppn} {bench}";
    r.launch.nodes = 2;
    r.launch.ppn = 8;
    r.launch.np = 16;
    r.launch.sbatch = {true, {"--partition=gpu", "--time=00:30:00"}, "/shared/jobs"};
    r.pointTimeoutS = 0; // never
    t.push_back(r);

    r = RunRequest::defaults(RunKind::Io);
    r.args = {"--dir", "/scratch/x", "--file-size", "1G"};
    t.push_back(r);

    r = RunRequest::defaults(RunKind::MemBw);
    r.args = {"--threads", "1,2"};
    r.title = "membw";
    t.push_back(r);

    r = RunRequest::defaults(RunKind::NcclTests);
    r.ops = {"all_reduce", "all_gather"};
    r.env = {"NCCL_ALGO=Ring", "NCCL_DEBUG=WARN"};
    r.program = "/opt/nccl-tests/build";
    r.launch.mode = Launch::Mode::Hostfile;
    r.launch.hostfile = "hosts";
    r.launch.np = 8;
    r.pointTimeoutS = 120;
    r.args = {"-b", "8", "-e", "8G", "-f", "2", "-g", "1"};
    t.push_back(r);

    r = RunRequest::defaults(RunKind::NcclTests); // one process: local, whatever the form said
    r.launch.mode = Launch::Mode::LocalMpirun;
    r.launch.np = 1;
    r.launch.sbatch = {true, {"--gpus-per-node=8"}, ""};
    t.push_back(r);

    r = RunRequest::defaults(RunKind::Hipblaslt);
    r.gemm.recipe = "max-achievable";
    r.gemm.cus = 304;
    r.gemm.dtype = "fp8";
    r.gemm.iters = 50;
    t.push_back(r);

    r = RunRequest::defaults(RunKind::Hipblaslt);
    r.gemm.recipe = "model";
    r.gemm.config = "llama-3-8b";
    r.gemm.parallel = "tp=8,pp=1,dp=16";
    r.gemm.seq = 8192;
    r.gemm.microBatch = 2;
    t.push_back(r);

    r = RunRequest::defaults(RunKind::Rocblas);
    r.gemm.shapes = {"4096x4096x4096", "8192x1024x4096xNT"};
    r.gemm.square = "256:1024";
    r.gemm.computeType = "f16_r";
    r.gemm.coldIters = 3;
    r.args = {"--flush"};
    t.push_back(r);

    r = RunRequest::defaults(RunKind::Probe); // ridgeline-probe on 8 GPUs of a Slurm node
    r.probe = "collectives";
    r.launch.mode = Launch::Mode::Template;
    r.launch.templ = "srun --ntasks-per-node {ppn} {bench}";
    r.launch.ppn = 8;
    r.launch.np = 8;
    r.env = {"NCCL_DEBUG=WARN"};
    r.program = "/opt/rl/bin/ridgeline-probe";
    r.args = {"-b", "8", "-e", "8G"};
    t.push_back(r);

    r = RunRequest::defaults(RunKind::Cutlass); // issue 25: the NVIDIA tools
    r.gemm.square = "1024:8192";
    r.gemm.dtype = "bf16";
    r.gemm.iters = 20;
    r.args = {"--providers=cutlass"};
    t.push_back(r);

    r = RunRequest::defaults(RunKind::BabelStream);
    r.program = "/opt/babelstream/build";
    r.env = {"CUDA_VISIBLE_DEVICES=3"};
    r.args = {"--arraysize", "268435456", "--csv"};
    t.push_back(r);

    r = RunRequest::defaults(RunKind::Nvbandwidth);
    r.pointTimeoutS = 900;
    r.args = {"-t", "device_to_device_memcpy_read_ce"};
    t.push_back(r);
    return t;
}

TEST(RunRequest, JsonKeepsEveryField)
{
    for (const auto& r : table()) {
        EXPECT_EQ(rl::runs::runRequestFromJson(rl::runs::toJson(r)), r) << rl::runs::toJson(r).dump();
        EXPECT_EQ(r.validate(), "") << rl::runs::toJson(r).dump();
        // Only the fields its kind uses: a collectives session's params.request showed a default
        // GEMM selection in the Details panel (issue 24).
        const auto j = rl::runs::toJson(r);
        EXPECT_EQ(j.contains("gemm"), rl::runs::info(r.kind).gemmShapes) << j.dump();
        EXPECT_EQ(j.contains("ops"), r.kind == RunKind::NcclTests) << j.dump();
        EXPECT_EQ(j.contains("probe"), r.kind == RunKind::Probe) << j.dump();
    }
}

TEST(RunRequest, TheCliBindsItsArgumentsIntoTheSameRequest)
{
    rl::test::TempDir dir;
    for (const auto& r : table()) {
        const auto done = rl::test::runToEnd(cliArgv(dir.path, r, {"--print-request"}));
        ASSERT_EQ(done.exitCode, 0) << done.err;
        const RunRequest back = rl::runs::runRequestFromJson(nlohmann::json::parse(done.out));
        EXPECT_EQ(back, r.canonical()) << "sent:  " << rl::runs::toJson(r.canonical()).dump()
                                       << "\nbound: " << done.out;
        EXPECT_EQ(back.toCliArgs(), r.toCliArgs());
    }
    // Nothing was run, so nothing was stored.
    EXPECT_FALSE(std::filesystem::exists(dir.path / "ws.db"));
}

TEST(RunRequest, DryRunPrintsTheCommandTheRequestLaunches)
{
    rl::test::TempDir dir;
    const auto t = table();
    // Under a launcher template the user's own line, with the runner and its arguments in {bench}.
    const auto pairs = rl::test::runToEnd(cliArgv(dir.path, t[2], {"--dry-run"}));
    ASSERT_EQ(pairs.exitCode, 0) << pairs.err;
    EXPECT_EQ(pairs.out.rfind("srun --mpi=pmix -N 2 --ntasks-per-node 8 ", 0), 0u) << pairs.out;
    EXPECT_NE(pairs.out.find("ridgeline-bench pairs"), std::string::npos) << pairs.out;
    // A point timeout of 0 (never) gives the runner none.
    EXPECT_EQ(pairs.out.find("--point-timeout"), std::string::npos) << pairs.out;

    // mpirun with a hostfile, the runner given, its point timeout passed on.
    const auto coll = rl::test::runToEnd(cliArgv(dir.path, t[1], {"--dry-run"}));
    ASSERT_EQ(coll.exitCode, 0) << coll.err;
    EXPECT_EQ(coll.out, "/opt/ompi/bin/mpirun -hostfile '/etc/hosts list' -np 16 /opt/ridgeline/bin/ridgeline-bench "
                        "collectives --point-timeout 60\n");

    // A GPU tool found in its folder, one process, per op.
    RunRequest nccl = RunRequest::defaults(RunKind::NcclTests);
    nccl.program = RIDGELINE_STANDIN_BIN;
    nccl.ops = {"all_reduce", "broadcast"};
    nccl.args = {"-b", "8", "-e", "64M"};
    const auto tool = rl::test::runToEnd(cliArgv(dir.path, nccl, {"--dry-run"}));
    ASSERT_EQ(tool.exitCode, 0) << tool.err;
    EXPECT_EQ(tool.out, std::string(RIDGELINE_STANDIN_BIN) + "/all_reduce_perf -b 8 -e 64M\n" +
                            RIDGELINE_STANDIN_BIN + "/broadcast_perf -b 8 -e 64M\n");
}

TEST(RunRequest, TheCliRefusesWhatValidateRefusesWithTheSameSentence)
{
    rl::test::TempDir dir;
    std::vector<RunRequest> bad;
    RunRequest r = RunRequest::defaults(RunKind::Collectives);
    r.launch.mode = Launch::Mode::Template;
    r.launch.templ = "srun -N {nodes}";
    bad.push_back(r);
    r = RunRequest::defaults(RunKind::NcclTests);
    r.env = {"1NCCL=x"};
    bad.push_back(r);
    r = RunRequest::defaults(RunKind::NcclTests);
    r.args = {"-b", "1G", "-e", "1M"};
    bad.push_back(r);
    r = RunRequest::defaults(RunKind::Hipblaslt);
    r.gemm.recipe = "max-achievable";
    bad.push_back(r);
    r = RunRequest::defaults(RunKind::Rocblas);
    bad.push_back(r); // no shapes at all
    r = RunRequest::defaults(RunKind::Rocblas);
    r.gemm.square = "4096:256";
    bad.push_back(r);
    r = RunRequest::defaults(RunKind::Probe);
    r.probe = "flops";
    bad.push_back(r);
    for (const auto& b : bad) {
        const std::string problem = b.validate();
        ASSERT_FALSE(problem.empty()) << rl::runs::toJson(b).dump();
        const auto done = rl::test::runToEnd(cliArgv(dir.path, b, {"--dry-run"}));
        EXPECT_EQ(done.exitCode, 2) << problem;
        EXPECT_NE(done.err.find(problem), std::string::npos) << "validate: " << problem << "\nCLI: " << done.err;
    }
}

TEST(RunRequest, ExpectedPointsFollowTheRunnersPlanning)
{
    RunRequest c = RunRequest::defaults(RunKind::Collectives);
    c.args = {"--ops", "all_reduce,all_gather", "-b", "8", "-e", "1K", "-f", "2", "--inplace", "0"};
    EXPECT_EQ(c.expectedPoints(), 2 * 8); // 8 B .. 1 KiB: 8 sizes
    c.args.insert(c.args.end(), {"-d", "float32,float64"});
    EXPECT_EQ(c.expectedPoints(), 2 * 2 * 8);
    c.args.insert(c.args.end(), {"--inplace", "both"});
    EXPECT_EQ(c.expectedPoints(), 2 * 2 * 8 * 2);

    RunRequest n = RunRequest::defaults(RunKind::NcclTests);
    n.ops = {"all_reduce", "all_gather"};
    n.args = {"-b", "8", "-e", "8G", "-f", "2"};
    EXPECT_EQ(n.expectedPoints(), 2 * 31 * 2); // 8 B .. 8 GiB, out of place and in place
    n.args = {"-b", "1M", "-e", "4M", "-i", "1M"};
    EXPECT_EQ(n.expectedPoints(), 2 * 4 * 2);

    RunRequest g = RunRequest::defaults(RunKind::Hipblaslt);
    g.gemm.square = "256:16384";
    EXPECT_EQ(g.expectedPoints(), 7);
    g.gemm.shapes = {"1x2x3"};
    EXPECT_EQ(g.expectedPoints(), 8);
    g.gemm.square.clear();
    g.gemm.recipe = "model";
    g.gemm.config = "llama-3-8b";
    EXPECT_EQ(g.expectedPoints(), 0); // the CLI lists the model's GEMMs when it starts
}

TEST(RunRequest, DefaultPointTimeoutsByKind)
{
    EXPECT_EQ(RunRequest::defaults(RunKind::Io).pointTimeout(), 600);
    EXPECT_EQ(RunRequest::defaults(RunKind::Pairs).pointTimeout(), 60);
    EXPECT_EQ(RunRequest::defaults(RunKind::NcclTests).pointTimeout(), 300);
    EXPECT_EQ(RunRequest::defaults(RunKind::PeakFlops).pointTimeout(), 0);
    EXPECT_EQ(RunRequest::defaults(RunKind::Probe).pointTimeout(), 600);
    RunRequest c = RunRequest::defaults(RunKind::Collectives);
    EXPECT_EQ(c.pointTimeout(), 60);
    c.args = {"--time-per-size", "10"};
    EXPECT_EQ(c.pointTimeout(), 200);
    c.pointTimeoutS = 0;
    EXPECT_EQ(c.pointTimeout(), 0);
}
} // namespace
