// A CLI that forgives (issue 15): global options before or after the subcommand, `size` without a
// device, errors that say what to do next, documented exit codes; the real ridgeline-cli binary.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "childprocess.h"

using nlohmann::json;
namespace fs = std::filesystem;

namespace {
struct TempDir
{
    fs::path path;
    TempDir()
    {
        char tmpl[] = "/tmp/ridgeline-cli-forgiving-XXXXXX";
        path = mkdtemp(tmpl);
    }
    ~TempDir() { fs::remove_all(path); }
};

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

const std::string kNcclLog = RIDGELINE_TEST_DATA "/collectives/nccl_2.13_allreduce_8xh100.txt";
} // namespace

TEST(CliForgiving, GlobalOptionsGoBeforeOrAfterTheSubcommand)
{
    TempDir dir;
    const std::string db = (dir.path / "w.db").string();
    // After the subcommand and its arguments, as the user typed it.
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
          {"results", "--db", db}, {"fit", "three", "--db", db}}) {
        const auto r = cli(usage);
        EXPECT_EQ(r.exitCode, 2) << usage[0] << ": " << r.err;
        EXPECT_NE(r.err.find("--help"), std::string::npos) << r.err;
    }
    // A command that ran and failed: 1.
    EXPECT_EQ(cli({"results", "42", "--db", db}).exitCode, 1);
}
