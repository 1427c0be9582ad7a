#include "collectives/launchcommand.h"

#include <stdexcept>

namespace rl {

std::string shellQuote(const std::string& arg)
{
    if (!arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                              "@%+=:,./-_") == std::string::npos)
        return arg;
    std::string out = "'";
    for (char c : arg)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string displayCommand(const std::vector<std::string>& argv)
{
    // A template runs through sh -c: show the user's own command, not the wrapper.
    if (argv.size() == 3 && argv[0] == "/bin/sh" && argv[1] == "-c")
        return argv[2];
    std::string out;
    for (const auto& a : argv)
        out += (out.empty() ? "" : " ") + shellQuote(a);
    return out;
}

namespace {
void replaceAll(std::string& s, const std::string& from, const std::string& to)
{
    for (std::size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size())
        s.replace(pos, from.size(), to);
}
} // namespace

std::vector<std::string> buildLaunchCommand(const LaunchSpec& spec)
{
    std::vector<std::string> benchCmd{spec.bench};
    if (!spec.subcommand.empty()) // empty for a tool that is not ridgeline-bench (nccl-tests, GEMM benches)
        benchCmd.push_back(spec.subcommand);
    benchCmd.insert(benchCmd.end(), spec.benchArgs.begin(), spec.benchArgs.end());
    if (spec.kind == LaunchSpec::Kind::Template) {
        if (spec.templ.find("{bench}") == std::string::npos)
            throw std::invalid_argument("launcher template must contain {bench}, e.g. "
                                        "\"srun -N {nodes} --ntasks-per-node {ppn} {bench}\"");
        std::string s = spec.templ;
        replaceAll(s, "{np}", std::to_string(spec.np));
        replaceAll(s, "{nodes}", std::to_string(spec.nodes));
        replaceAll(s, "{ppn}", std::to_string(spec.ppn));
        replaceAll(s, "{hostfile}", shellQuote(spec.hostfile));
        std::string bench;
        for (const auto& a : benchCmd)
            bench += (bench.empty() ? "" : " ") + shellQuote(a);
        replaceAll(s, "{bench}", bench);
        return {"/bin/sh", "-c", s};
    }
    if (spec.np < 1)
        throw std::invalid_argument("the number of ranks (-np) must be at least 1");
    std::vector<std::string> argv{spec.mpirun};
    if (spec.kind == LaunchSpec::Kind::Hostfile) {
        if (spec.hostfile.empty())
            throw std::invalid_argument("no hostfile given");
        argv.insert(argv.end(), {"-hostfile", spec.hostfile});
    }
    argv.insert(argv.end(), {"-np", std::to_string(spec.np)});
    argv.insert(argv.end(), spec.mpirunArgs.begin(), spec.mpirunArgs.end());
    argv.insert(argv.end(), benchCmd.begin(), benchCmd.end());
    return argv;
}
} // namespace rl
