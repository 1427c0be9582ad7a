// ridgeline-probe (issue 25) on the CPU: every subcommand's records as printed, then imported with the
// real ridgeline-cli into a real workspace and read back; a 2-process gloo collective sweep (its
// correctness check passing, and failing on a corrupted rank); the step's trace imported with its op
// counts; SIGTERM, point timeouts and bad usage. Skipped when the Python that runs the probe has no
// PyTorch (CI installs Debian's python3-torch).
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "childprocess.h"
#include "tempdir.h"

using nlohmann::json;
namespace fs = std::filesystem;

namespace {
using rl::test::TempDir;

std::vector<std::string> cli(const fs::path& db, std::vector<std::string> args)
{
    args.insert(args.begin(), {RIDGELINE_CLI, "--db", db.string()});
    return args;
}

std::vector<std::string> probe(std::vector<std::string> args)
{
    args.insert(args.begin(), RIDGELINE_PROBE);
    return args;
}

std::vector<json> records(const std::string& out)
{
    std::vector<json> r;
    std::size_t pos = 0;
    while (pos < out.size()) {
        const auto nl = std::min(out.find('\n', pos), out.size());
        if (nl > pos)
            r.push_back(json::parse(out.substr(pos, nl - pos)));
        pos = nl + 1;
    }
    return r;
}

std::vector<json> ofKind(const std::vector<json>& rs, const std::string& record)
{
    std::vector<json> out;
    for (const auto& r : rs)
        if (r.value("record", "") == record)
            out.push_back(r);
    return out;
}

// Why the probe cannot run here (no PyTorch for its Python), or empty.
std::string probeMissing()
{
    static const std::string why = [] {
        const auto r = rl::test::runToEnd(probe({"info"}));
        return r.exitCode == 0 ? std::string() : "ridgeline-probe info failed (" + r.err + ")";
    }();
    return why;
}

#define SKIP_WITHOUT_TORCH()                               \
    if (const auto why = probeMissing(); !why.empty()) { \
        GTEST_SKIP() << why;                             \
    }

// The records of a finished probe run, checked for the framing every run has: a session header of
// this kind from ridgeline-probe first, an end record last.
std::vector<json> run(const std::vector<std::string>& args, const std::string& kind, const std::string& status = "complete",
                      int exitCode = 0)
{
    const auto r = rl::test::runToEnd(probe(args), 300);
    EXPECT_EQ(r.exitCode, exitCode) << r.err;
    const auto rs = records(r.out);
    EXPECT_GE(rs.size(), 2u) << r.out << r.err;
    if (rs.size() < 2)
        return rs;
    EXPECT_EQ(rs.front()["record"], "session");
    EXPECT_EQ(rs.front()["kind"], kind);
    EXPECT_EQ(rs.front()["tool"], "ridgeline-probe");
    EXPECT_EQ(rs.back()["record"], "end");
    EXPECT_EQ(rs.back()["status"], status) << rs.back().dump();
    return rs;
}

// Imports files into db with the real CLI; returns the stored sessions (newest first).
json importAll(const fs::path& db, const std::vector<std::string>& files)
{
    std::vector<std::string> args{"import"};
    args.insert(args.end(), files.begin(), files.end());
    const auto r = rl::test::runToEnd(cli(db, args));
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto s = rl::test::runToEnd(cli(db, {"sessions", "--json"}));
    EXPECT_EQ(s.exitCode, 0) << s.err;
    return json::parse(s.out);
}

json results(const fs::path& db, std::int64_t id)
{
    const auto r = rl::test::runToEnd(cli(db, {"results", std::to_string(id), "--json"}));
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return json::parse(r.out);
}

void write(const fs::path& path, const std::string& text)
{
    FILE* f = fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    fwrite(text.data(), 1, text.size(), f);
    fclose(f);
}

int freePort()
{
    const int s = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
    close(s);
    return ntohs(a.sin_port);
}

// Two probe processes on the CPU, rendezvous through MASTER_ADDR/PORT as torchrun would set it (the
// torchrun of Debian 12's torch 1.13 cannot start workers under Python 3.11). Rank 0's output.
rl::test::Finished twoRanks(const std::vector<std::string>& args, const fs::path& rank1Err)
{
    const std::string port = "MASTER_PORT=" + std::to_string(freePort());
    auto env = [&](int rank) {
        std::vector<std::string> a{"/usr/bin/env", "RANK=" + std::to_string(rank), "WORLD_SIZE=2",
                                   "MASTER_ADDR=127.0.0.1", port, RIDGELINE_PROBE};
        a.insert(a.end(), args.begin(), args.end());
        return a;
    };
    rl::test::Running rank1(env(1), rank1Err.string());
    auto r0 = rl::test::runToEnd(env(0), 300);
    std::string line, rank1Out;
    while (rank1.readLine(line, 300))
        rank1Out += line;
    EXPECT_EQ(rank1Out, "") << "only rank 0 prints records";
    const int rank1Exit = rank1.wait();
    EXPECT_EQ(rank1Exit, r0.exitCode) << "both ranks end alike";
    return r0;
}

const std::vector<std::string> kCollectiveArgs{"collectives", "--device", "cpu", "-b", "64", "-e", "16K", "-f", "16",
                                               "--time-per-size", "0.02", "--timeout", "60", "--point-timeout", "120"};
} // namespace

TEST(Probe, GemmPointsSkippedDtypesAndReferenceRatiosImport)
{
    SKIP_WITHOUT_TORCH();
    TempDir dir;
    const auto rs = run({"gemm", "--device", "cpu", "--square", "64:128", "--dtypes", "fp32,bf16,tf32,fp8", "--budget",
                         "0.02", "--repeats", "3", "--reference"},
                        "gemm");
    const auto& params = rs.front()["params"];
    EXPECT_FALSE(params.value("pytorch", "").empty());
    EXPECT_FALSE(params.value("device_name", "").empty());
    EXPECT_EQ(params.value("device_count", 0), 1);
    const auto gemms = ofKind(rs, "gemm");
    ASSERT_EQ(gemms.size(), 4u); // 64 and 128, fp32 and bf16
    for (const auto& g : gemms) {
        EXPECT_GT(g["gflops"].get<double>(), 0);
        EXPECT_EQ(g["m"], g["k"]);
        EXPECT_GT(g["stats"]["operand_sets"].get<int>(), 1) << "operands rotate past the last-level cache";
    }
    const auto skipped = ofKind(rs, "skipped"); // tf32 has no CPU form; fp8 needs torch 2.1 and a GPU
    ASSERT_EQ(skipped.size(), 2u);
    for (const auto& s : skipped)
        EXPECT_FALSE(s.value("reason", "").empty());
    const auto refs = ofKind(rs, "reference");
    ASSERT_EQ(refs.size(), gemms.size());
    for (const auto& r : refs)
        EXPECT_GT(r["ratio"].get<double>(), 0);

    write(dir.path / "gemm.jsonl", rl::test::runToEnd(probe({"gemm", "--device", "cpu", "--square", "64", "--dtypes",
                                                             "fp32,fp8", "--budget", "0.01", "--reference"}))
                                       .out);
    const auto sessions = importAll(dir.path / "w.db", {(dir.path / "gemm.jsonl").string()});
    ASSERT_EQ(sessions.size(), 1u);
    EXPECT_EQ(sessions[0]["kind"], "gemm");
    EXPECT_EQ(sessions[0]["tool"], "ridgeline-probe");
    EXPECT_EQ(sessions[0]["status"], "complete");
    const auto stored = results(dir.path / "w.db", sessions[0]["id"]);
    ASSERT_EQ(stored.size(), 1u);
    EXPECT_EQ(stored[0]["dtype"], "float32");
    EXPECT_EQ(stored[0]["m"], 64);
    EXPECT_GT(stored[0]["gflops"].get<double>(), 0);
}

TEST(Probe, MemBwCountsBytesAsStreamAndImports)
{
    SKIP_WITHOUT_TORCH();
    TempDir dir;
    const auto r = rl::test::runToEnd(probe({"membw", "--device", "cpu", "--min", "12K", "--max", "48K",
                                             "--steps-per-octave", "1", "--repeats", "3", "--budget", "0.01",
                                             "--reference"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rs = records(r.out);
    const auto points = ofKind(rs, "membw");
    ASSERT_EQ(points.size(), 12u); // 12K, 24K, 48K x copy, scale, add, triad
    // STREAM counting: copy moves 2 arrays, triad 3, at the same working-set step.
    EXPECT_EQ(points[0]["kernel"], "copy");
    EXPECT_EQ(points[3]["kernel"], "triad");
    EXPECT_EQ(points[0]["bytes"].get<std::int64_t>() * 3, points[3]["bytes"].get<std::int64_t>() * 2);
    for (const auto& p : points)
        EXPECT_GT(p["bandwidth_gbs"].get<double>(), 0);
    EXPECT_EQ(ofKind(rs, "reference").size(), 3u); // one bare copy_ loop per size

    write(dir.path / "membw.jsonl", r.out);
    const auto sessions = importAll(dir.path / "w.db", {(dir.path / "membw.jsonl").string()});
    ASSERT_EQ(sessions.size(), 1u);
    EXPECT_EQ(sessions[0]["kind"], "membw");
    const auto stored = results(dir.path / "w.db", sessions[0]["id"]);
    ASSERT_EQ(stored.size(), 12u) << stored.dump();
    EXPECT_EQ(stored[0]["kernel"], "copy");
}

TEST(Probe, AttentionIsSkippedWithTheReasonWithoutScaledDotProductAttention)
{
    SKIP_WITHOUT_TORCH();
    TempDir dir;
    const auto rs = run({"attention", "--device", "cpu", "--seq", "64:128", "--head-dims", "32", "--tokens", "256",
                         "--hidden", "64", "--repeats", "2", "--warmup", "1", "--backends", "math,flash"},
                        "attention");
    const bool sdpa = rs.front()["params"].value("sdpa", false);
    const auto measured = ofKind(rs, "attention");
    const auto skipped = ofKind(rs, "skipped");
    const int cases = rs.front()["params"]["expected_points"];
    EXPECT_EQ(cases, 2 * 2 * 2 * 2); // backends x seqs x causal x passes
    if (!sdpa) { // torch 1.13 (Debian 12): every case skipped, the session still complete
        EXPECT_TRUE(measured.empty());
        ASSERT_EQ(skipped.size(), std::size_t(cases));
        for (const auto& s : skipped)
            EXPECT_NE(s.value("reason", "").find("scaled_dot_product_attention"), std::string::npos) << s.dump();
        EXPECT_NE(rs.back().value("message", "").find("added in 2.0"), std::string::npos) << rs.back().dump();
    } else { // the math backend runs everywhere; flash may be refused, then skipped with the reason
        EXPECT_GE(measured.size(), 8u);
        for (const auto& a : measured)
            EXPECT_GT(a["tflops"].get<double>(), 0);
    }
    std::string out;
    for (const auto& r : rs)
        out += r.dump() + "\n";
    write(dir.path / "attention.jsonl", out);
    const auto sessions = importAll(dir.path / "w.db", {(dir.path / "attention.jsonl").string()});
    ASSERT_EQ(sessions.size(), 1u);
    EXPECT_EQ(sessions[0]["kind"], "attention");
    EXPECT_EQ(sessions[0]["status"], "complete");
}

TEST(Probe, TwoRankGlooSweepPassesItsCheckWithNcclTestsBusBandwidth)
{
    SKIP_WITHOUT_TORCH();
    TempDir dir;
    const auto r = twoRanks(kCollectiveArgs, dir.path / "rank1.err");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rs = records(r.out);
    ASSERT_GE(rs.size(), 2u);
    EXPECT_EQ(rs.front()["params"]["nranks"], 2);
    EXPECT_EQ(rs.front()["params"]["backend"], "gloo");
    EXPECT_EQ(rs.back()["status"], "complete") << rs.back().dump();
    const auto points = ofKind(rs, "collective");
    std::set<std::string> ops;
    for (const auto& p : points) {
        ops.insert(p["op"]);
        EXPECT_EQ(p["wrong"], 0) << p.dump();
        const double algbw = p["algbw_gbs"], busbw = p["busbw_gbs"];
        EXPECT_GT(busbw, 0) << p.dump();
        const double factor = p["op"] == "all_reduce" || p["op"] == "broadcast" ? 1.0 : 0.5; // n = 2
        EXPECT_NEAR(busbw, algbw * factor, 1e-9 * algbw);
    }
    // gloo in torch 1.13 has no reduce_scatter: reported skipped, the rest measured.
    for (const char* op : {"all_reduce", "all_gather", "broadcast", "all_to_all"})
        EXPECT_TRUE(ops.count(op)) << op;
    if (!ops.count("reduce_scatter")) {
        EXPECT_EQ(ofKind(rs, "skipped").size(), 1u);
    }

    write(dir.path / "coll.jsonl", r.out);
    const auto sessions = importAll(dir.path / "w.db", {(dir.path / "coll.jsonl").string()});
    ASSERT_EQ(sessions.size(), 1u);
    EXPECT_EQ(sessions[0]["kind"], "collectives");
    const auto stored = results(dir.path / "w.db", sessions[0]["id"]);
    EXPECT_EQ(stored.size(), points.size()) << stored.dump();
}

TEST(Probe, ACorruptedRankFailsTheCorrectnessCheck)
{
    SKIP_WITHOUT_TORCH();
    TempDir dir;
    auto args = kCollectiveArgs;
    for (const char* a : {"--ops", "all_reduce", "--corrupt-rank", "1"})
        args.push_back(a);
    const auto r = twoRanks(args, dir.path / "rank1.err");
    EXPECT_EQ(r.exitCode, 1);
    const auto rs = records(r.out);
    ASSERT_GE(rs.size(), 2u);
    for (const auto& p : ofKind(rs, "collective"))
        EXPECT_EQ(p["wrong"], 1) << p.dump();
    EXPECT_EQ(rs.back()["status"], "failed");
    EXPECT_NE(rs.back().value("message", "").find("wrong"), std::string::npos);
}

TEST(Probe, StepTraceImportsWithItsOpCounts)
{
    SKIP_WITHOUT_TORCH();
    TempDir dir;
    const auto trace = (dir.path / "step.trace.json").string();
    const auto rs = run({"step", "--device", "cpu", "--model", "llama-3-8b", "--layers", "1", "--hidden", "64",
                         "--vocab", "256", "--seq", "32", "--steps", "2", "--warmup", "1", "--trace", trace,
                         "--profile-steps", "2"},
                        "step");
    EXPECT_EQ(ofKind(rs, "step").size(), 2u);
    const auto summaries = ofKind(rs, "step_summary");
    ASSERT_EQ(summaries.size(), 1u);
    const auto& s = summaries[0];
    EXPECT_GT(s["median_ms"].get<double>(), 0);
    EXPECT_EQ(s["trace_steps"], 2);
    const std::int64_t ops = s["trace_ops"];
    EXPECT_GT(ops, 0);
    EXPECT_GT(s["top_ops"].value("aten::mm", 0) + s["top_ops"].value("aten::addmm", 0) +
                  s["top_ops"].value("aten::matmul", 0),
              0)
        << s["top_ops"].dump();

    std::string out;
    for (const auto& r : rs)
        out += r.dump() + "\n";
    write(dir.path / "step.jsonl", out);
    const auto sessions = importAll(dir.path / "w.db", {(dir.path / "step.jsonl").string(), trace});
    ASSERT_EQ(sessions.size(), 2u);
    const json* traced = nullptr;
    for (const auto& session : sessions)
        if (session["kind"] == "trace")
            traced = &session;
    ASSERT_NE(traced, nullptr) << sessions.dump();
    const auto& rank = (*traced)["params"]["ranks"][0];
    EXPECT_EQ(rank["steps"], 2) << rank.dump();
    EXPECT_EQ(rank["cpu_events"].get<std::int64_t>(), ops) << "the import counts the ops the probe wrote";
}

TEST(Probe, SigtermEndsTheSessionCancelled)
{
    SKIP_WITHOUT_TORCH();
    TempDir dir;
    rl::test::Running p(probe({"membw", "--device", "cpu", "--min", "4K", "--max", "1G", "--budget", "2"}),
                        (dir.path / "err").string());
    std::string line;
    ASSERT_TRUE(p.readLine(line, 120));
    EXPECT_EQ(json::parse(line)["record"], "session");
    ASSERT_TRUE(p.readLine(line, 120)); // a point: the sweep is under way
    EXPECT_EQ(json::parse(line)["record"], "membw");
    p.signalGroup(SIGTERM);
    std::string last = line;
    while (p.readLine(line, 120))
        last = line;
    EXPECT_EQ(p.wait(), 0);
    const auto end = json::parse(last);
    EXPECT_EQ(end["record"], "end");
    EXPECT_EQ(end["status"], "cancelled");
    EXPECT_NE(end.value("message", "").find("SIGTERM"), std::string::npos);
}

TEST(Probe, APointPastItsTimeoutEndsTheSessionFailed)
{
    SKIP_WITHOUT_TORCH();
    const auto rs = run({"gemm", "--device", "cpu", "--square", "512", "--budget", "30", "--point-timeout", "1"}, "gemm",
                        "failed", 1);
    ASSERT_FALSE(rs.empty());
    EXPECT_NE(rs.back().value("message", "").find("point timeout"), std::string::npos) << rs.back().dump();
}

TEST(Probe, BadUsageExitsTwoWithoutOutput)
{
    SKIP_WITHOUT_TORCH();
    for (const auto& args : std::vector<std::vector<std::string>>{{"gemm", "--square", "abc"},
                                                                  {"gemm", "--device", "cpu", "--dtypes", "fp7"},
                                                                  {"membw", "--device", "cpu", "--min", "-3"},
                                                                  {"collectives", "--ops", "all_reduce,gossip"},
                                                                  {"nonsense"}}) {
        const auto r = rl::test::runToEnd(probe(args));
        EXPECT_EQ(r.exitCode, 2) << args[0] << " " << r.err;
        EXPECT_EQ(r.out, "");
        EXPECT_FALSE(r.err.empty());
    }
    const auto unknownModel = rl::test::runToEnd(probe({"step", "--device", "cpu", "--model", "no-such-model"}));
    EXPECT_EQ(unknownModel.exitCode, 1);
    EXPECT_NE(unknownModel.err.find("no-such-model"), std::string::npos) << unknownModel.err;
}

// `ridgeline-cli run probe` (the probe as a run kind of runs::RunRequest): launched, stored as it
// runs, what the store has no table for kept in the session, a step's trace imported as a session.
TEST(CliRunProbe, GemmPointsAreStoredAndSkippedDtypesKeptWithTheSession)
{
    SKIP_WITHOUT_TORCH();
    TempDir dir;
    const auto db = dir.path / "w.db";
    const auto r = rl::test::runToEnd(cli(db, {"run", "probe", "--probe", "gemm", "--probe-program", RIDGELINE_PROBE,
                                               "--title", "cpu gemm", "--", "--device", "cpu", "--shapes",
                                               "64x64x64,128x128x128", "--dtypes", "fp32,tf32"}),
                                      300);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(ofKind(records(r.out), "gemm").size(), 2u) << "every point echoed with its session id";
    const auto sessions = json::parse(rl::test::runToEnd(cli(db, {"sessions", "--json"})).out);
    ASSERT_EQ(sessions.size(), 1u);
    const auto& s = sessions[0];
    EXPECT_EQ(s["kind"], "gemm");
    EXPECT_EQ(s["tool"], "ridgeline-probe");
    EXPECT_EQ(s["status"], "complete");
    EXPECT_EQ(s["title"], "cpu gemm");
    EXPECT_EQ(s["params"]["request"]["kind"], "probe");
    EXPECT_EQ(s["params"]["request"]["probe"], "gemm");
    ASSERT_EQ(s["params"]["skipped"].size(), 1u) << s["params"].dump();
    EXPECT_EQ(s["params"]["skipped"][0]["dtype"], "tf32");
    EXPECT_FALSE(s["params"]["runner"].value("torch", std::string()).empty() &&
                 s["params"]["runner"].value("pytorch", std::string()).empty())
        << "the device and versions the probe reported: " << s["params"]["runner"].dump();
    const auto points = results(db, s["id"]);
    EXPECT_EQ(points.dump().find("\"m\":128") != std::string::npos, true) << points.dump();
}

TEST(CliRunProbe, AStepRunImportsItsTraceAsASessionOfItsOwn)
{
    SKIP_WITHOUT_TORCH();
    TempDir dir;
    const auto db = dir.path / "w.db";
    const auto r = rl::test::runToEnd(cli(db, {"run", "probe", "--probe", "step", "--probe-program", RIDGELINE_PROBE,
                                               "--", "--device", "cpu", "--model", "llama-3-8b", "--layers", "1",
                                               "--hidden", "64", "--vocab", "256", "--seq", "32", "--steps", "2",
                                               "--warmup", "1", "--profile-steps", "2"}),
                                      300);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto sessions = json::parse(rl::test::runToEnd(cli(db, {"sessions", "--json"})).out);
    ASSERT_EQ(sessions.size(), 2u) << sessions.dump();
    const json* step = nullptr;
    const json* trace = nullptr;
    for (const auto& s : sessions)
        (s["kind"] == "trace" ? trace : step) = &s;
    ASSERT_TRUE(step && trace) << sessions.dump();
    EXPECT_EQ((*step)["kind"], "step");
    EXPECT_EQ((*step)["params"]["timed_steps"].size(), 2u) << "each timed step kept";
    EXPECT_EQ((*step)["params"]["trace_session"], (*trace)["id"]);
    const auto& summary = (*step)["params"]["step_summary"];
    EXPECT_GT(summary["median_ms"].get<double>(), 0);
    EXPECT_FALSE(summary.contains("trace")) << "the temporary trace file is gone once imported";
    EXPECT_EQ((*trace)["params"]["ranks"][0]["steps"], 2);
    EXPECT_EQ((*trace)["params"]["ranks"][0]["cpu_events"], summary["trace_ops"]);
}

TEST(CliRunProbe, TwoRanksUnderMpirunPassTheirCheck)
{
    SKIP_WITHOUT_TORCH();
    TempDir dir;
    const auto db = dir.path / "w.db";
    std::vector<std::string> args{"run", "probe", "--probe", "collectives", "--probe-program", RIDGELINE_PROBE,
                                  "-np", "2", "--mpirun", RIDGELINE_MPIEXEC};
    for (const char* a : {"--mca", "pml", "ob1", "--mca", "btl", "self,vader"})
        args.push_back(std::string("--mpirun-arg=") + a);
    args.insert(args.end(), {"--env", "MASTER_PORT=" + std::to_string(freePort()), "--", "--device", "cpu", "-b", "64",
                             "-e", "4K", "-f", "8", "--time-per-size", "0.02", "--ops", "all_reduce,all_gather"});
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    const auto r = rl::test::runToEnd(cli(db, args), 300);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto sessions = json::parse(rl::test::runToEnd(cli(db, {"sessions", "--json"})).out);
    ASSERT_EQ(sessions.size(), 1u);
    EXPECT_EQ(sessions[0]["kind"], "collectives");
    EXPECT_EQ(sessions[0]["status"], "complete");
    const auto points = ofKind(records(r.out), "collective");
    ASSERT_EQ(points.size(), 2u * 3u) << r.out; // 2 ops x 64 B, 512 B, 4 KiB
    for (const auto& p : points) {
        EXPECT_EQ(p["nranks"], 2);
        EXPECT_EQ(p["wrong"], 0);
        EXPECT_GT(p["busbw_gbs"].get<double>(), 0);
    }
}
