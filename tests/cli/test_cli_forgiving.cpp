// A CLI that forgives (issue 15): global options before or after the subcommand, `size` without a
// device, errors that say what to do next, documented exit codes; the real ridgeline-cli binary.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "childprocess.h"
#include "io/libraryversions.h"
#include "tempdir.h"

using nlohmann::json;
namespace fs = std::filesystem;

namespace {
using rl::test::TempDir;

rl::test::Finished cli(std::vector<std::string> args)
{
    args.insert(args.begin(), RIDGELINE_CLI);
    return rl::test::runToEnd(args);
}

json jsonOf(const rl::test::Finished& r)
{
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return json::parse(r.out);
}

// The value column of a text table row ("total   7.24 B" -> "7.24 B").
std::string row(const std::string& table, const std::string& label)
{
    std::istringstream lines(table);
    std::string line;
    while (std::getline(lines, line))
        if (line.starts_with(label + "  ")) {
            const auto value = line.find_first_not_of(' ', label.size());
            return value == std::string::npos ? std::string() : line.substr(value);
        }
    return {};
}

const std::string kNcclLog = RIDGELINE_TEST_DATA "/collectives/nccl_2.13_allreduce_8xh100.txt";
// A real Hugging Face config.json (Gemma 3 27B), given as a file the way users pass theirs.
const std::string kHfConfig = RIDGELINE_TEST_DATA "/model/gemma3_multimodal.json";
} // namespace

TEST(CliForgiving, GlobalOptionsGoBeforeOrAfterTheSubcommand)
{
    TempDir dir;
    const std::string db = (dir.path / "w.db").string();
    // After the subcommand and its arguments, as the issue's user typed it.
    const auto imported = jsonOf(cli({"import", kNcclLog, "--json", "--db", db}));
    ASSERT_EQ(imported.size(), 1u);
    const auto id = std::to_string(imported[0]["session_ids"][0].get<long long>());
    // Between subcommand and argument, and split around it: the same workspace, the same answer.
    const auto before = cli({"--db", db, "--json", "results", id});
    const auto after = cli({"results", id, "--db", db, "--json"});
    const auto between = cli({"--json", "results", "--db", db, id});
    ASSERT_EQ(before.exitCode, 0) << before.err;
    EXPECT_EQ(after.exitCode, 0) << after.err;
    EXPECT_EQ(after.out, before.out);
    EXPECT_EQ(between.out, before.out);
    EXPECT_FALSE(jsonOf(before).empty());
    // Two levels down (config save, profile list) the options still reach the top.
    EXPECT_EQ(cli({"config", "save", "candidate", "llama-3-8b", "--db", db}).exitCode, 0);
    const auto configs = jsonOf(cli({"config", "list", "--db", db, "--json"}));
    ASSERT_EQ(configs.size(), 1u);
    EXPECT_EQ(configs[0]["name"], "candidate");
    EXPECT_TRUE(jsonOf(cli({"profile", "list", "--json"})).is_array());
    // Text without --json, wherever --db is.
    const auto text = cli({"sessions", "--db", db});
    EXPECT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("nccl-tests"), std::string::npos) << text.out;
}

TEST(CliForgiving, ExitCodesAreTheDocumentedOnes)
{
    TempDir dir;
    const std::string db = (dir.path / "w.db").string();
    const auto help = cli({"--help"});
    EXPECT_EQ(help.exitCode, 0);
    for (const char* documented : {"before or after the subcommand", "0    done", "1    failed", "2    bad usage",
                                   "130  a run was cancelled"})
        EXPECT_NE(help.out.find(documented), std::string::npos) << documented << '\n' << help.out;
    EXPECT_EQ(cli({"--version"}).exitCode, 0);
    EXPECT_EQ(cli({"size", "--help"}).exitCode, 0);
    // Usage errors: 2, with CLI11's pointer to --help.
    for (const std::vector<std::string>& usage :
         {std::vector<std::string>{"sessions", "--no-such-option", "--db", db}, {"--db", db},
          {"results", "--db", db}, {"fit", "three", "--db", db},
         // Issue 26 item 5: a launcher template without {bench} is bad usage, not a failed run.
         {"run", "collectives", "--launcher", "srun -N 2", "--db", db}}) {
        const auto r = cli(usage);
        EXPECT_EQ(r.exitCode, 2) << usage[0] << ": " << r.err;
        EXPECT_NE(r.err.find("--help"), std::string::npos) << r.err;
    }
    const auto noBench = cli({"run", "collectives", "--launcher", "srun -N 2", "--db", db});
    EXPECT_NE(noBench.err.find("must contain {bench}"), std::string::npos) << noBench.err;
    // A command that ran and failed: 1.
    EXPECT_EQ(cli({"results", "42", "--db", db}).exitCode, 1);
}

// The issue's "size mistral.json" without --hardware: what needs no device, the same numbers as
// with one, and a clear word on what the rest needs.
TEST(CliForgiving, SizeWithoutHardwarePrintsWhatNeedsNone)
{
    TempDir dir;
    const std::string db = (dir.path / "w.db").string();
    const auto bare = cli({"size", kHfConfig, "--parallel", "dp=8,tp=4", "--db", db});
    ASSERT_EQ(bare.exitCode, 0) << bare.err;
    const auto withDevice = cli({"size", kHfConfig, "--parallel", "dp=8,tp=4", "--hardware", "mi300x", "--db", db});
    ASSERT_EQ(withDevice.exitCode, 0) << withDevice.err;
    for (const char* label : {"total", "active per token", "forward FLOPs per token", "weights per GPU",
                              "optimizer per GPU", "activations per GPU"}) {
        EXPECT_FALSE(row(bare.out, label).empty()) << label << '\n' << bare.out;
        EXPECT_EQ(row(bare.out, label), row(withDevice.out, label)) << label;
    }
    EXPECT_NE(row(bare.out, "memory per GPU").find("capacity unknown"), std::string::npos) << bare.out;
    EXPECT_TRUE(row(bare.out, "step time").empty()) << "a step time without a device would be made up";
    EXPECT_NE(bare.out.find("Step time, MFU, throughput, communication, prefill and decode need a device: give "
                            "--hardware PROFILE (`ridgeline-cli profile list` lists them)"),
              std::string::npos)
        << bare.out;
    EXPECT_EQ(bare.err, "");

    const auto j = jsonOf(cli({"size", kHfConfig, "--parallel", "dp=8,tp=4", "--db", db, "--json"}));
    const auto jd = jsonOf(cli({"size", kHfConfig, "--parallel", "dp=8,tp=4", "--hardware", "mi300x", "--json"}));
    EXPECT_EQ(j["params"], jd["params"]);
    EXPECT_EQ(j["flops_per_token"], jd["flops_per_token"]);
    EXPECT_GT(j["params"]["total"].get<double>(), 25e9) << "Gemma 3 27B";
    EXPECT_LT(j["params"]["total"].get<double>(), 30e9);
    for (const char* k : {"weights", "gradients", "optimizer", "activations", "total"})
        EXPECT_EQ(j["memory_per_gpu_bytes"][k], jd["memory_per_gpu_bytes"][k]) << k;
    EXPECT_TRUE(j["memory_per_gpu_bytes"]["capacity"].is_null());
    EXPECT_TRUE(j["memory_per_gpu_bytes"]["fits"].is_null()) << "unknown, not 'fits'";
    EXPECT_TRUE(jd["memory_per_gpu_bytes"]["fits"].is_boolean());
    for (const char* k : {"device", "step", "inference", "expected_error"}) {
        EXPECT_TRUE(j[k].is_null()) << k;
        EXPECT_FALSE(jd[k].is_null()) << k;
    }
    EXPECT_EQ(j["needs_hardware"]["fields"], json({"device", "step", "inference", "expected_error"}));
    EXPECT_NE(j["needs_hardware"]["message"].get<std::string>().find("--hardware PROFILE"), std::string::npos);
    EXPECT_FALSE(jd.contains("needs_hardware"));
    // Wave quantization needs the device's compute units: left out without one, there with one.
    auto rulesOf = [](const json& out) {
        std::set<std::string> names;
        for (const auto& r : out["rules"])
            names.insert(r["rule"].get<std::string>());
        return names;
    };
    EXPECT_FALSE(rulesOf(j).count("wave_quantization"));
    EXPECT_TRUE(rulesOf(jd).count("wave_quantization"));
    EXPECT_TRUE(rulesOf(j).count("heads_tp"));

    // --hbm-gb alone is enough for the fit; a preset works the same as a file.
    const auto fit = jsonOf(cli({"size", "llama-3-8b", "--parallel", "dp=1", "--hbm-gb", "80", "--json"}));
    EXPECT_EQ(fit["memory_per_gpu_bytes"]["fits"], false) << "8B with Adam on one 80 GB GPU";
    EXPECT_DOUBLE_EQ(fit["memory_per_gpu_bytes"]["capacity"].get<double>(), 80e9);
    // --hbm-gib takes the figure nvidia-smi shows (81,559 MiB on an H100 is 79.65 GiB); not both.
    const auto gib = jsonOf(cli({"size", "llama-3-8b", "--parallel", "dp=1", "--hbm-gib", "79.65", "--json"}));
    EXPECT_NEAR(gib["memory_per_gpu_bytes"]["capacity"].get<double>(), 79.65 * (1ull << 30), 1);
    EXPECT_EQ(cli({"size", "llama-3-8b", "--parallel", "dp=1", "--hbm-gb", "80", "--hbm-gib", "80"}).exitCode, 2);
}

// The common mistakes end with exit 1 and a message that names the way out, not only the fault.
TEST(CliForgiving, ErrorsNameWhatToDoNext)
{
    TempDir dir;
    const std::string db = (dir.path / "w.db").string();
    ASSERT_EQ(cli({"import", kNcclLog, "--db", db}).exitCode, 0); // session 1, a collective benchmark
    struct Case
    {
        std::vector<std::string> args;
        int exitCode;
        std::vector<std::string> says;
    };
    const std::string missing = (dir.path / "missing.txt").string();
    const std::vector<Case> cases{
        {{"results", "42"}, 1, {"no session 42 in " + db, "`ridgeline-cli sessions --db " + db + "` lists them"}},
        {{"trace-collectives", "1"}, 1, {"not a trace session (it is 'collectives')", "lists them with their kinds"}},
        {{"import", missing, kNcclLog}, 1,
         {missing + ": no such file or folder", "1 of 2 not imported", "run the import again",
          "already imported are skipped", "--format ID"}},
        {{"import", "--format", "nccl", kNcclLog}, 2, {"nccl-tests", "osu", "kineto"}},
        {{"size", "llama-3-8b", "--hardware", "mi301x"}, 1,
         {"no hardware profile 'mi301x'", "mi300x", "use one of these ids, or the path of a profile file"}},
        {{"size", "mistral.json"}, 1,
         {"'mistral.json' is neither a file, a preset nor a config saved in " + db, "give the path of a config.json",
          "mistral-7b-v0.1", "`ridgeline-cli config list`"}},
        {{"size", "lama-3-8b"}, 1, {"'lama-3-8b' is neither", "llama-3-8b"}},
        {{"size", "llama-3-8b", "--parallel", "dp8"}, 1,
         {"--parallel dp8: parallel spec item 'dp8' is not key=value", "e.g. --parallel dp=8,tp=8,pp=2"}},
        {{"size", "mixtral-8x7b", "--parallel", "dp=8,ep=3"}, 1,
         {"--parallel dp=8,ep=3: parallel layout", "ep=3", "change the degree or option it names"}},
        {{"size", "llama-3-8b", "--hardware", "mi300x", "--dtype", "fp4"}, 1,
         {"'mi300x' has no peak TFLOP/s for fp4", "choose --dtype from", "bf16", "--peak-tflops"}},
        {{"size", "llama-3-8b", "--peak-tflops", "900"}, 1, {"needs --hbm-gbs too", "--hardware PROFILE"}},
        {{"moe-sweep", "mixtral-8x7b"}, 1, {"no device", "--hardware PROFILE (`ridgeline-cli profile list`"}},
        {{"config", "show", "nope"}, 1, {"no saved config 'nope'", "`ridgeline-cli config list`", "config save"}},
    };
    for (const auto& c : cases) {
        auto args = c.args;
        args.insert(args.end(), {"--db", db});
        const auto r = cli(args);
        EXPECT_EQ(r.exitCode, c.exitCode) << c.args[0] << ' ' << c.args[1] << ": " << r.err;
        for (const auto& s : c.says)
            EXPECT_NE(r.err.find(s), std::string::npos) << "wanted: " << s << "\ngot: " << r.err;
    }
}

// A session's host is where its data came from: the host an imported file names, else empty,
// never the machine that imported it; a run keeps the host it ran on.
TEST(CliForgiving, ImportedSessionsCarryTheFilesHostOrNone)
{
    TempDir dir;
    const std::string db = (dir.path / "w.db").string();
    // Each file and the host it names: nccl-tests "# Rank 0 ... on h100-node-07", IOR "Machine :
    // Linux cpn-...", ridgeline-bench's own session header; OSU, IMB, Kineto traces (this one from
    // MI250 nodes) and training logs name none.
    const std::vector<std::pair<std::string, std::string>> files{
        {kNcclLog, "h100-node-07"},
        {RIDGELINE_TEST_DATA "/storage/ior-3.2.0-shared.txt", "cpn-d13-06.int.ccr.buffalo.edu"},
        {RIDGELINE_TEST_DATA "/kernels/membw-zen5-2cpu-kvm.jsonl", "vm"},
        {RIDGELINE_TEST_DATA "/collectives/osu_allreduce_v7.3.txt", ""},
        {RIDGELINE_TEST_DATA "/collectives/imb_mpi1_allreduce_allgather_pingpong.txt", ""},
        {RIDGELINE_TEST_DATA "/samples/traces/hta_amd_mi250_minitoy_train_ROCm6_2_kineto.json.gz", ""},
        {RIDGELINE_TEST_DATA "/traces/ranks", ""}, // the ranks of one job: one session
        {RIDGELINE_TEST_DATA "/logs/megatron_lm_restart.log", ""},
        {RIDGELINE_TEST_DATA "/logs/metrics.csv", ""},
    };
    std::map<std::string, std::string> hostOfFile;
    for (const auto& [file, host] : files) {
        const auto imported = jsonOf(cli({"import", file, "--db", db, "--json"}));
        ASSERT_EQ(imported.size(), 1u) << file;
        ASSERT_TRUE(imported[0]["ok"].get<bool>()) << imported.dump();
        for (const auto& id : imported[0]["session_ids"])
            hostOfFile[std::to_string(id.get<long long>())] = host;
    }
    const auto sessions = jsonOf(cli({"sessions", "--db", db, "--json"}));
    ASSERT_EQ(sessions.size(), hostOfFile.size());
    for (const auto& s : sessions) {
        const auto id = std::to_string(s["id"].get<long long>());
        EXPECT_EQ(s["host"], hostOfFile[id]) << "session " << id << ": " << s["title"];
    }
    // The text table leaves the cell empty rather than naming this machine.
    char self[256] = {};
    gethostname(self, sizeof self - 1);
    const auto text = cli({"sessions", "--db", db});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    std::istringstream lines(text.out);
    std::string line;
    while (std::getline(lines, line)) {
        const bool unnamed = line.find("megatron_lm_restart.log") != std::string::npos ||
                             line.find("hta_amd_mi250") != std::string::npos;
        EXPECT_TRUE(!unnamed || line.find(std::string(" ") + self + " ") == std::string::npos) << line;
    }
}

TEST(CliForgiving, ARunKeepsTheHostItRanOn)
{
    TempDir dir;
    const std::string db = (dir.path / "w.db").string();
    const auto run = cli({"run", "peakflops", "--bench", RIDGELINE_BENCH, "--db", db, "--", "--threads", "1",
                          "--seconds", "0.05", "--repeats", "1"});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    char self[256] = {};
    gethostname(self, sizeof self - 1);
    const auto sessions = jsonOf(cli({"sessions", "--json", "--db", db}));
    ASSERT_EQ(sessions.size(), 1u);
    EXPECT_EQ(sessions[0]["host"], self);
}

// --version is what a bug report needs: the program's version and every library the About box
// lists (io::libraryVersions), each on its own line with a version.
TEST(CliForgiving, VersionListsTheLibraryVersions)
{
    const auto r = cli({"--version"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::istringstream lines(r.out);
    std::string line;
    std::getline(lines, line);
    EXPECT_EQ(line.rfind("ridgeline-cli ", 0), 0u) << r.out;
    std::getline(lines, line);
    EXPECT_EQ(line.rfind("Qt 6.", 0), 0u) << r.out;
    for (const auto& [name, version] : rl::io::libraryVersions()) {
        ASSERT_FALSE(version.empty()) << name;
        EXPECT_NE(r.out.find("\n" + name + " " + version), std::string::npos) << name << '\n' << r.out;
    }
    for (const char* library : {"SQLite", "simdjson", "Eigen", "MPI"})
        EXPECT_NE(r.out.find(std::string("\n") + library), std::string::npos) << library << '\n' << r.out;
    // The MPI library and its version (MPI_Get_library_version through FindMPI's
    // MPI_DETERMINE_LIBRARY_VERSION), not the standard it implements ("MPI 3.1").
    const std::string mpiLine = "\nMPI (ridgeline-bench) ";
    const auto mpi = r.out.find(mpiLine);
    ASSERT_NE(mpi, std::string::npos) << r.out;
    const std::string library = r.out.substr(mpi + mpiLine.size(), r.out.find('\n', mpi + 1) - mpi - mpiLine.size());
    EXPECT_TRUE(std::regex_search(library, std::regex(R"((Open MPI v|MPICH )[0-9]+\.[0-9]+)"))) << library;
}

// A word the parser did not understand is what the user got wrong, so it is named first (CLI11
// alone would say "A subcommand is required" or "paths is required"), with the nearest name.
TEST(CliForgiving, UsageErrorsNameTheWordNotUnderstood)
{
    TempDir dir;
    const std::string db = (dir.path / "w.db").string();
    struct Case
    {
        std::vector<std::string> args;
        std::vector<std::string> says;
        std::string doesNotSay;
    };
    const std::vector<Case> cases{
        {{"improt", "x.txt"},
         {"unknown command 'improt'; did you mean 'import'?", "`ridgeline-cli --help` lists them"},
         "A subcommand is required"},
        {{"qwertyuiop"}, {"unknown command 'qwertyuiop':", "`ridgeline-cli --help` lists them"}, "did you mean"},
        {{"import", "--bogus"},
         {"unknown option '--bogus' for `ridgeline-cli import`", "`ridgeline-cli import --help` lists its options"},
         "is required"},
        {{"import", kNcclLog, "--fromat", "nccl-tests"}, {"unknown option '--fromat'", "did you mean '--format'?"}, ""},
        {{"config", "sav", "x", "llama-3-8b"},
         {"unknown command 'sav' for `ridgeline-cli config`; did you mean 'save'?"}, ""},
        {{"sessions", "extra"}, {"unexpected argument 'extra' for `ridgeline-cli sessions`"}, ""},
        // Missing arguments: CLI11's words, and which --help to read.
        {{"import"}, {"paths is required", "`ridgeline-cli import --help` says what it takes"}, ""},
        // A missing argument the command checks itself (checkpoint --list-failure-rates needs none).
        {{"checkpoint", "--storage", "10GB/s"},
         {"a model config is required", "`ridgeline-cli checkpoint --help` says what it takes"}, ""},
        {{"checkpoint", "llama-3-8b"}, {"--storage: give a storage session id or a bandwidth"}, ""},
        // Malformed arguments.
        {{"fit", "1", "--min-size", "big"}, {"bad --min-size/--max-size", "`ridgeline-cli fit --help`"}, ""},
        {{"export", "1", "-o", (dir.path / "x.png").string()}, {"say what to export: --chart KIND or --points"}, ""},
        {{"export", "1", "--chart", "bandwidth", "-o", (dir.path / "x.bmp").string()},
         {"cannot tell the format of", ".png, .svg, .pdf or .csv"}, ""},
    };
    for (const auto& c : cases) {
        auto args = c.args;
        args.insert(args.end(), {"--db", db});
        const auto r = cli(args);
        EXPECT_EQ(r.exitCode, 2) << c.args[0] << ": " << r.err;
        for (const auto& s : c.says)
            EXPECT_NE(r.err.find(s), std::string::npos) << "wanted: " << s << "\ngot: " << r.err;
        if (!c.doesNotSay.empty()) {
            EXPECT_EQ(r.err.find(c.doesNotSay), std::string::npos) << r.err;
        }
    }
}

// fit on a session with nothing to fit fails the same way for people and scripts: an empty JSON
// array with exit 0 read as "fitted, no ops" to a script.
TEST(CliForgiving, FitOfASessionWithNothingToFitFailsWithAndWithoutJson)
{
    TempDir dir;
    const std::string db = (dir.path / "w.db").string();
    ASSERT_EQ(cli({"import", kNcclLog, RIDGELINE_TEST_DATA "/logs/megatron_lm_restart.log", "--db", db}).exitCode, 0);
    for (const bool json : {false, true}) {
        std::vector<std::string> args{"fit", "2", "--db", db};
        if (json)
            args.push_back("--json");
        const auto log = cli(args);
        EXPECT_EQ(log.exitCode, 1) << "json " << json << ": " << log.out << log.err;
        EXPECT_EQ(log.out, "");
        EXPECT_NE(log.err.find("session 2 is a 'trainlog' session: fit takes a collective benchmark session"),
                  std::string::npos)
            << log.err;
        // A collective session with no two sizes in the range: the same exit code, and what to widen.
        args[1] = "1";
        args.insert(args.end(), {"--min-size", "1G"});
        const auto narrow = cli(args);
        EXPECT_EQ(narrow.exitCode, 1) << "json " << json << ": " << narrow.out << narrow.err;
        EXPECT_EQ(narrow.out, "");
        EXPECT_NE(narrow.err.find("nothing to fit in session 1"), std::string::npos) << narrow.err;
        EXPECT_NE(narrow.err.find("widen --min-size/--max-size"), std::string::npos) << narrow.err;
    }
    EXPECT_TRUE(jsonOf(cli({"fit", "1", "--db", db, "--json"})).is_array());
}

// A --db in a folder that does not exist is a typo for the commands that read a workspace: they
// fail and create nothing. import and run store something new, so they create the workspace and
// its folders (documented in --help).
TEST(CliForgiving, DbInAMissingFolderFailsExceptForCommandsThatCreateTheWorkspace)
{
    TempDir dir;
    const auto folder = dir.path / "no" / "such";
    const std::string db = (folder / "w.db").string();
    for (const std::vector<std::string>& reader :
         {std::vector<std::string>{"sessions"}, {"results", "1"}, {"fit", "1"}, {"config", "list"}}) {
        auto args = reader;
        args.insert(args.end(), {"--db", db});
        const auto r = cli(args);
        EXPECT_EQ(r.exitCode, 1) << reader[0] << ": " << r.err;
        EXPECT_NE(r.err.find("--db " + db + ": the folder " + folder.string() + " does not exist"), std::string::npos)
            << r.err;
        EXPECT_NE(r.err.find("import and run create it"), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(dir.path / "no")) << reader[0] << " created folders";
    }
    EXPECT_NE(cli({"--help"}).out.find("import, run and config save create it (and its folders)"), std::string::npos);
    const auto imported = cli({"import", kNcclLog, "--db", db});
    ASSERT_EQ(imported.exitCode, 0) << imported.err;
    EXPECT_TRUE(fs::exists(db));
    const auto listed = jsonOf(cli({"sessions", "--db", db, "--json"}));
    EXPECT_EQ(listed.size(), 1u);
}

TEST(CliForgiving, TheFrameworkIsPartOfTheRecipeAndAnUnknownOneIsBadUsage)
{
    TempDir dir;
    const std::string db = (dir.path / "w.db").string();
    const std::vector<std::string> base = {"size", "llama-3-8b", "--hardware", "a100-80gb", "--parallel", "dp=64",
                                           "--zero", "3", "--db", db};
    auto with = [&](std::vector<std::string> extra) {
        auto args = base;
        args.insert(args.end(), extra.begin(), extra.end());
        return cli(args);
    };
    const auto megatron = jsonOf(with({"--json"}));
    const auto titan = jsonOf(with({"--framework", "torchtitan", "--json"}));
    EXPECT_FALSE(megatron.contains("framework")) << "the default stays unsaid, as before";
    EXPECT_EQ(titan["framework"], "torchtitan");
    // torchtitan reduce-scatters its gradients in fp32 and keeps an fp32 copy of a unit's gradients.
    EXPECT_GT(titan["memory_per_gpu_bytes"]["total"].get<double>(), megatron["memory_per_gpu_bytes"]["total"].get<double>());
    const auto text = with({"--framework", "deepspeed"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find(", DeepSpeed\n"), std::string::npos) << text.out;
    // No DeepSpeed run is in the band tables: the band is every stack's and says so.
    EXPECT_NE(row(text.out, "  expected error (ridgeline-cli validate)").find("none run with DeepSpeed"),
              std::string::npos)
        << text.out;
    const auto bad = with({"--framework", "jax"});
    EXPECT_EQ(bad.exitCode, 2) << bad.err;
    EXPECT_NE(bad.err.find("unknown framework 'jax' (known: megatron, deepspeed, torchtitan, composer)"),
              std::string::npos)
        << bad.err;
    const auto plan = cli({"plan", "llama-3-8b", "--hardware", "a100-80gb", "--gpus", "16", "--global-batch", "64",
                           "--seq", "2048", "--fix", "zero=3,tp=1,pp=1,cp=1", "--framework", "composer", "--top", "3",
                           "--db", db});
    ASSERT_EQ(plan.exitCode, 0) << plan.err;
    EXPECT_NE(plan.out.find("of Composer (FSDP)"), std::string::npos) << plan.out; // its own runs' band
}
