#include "runs/launch.h"

#include <stdexcept>

namespace rl::runs {

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

std::string Launch::validate() const
{
    if (mode != Mode::Local && np < 1)
        return "the number of ranks (--np) must be at least 1";
    if (mode == Mode::Hostfile && hostfile.empty())
        return "choose a hostfile (--hostfile)";
    if (mode == Mode::Template && templ.find("{bench}") == std::string::npos)
        return "the launcher template must contain {bench}, e.g. \"srun -N {nodes} --ntasks-per-node {ppn} {bench}\"";
    if ((mode == Mode::LocalMpirun || mode == Mode::Hostfile) && mpirun.empty())
        return "name the mpirun program (--mpirun)";
    if (mode == Mode::Template && (nodes < 1 || ppn < 1))
        return "nodes and processes per node must be at least 1";
    if (sbatch.use)
        for (const auto& o : sbatch.options)
            if (o.empty() || o[0] != '-')
                return "#SBATCH option '" + o + "' should start with - or --, e.g. --partition=gpu";
    return {};
}

Launch Launch::canonical() const
{
    Launch c;
    c.mode = mode;
    c.sbatch = sbatch.use ? sbatch : Sbatch{};
    if (mode == Mode::Local)
        return c.np = 1, c;
    c.np = np;
    if (mode == Mode::Template) {
        c.templ = templ;
        c.nodes = nodes;
        c.ppn = ppn;
        if (templ.find("{hostfile}") != std::string::npos)
            c.hostfile = hostfile;
        return c;
    }
    c.mpirun = mpirun;
    c.mpirunArgs = mpirunArgs;
    if (mode == Mode::Hostfile)
        c.hostfile = hostfile;
    return c;
}

const char* modeName(Launch::Mode mode)
{
    switch (mode) {
    case Launch::Mode::Local: return "local";
    case Launch::Mode::LocalMpirun: return "mpirun";
    case Launch::Mode::Hostfile: return "hostfile";
    case Launch::Mode::Template: return "template";
    }
    return "mpirun";
}

Launch::Mode modeNamed(const std::string& name, Launch::Mode otherwise)
{
    for (auto m : {Launch::Mode::Local, Launch::Mode::LocalMpirun, Launch::Mode::Hostfile, Launch::Mode::Template})
        if (name == modeName(m))
            return m;
    return otherwise;
}

nlohmann::json toJson(const Launch& l)
{
    return {{"launcher", modeName(l.mode)}, {"np", l.np},           {"mpirun", l.mpirun},
            {"mpirun_args", l.mpirunArgs},  {"hostfile", l.hostfile}, {"template", l.templ},
            {"nodes", l.nodes},             {"ppn", l.ppn},         {"sbatch", l.sbatch.use},
            {"sbatch_options", l.sbatch.options}, {"sbatch_dir", l.sbatch.dir}};
}

Launch launchFromJson(const nlohmann::json& j, Launch l)
{
    if (j.is_object() && j.contains("launcher") && j["launcher"].is_string())
        l.mode = modeNamed(j["launcher"].get<std::string>(), l.mode);
    readJson(j, "np", l.np);
    readJson(j, "mpirun", l.mpirun);
    readJson(j, "mpirun_args", l.mpirunArgs);
    readJson(j, "hostfile", l.hostfile);
    readJson(j, "template", l.templ);
    readJson(j, "nodes", l.nodes);
    readJson(j, "ppn", l.ppn);
    readJson(j, "sbatch", l.sbatch.use);
    readJson(j, "sbatch_options", l.sbatch.options);
    readJson(j, "sbatch_dir", l.sbatch.dir);
    return l;
}

std::vector<std::string> launchCommand(const Launch& launch, const std::vector<std::string>& command)
{
    if (launch.mode == Launch::Mode::Local)
        return command;
    if (launch.mode == Launch::Mode::Template) {
        if (launch.templ.find("{bench}") == std::string::npos)
            throw std::invalid_argument("launcher template must contain {bench}, e.g. "
                                        "\"srun -N {nodes} --ntasks-per-node {ppn} {bench}\"");
        std::string s = launch.templ;
        replaceAll(s, "{np}", std::to_string(launch.np));
        replaceAll(s, "{nodes}", std::to_string(launch.nodes));
        replaceAll(s, "{ppn}", std::to_string(launch.ppn));
        replaceAll(s, "{hostfile}", shellQuote(launch.hostfile));
        std::string bench;
        for (const auto& a : command)
            bench += (bench.empty() ? "" : " ") + shellQuote(a);
        replaceAll(s, "{bench}", bench);
        return {"/bin/sh", "-c", s};
    }
    if (launch.np < 1)
        throw std::invalid_argument("the number of ranks (-np) must be at least 1");
    std::vector<std::string> argv{launch.mpirun};
    if (launch.mode == Launch::Mode::Hostfile) {
        if (launch.hostfile.empty())
            throw std::invalid_argument("no hostfile given");
        argv.insert(argv.end(), {"-hostfile", launch.hostfile});
    }
    argv.insert(argv.end(), {"-np", std::to_string(launch.np)});
    argv.insert(argv.end(), launch.mpirunArgs.begin(), launch.mpirunArgs.end());
    argv.insert(argv.end(), command.begin(), command.end());
    return argv;
}
} // namespace rl::runs
