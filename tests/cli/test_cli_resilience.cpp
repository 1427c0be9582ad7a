// ridgeline-cli for issue 14: `run io` under real mpirun (stored as it runs; a full file system
// ends the session "failed" with the reason and leaves the workspace intact), fio/IOR import, and
// the planner commands `checkpoint` and `reshape` with --json.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sys/mount.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "childprocess.h"
#include "clirun.h"
#include "tempdir.h"
#include "store/storageresults.h"
#include "store/workspace.h"

using namespace rl;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {
using test::TempDir;

std::vector<std::string> cli(const fs::path& db, std::vector<std::string> args, bool jsonOut = false)
{
    std::vector<std::string> argv{RIDGELINE_CLI, "--db", db.string()};
    if (jsonOut)
        argv.push_back("--json");
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
}

bool mpiAvailable() { return fs::exists(RIDGELINE_MPIEXEC) && fs::exists(RIDGELINE_BENCH); }

std::vector<std::string> runIo(const fs::path& db, const std::vector<std::string>& runner)
{
    return test::cliRun(db, "io", 2, runner);
}

json jsonOf(const test::Finished& r)
{
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return json::parse(r.out);
}

const std::string kStorageData = std::string(RIDGELINE_TEST_DATA) + "/storage/";
} // namespace

TEST(CliIo, RunIoStoresEveryPointAsAStorageSession)
{
    if (!mpiAvailable())
        GTEST_SKIP() << "mpirun or ridgeline-bench not available";
    TempDir dir;
    const auto db = dir.path / "w.db";
    const auto scratch = dir.path / "scratch";
    fs::create_directory(scratch);
    const auto r = test::runToEnd(runIo(db, {"--dir", scratch.string(), "--sizes", "1M,2M", "--blocks", "512K"}));
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    store::Workspace ws(db.string());
    const auto sessions = ws.sessions();
    ASSERT_EQ(sessions.size(), 1u);
    EXPECT_EQ(sessions[0].kind, "storage");
    EXPECT_EQ(sessions[0].status, SessionStatus::Complete);
    EXPECT_NE(sessions[0].commandLine.find(" io "), std::string::npos) << sessions[0].commandLine;
    EXPECT_EQ(sessions[0].params["runner"].value("expected_points", 0), 8);
    const auto points = store::storagePoints(ws.database(), sessions[0].id);
    EXPECT_EQ(points.size(), 8u); // ranks 1 and 2, two file sizes, write and read
    EXPECT_TRUE(fs::is_empty(scratch));
    // The stored session feeds the planner.
    const auto plan = jsonOf(test::runToEnd(cli(db, {"checkpoint", "llama-3-8b", "--parallel", "dp=8", "--storage",
                                                     std::to_string(sessions[0].id), "--mtbf", "5000"},
                                                true)));
    EXPECT_GT(plan["storage"]["write_aggregate_gbs"].get<double>(), 0);
    EXPECT_NE(plan["storage"]["source"].get<std::string>().find("session"), std::string::npos);
    const auto results = test::runToEnd(cli(db, {"results", std::to_string(sessions[0].id)}));
    EXPECT_EQ(results.exitCode, 0);
    EXPECT_NE(results.out.find("file-per-process"), std::string::npos) << results.out;
    // Both charts, as an image and as data.
    const auto id = std::to_string(sessions[0].id);
    const auto svg = dir.path / "size.svg", csv = dir.path / "ranks.csv";
    auto e = test::runToEnd(cli(db, {"export", id, "--chart", "storage-size", "-o", svg.string()}));
    ASSERT_EQ(e.exitCode, 0) << e.err;
    std::ifstream svgIn(svg);
    const std::string svgText((std::istreambuf_iterator<char>(svgIn)), std::istreambuf_iterator<char>());
    EXPECT_NE(svgText.find("<svg"), std::string::npos);
    EXPECT_NE(svgText.find("write fpp 2 ranks"), std::string::npos);
    e = test::runToEnd(cli(db, {"export", id, "--chart", "storage-ranks", "-o", csv.string()}));
    ASSERT_EQ(e.exitCode, 0) << e.err;
    std::ifstream csvIn(csv);
    std::string header;
    std::getline(csvIn, header);
    EXPECT_EQ(header, "series,ranks,aggregate_gbs");
}

TEST(CliIo, FullFileSystemFailsTheSessionAndKeepsTheWorkspace)
{
    if (!mpiAvailable())
        GTEST_SKIP() << "mpirun or ridgeline-bench not available";
    if (geteuid() != 0)
        GTEST_SKIP() << "mounting a small tmpfs needs root";
    TempDir dir;
    const auto db = dir.path / "w.db";
    const auto mnt = dir.path / "small";
    fs::create_directory(mnt);
    if (::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=8M") != 0)
        GTEST_SKIP() << "cannot mount a tmpfs here: " << std::strerror(errno);
    struct Unmount
    {
        fs::path p;
        ~Unmount() { ::umount2(p.c_str(), MNT_DETACH); }
    } unmount{mnt};
    // A first, healthy session in the workspace.
    ASSERT_EQ(test::runToEnd(cli(db, {"import", kStorageData + "ior-3.2.0-shared.txt"})).exitCode, 0);
    const auto r = test::runToEnd(runIo(db, {"--dir", mnt.string(), "--sizes", "16M", "--blocks", "1M", "--ranks", "2"}));
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_TRUE(fs::is_empty(mnt));
    // The workspace opens, lists both sessions, and says why the run failed.
    const auto list = jsonOf(test::runToEnd(cli(db, {"sessions"}, true)));
    ASSERT_EQ(list.size(), 2u);
    store::Workspace ws(db.string());
    const auto s = ws.sessions().front();
    EXPECT_EQ(s.kind, "storage");
    EXPECT_EQ(s.status, SessionStatus::Failed);
    EXPECT_NE(s.notes.find("No space left on device"), std::string::npos) << s.notes;
    EXPECT_EQ(store::storagePoints(ws.database(), ws.sessions().back().id).size(), 1u); // the IOR import
}

TEST(CliIo, FioAndIorImportsAreStorageSessions)
{
    TempDir dir;
    const auto db = dir.path / "w.db";
    const auto r = test::runToEnd(
        cli(db, {"import", kStorageData + "fio-ckpt-2jobs.json", kStorageData + "ior-4.0.0-fpp-odirect.txt"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto list = jsonOf(test::runToEnd(cli(db, {"sessions"}, true)));
    ASSERT_EQ(list.size(), 2u);
    for (const auto& s : list)
        EXPECT_EQ(s.value("kind", std::string{}), "storage");
    const auto id = std::to_string(list[0].value("id", 0));
    const auto points = jsonOf(test::runToEnd(cli(db, {"results", id}, true)));
    EXPECT_FALSE(points.empty());
    EXPECT_EQ(points[0].value("record", std::string{}), "storage");
    // Raw points out as JSON lines and back in as an equal session.
    const auto jsonl = dir.path / "points.jsonl";
    ASSERT_EQ(test::runToEnd(cli(db, {"export", id, "--points", "-o", jsonl.string()})).exitCode, 0);
    const auto db2 = dir.path / "w2.db";
    ASSERT_EQ(test::runToEnd(cli(db2, {"import", jsonl.string()})).exitCode, 0);
    const auto again = jsonOf(test::runToEnd(cli(db2, {"results", "1"}, true)));
    EXPECT_EQ(again, points);
}

TEST(CliCheckpoint, JsonPlanWithTypedStorageAndPublishedFailureRate)
{
    TempDir dir;
    const auto db = dir.path / "w.db";
    const auto plan = jsonOf(test::runToEnd(cli(db, {"checkpoint", "llama-3-8b", "--parallel", "tp=2,pp=2,dp=4", "--zero",
                                                     "1", "--storage", "10GB/s:20GB/s", "--mtbf", "table:llama3-405b",
                                                     "-o", (dir.path / "curves.csv").string()},
                                                true)));
    const double shard = 8'030'261'248.0 / 4;
    EXPECT_DOUBLE_EQ(plan["size"]["max_rank_bytes"].get<double>(), 2 * shard + 12 * shard / 4);
    EXPECT_DOUBLE_EQ(plan["size"]["total_bytes"].get<double>(), 14 * 8'030'261'248.0);
    EXPECT_DOUBLE_EQ(plan["times"]["sync_save_s"].get<double>(), 14 * 8'030'261'248.0 / 10e9);
    EXPECT_EQ(plan["nodes"].get<int>(), 2);
    EXPECT_NEAR(plan["failures"]["node_mtbf_hours"].get<double>(), 54.0 * 24 * 2048 / 419, 1e-6);
    EXPECT_GT(plan["goodput"].get<double>(), 0.9);
    EXPECT_LT(plan["goodput"].get<double>(), 1.0);
    EXPECT_GE(plan["interval_s"].get<double>(), plan["daly_interval_s"].get<double>());
    EXPECT_FALSE(plan["goodput_vs_nodes"].empty());
    EXPECT_TRUE(fs::file_size(dir.path / "curves.csv") > 100);
    for (const char* chart : {"interval", "nodes"}) {
        const auto png = dir.path / (std::string(chart) + ".png");
        const auto r = test::runToEnd(cli(db, {"checkpoint", "llama-3-8b", "--parallel", "dp=8", "--storage", "10GB/s",
                                               "--mtbf", "2000", "-o", png.string(), "--chart", chart}));
        ASSERT_EQ(r.exitCode, 0) << r.err;
        EXPECT_GT(fs::file_size(png), 1000u) << chart;
    }
    // The failure-rate table, to edit and pass back.
    const auto rates = jsonOf(test::runToEnd(cli(db, {"checkpoint", "--list-failure-rates"})));
    ASSERT_GE(rates.size(), 3u);
    EXPECT_EQ(rates[0]["interruptions"].get<int>(), 419);
    const auto edited = dir.path / "rates.json";
    {
        auto table = rates;
        table[0]["interruptions"] = 838; // twice the failures: half the MTBF
        std::ofstream(edited) << table.dump();
    }
    const auto halved = jsonOf(test::runToEnd(cli(db, {"checkpoint", "llama-3-8b", "--parallel", "dp=8", "--storage",
                                                       "10GB/s", "--failure-table", edited.string()},
                                                  true)));
    EXPECT_NEAR(halved["failures"]["node_mtbf_hours"].get<double>(), 54.0 * 24 * 2048 / 838, 1e-6);
    // Text output names the numbers.
    const auto text = test::runToEnd(cli(db, {"checkpoint", "llama-3-8b", "--parallel", "dp=8", "--storage", "10GB/s",
                                              "--mtbf", "2000", "--async"}));
    ASSERT_EQ(text.exitCode, 0) << text.err;
    for (const char* s : {"Young interval", "Daly interval", "expected goodput", "training blocked", "goodput vs nodes"})
        EXPECT_NE(text.out.find(s), std::string::npos) << s;
}

TEST(CliCheckpoint, MtbfFromATrainingLogAndClearErrors)
{
    TempDir dir;
    const auto db = dir.path / "w.db";
    ASSERT_EQ(test::runToEnd(cli(db, {"import", std::string(RIDGELINE_SAMPLE_DATA) +
                                                    "/megatron-lm_gpt-8b_16xH100_pretrain.log"}))
                  .exitCode,
              0);
    const auto list = jsonOf(test::runToEnd(cli(db, {"sessions"}, true)));
    const auto id = std::to_string(list[0].value("id", 0));
    const auto plan = jsonOf(test::runToEnd(cli(db, {"checkpoint", "llama-3-8b", "--parallel", "dp=16", "--storage",
                                                     "10GB/s", "--mtbf", "log:" + id, "--log-nodes", "2"},
                                                true)));
    EXPECT_NE(plan["failures"]["source"].get<std::string>().find("training log session"), std::string::npos);
    // The sample log: 1 restart in 17,568.9 s of wall time, on the 2 nodes given: node MTBF
    // 2 x 17,568.9 s = 9.76 h; the relaunch is the 1,380 s gap before the first step after the restart.
    EXPECT_NEAR(plan["failures"]["node_mtbf_hours"].get<double>(), 2 * 17568.91 / 3600, 1e-3);
    EXPECT_NEAR(plan["failures"]["relaunch_s"].get<double>(), 1380.084, 1e-3);
    EXPECT_NEAR(plan["failures"]["restart_s"].get<double>(), 1380.084 + plan["times"]["load_s"].get<double>(), 1e-6);
    for (const auto& [args, message] :
         std::vector<std::pair<std::vector<std::string>, std::string>>{
             {{"checkpoint", "llama-3-8b", "--storage", "fast"}, "not a bandwidth"},
             {{"checkpoint", "llama-3-8b", "--storage", "10GB/s", "--mtbf", "table:nope"}, "not in the failure table"},
             {{"checkpoint", "llama-3-8b", "--storage", id}, "not storage"},
             {{"checkpoint", "--storage", "10GB/s"}, "a model config is required"},
             {{"reshape", "llama-3-8b", "--from", "tp=8", "--to", "dp=3,ep=2"}, "--to dp=3,ep=2: parallel layout"}}) {
        const auto r = test::runToEnd(cli(db, args));
        // A missing argument is a usage error (2, as --help says); the others ran and failed (1).
        EXPECT_EQ(r.exitCode, message == "a model config is required" ? 2 : 1) << args.back() << ": " << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    }
}

TEST(CliReshape, ListsEveryShardAsJson)
{
    TempDir dir;
    const auto db = dir.path / "w.db";
    const auto plan = jsonOf(test::runToEnd(cli(db, {"reshape", "llama-3-8b", "--from", "tp=2,pp=1,dp=1", "--to",
                                                     "tp=1,pp=1,dp=1", "--zero", "0", "--storage", "10GB/s"},
                                                true)));
    ASSERT_EQ(plan["ranks"].size(), 1u);
    EXPECT_EQ(plan["ranks"][0]["reads"].size(), 4u);
    EXPECT_EQ(plan["old_files"].get<int>(), 2);
    EXPECT_DOUBLE_EQ(plan["total_read_bytes"].get<double>(), 14 * 8'030'261'248.0);
    const auto text = test::runToEnd(cli(db, {"reshape", "llama-3-8b", "--from", "tp=8,pp=4,dp=16", "--to",
                                              "tp=4,pp=4,dp=32", "--network-gbs", "50", "--storage", "100GB/s"}));
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("512 new ranks"), std::string::npos) << text.out.substr(text.out.size() - 500);
    EXPECT_NE(text.out.find("read once, scatter"), std::string::npos);
    // The network figure from a measured collectives session: all_gather busbw at its largest size.
    ASSERT_EQ(test::runToEnd(cli(db, {"import", std::string(RIDGELINE_SAMPLE_DATA) + "/nccl-tests_8xH100_all_collectives.txt"}))
                  .exitCode,
              0);
    const auto points = jsonOf(test::runToEnd(cli(db, {"results", "2"}, true))); // all_gather_perf
    double busbw = 0;
    std::int64_t largest = 0;
    for (const auto& p : points)
        if (p.value("op", std::string{}) == "all_gather" && p.value("bytes", std::int64_t{0}) >= largest) {
            busbw = p.value("bytes", std::int64_t{0}) > largest ? p.value("busbw_gbs", 0.0)
                                                                : std::max(busbw, p.value("busbw_gbs", 0.0));
            largest = p.value("bytes", std::int64_t{0});
        }
    ASSERT_GT(busbw, 0);
    const auto net = jsonOf(test::runToEnd(cli(db, {"reshape", "llama-3-8b", "--from", "dp=2", "--to", "tp=2", "--storage",
                                                    "10GB/s", "--network", "2"},
                                               true)));
    EXPECT_DOUBLE_EQ(net["network_gbs"].get<double>(), busbw);
    EXPECT_NE(net["network_source"].get<std::string>().find("all_gather busbw"), std::string::npos);
    EXPECT_GT(net["read_once_scatter_s"].get<double>(), 0);
}
