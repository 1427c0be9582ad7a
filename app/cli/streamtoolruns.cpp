// ridgeline-cli run babelstream [--tool-dir D] [--env N=V] -- <BabelStream flags, e.g. --arraysize N --csv>
// ridgeline-cli run nvbandwidth [--tool-dir D] -- <nvbandwidth flags, e.g. -t host_to_device_memcpy_ce>
// Tools that run once and print their results as they go: BabelStream's kernels are stored as
// memory-bandwidth points, nvbandwidth's matrices in the session as each testcase ends, both by the
// importers' own line parsers.
#include "importers/babelstream.h"
#include "importers/nvbandwidth.h"
#include "runoptions.h"
#include "runsession.h"
#include "toolrun.h"

namespace rl::cli {
namespace {
int runBabelStream(const CliContext& ctx, const RunCommandLine& cl)
{
    const runs::RunRequest& a = cl.request;
    const tools::FoundTool tool = locateTool("babelstream", a);
    const std::string program = tool.programs.front(); // cuda-stream, hip-stream, ...
    Session s;
    s.kind = kind::MemBandwidth;
    s.tool = "babelstream";
    s.title = program + " (BabelStream)";
    BabelStreamStream stream;
    return runToolOnce(ctx, a, cl.dryRun, tool, program, s,
        [&](RunSession& run, const std::string& line, std::int64_t lineNo) {
            if (auto p = stream.feed(line, {lineNo, 0}))
                run.append(*p);
        },
        [&](RunSession& run) -> ToolRunOutcome {
            nlohmann::json params = run.session().params;
            params.update(stream.facts());
            run.setParams(params);
            if (const std::string version = stream.version(); !version.empty()) { // its header's "Version: 5.0"
                Session identity = run.session();
                identity.toolVersion = version;
                run.workspace().setIdentity(run.id(), identity);
            }
            if (!stream.error().empty())
                return {SessionStatus::Failed, "line " + std::to_string(stream.errorAt().line) + ": " + stream.error()};
            if (run.points() == 0)
                return {SessionStatus::Failed, program + " printed no result rows"};
            return {SessionStatus::Complete, std::to_string(run.points()) + " kernels"};
        });
}

int runNvbandwidth(const CliContext& ctx, const RunCommandLine& cl)
{
    const runs::RunRequest& a = cl.request;
    const tools::FoundTool tool = locateTool("nvbandwidth", a);
    Session s;
    s.kind = kind::CopyBandwidth;
    s.tool = "nvbandwidth";
    s.title = "nvbandwidth";
    NvbandwidthStream stream;
    nlohmann::json matrices = nlohmann::json::array();
    // Each matrix is kept the moment its testcase ends: a long run cut short keeps what it finished.
    auto keep = [&](RunSession& run, const CopyMatrix& m) {
        matrices.push_back(m.toJson());
        nlohmann::json params = run.session().params;
        params.update(stream.facts());
        params["matrices"] = matrices;
        run.setParams(params);
        run.emit({{"record", "copy_matrix"}, {"testcase", m.testcase}, {"description", m.description},
                  {"sum", m.sum ? nlohmann::json(*m.sum) : nlohmann::json()}});
    };
    return runToolOnce(ctx, a, cl.dryRun, tool, "nvbandwidth", s,
        [&](RunSession& run, const std::string& line, std::int64_t lineNo) {
            if (auto m = stream.feed(line, {lineNo, 0}))
                keep(run, *m);
        },
        [&](RunSession& run) -> ToolRunOutcome {
            if (auto m = stream.finish())
                keep(run, *m);
            if (!stream.error().empty())
                return {SessionStatus::Failed, "line " + std::to_string(stream.errorAt().line) + ": " + stream.error()};
            if (matrices.empty())
                return {SessionStatus::Failed, "nvbandwidth printed no result matrix"};
            return {SessionStatus::Complete, std::to_string(matrices.size()) + " matrices"};
        });
}
} // namespace

void addStreamToolRunCommands(CLI::App* run, CliContext& ctx)
{
    addRunSubcommand(run, runs::RunKind::BabelStream,
                     "BabelStream (cuda-stream, hip-stream, ...): device memory bandwidth of copy/mul/add/triad/dot, "
                     "stored as it prints",
                     [&ctx](const RunCommandLine& cl) { return runBabelStream(ctx, cl); });
    addRunSubcommand(run, runs::RunKind::Nvbandwidth,
                     "nvbandwidth: host-device and GPU-GPU copy bandwidth matrices, each kept as its testcase ends",
                     [&ctx](const RunCommandLine& cl) { return runNvbandwidth(ctx, cl); });
}
} // namespace rl::cli
