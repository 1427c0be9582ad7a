#pragma once
// How a benchmark's processes start: one process here, local mpirun, mpirun with a hostfile, or a
// user template (e.g. "srun -N {nodes} --ntasks-per-node {ppn} {bench}"); optionally inside a Slurm
// batch job. Part of every RunRequest (runrequest.h): the CLI binds its launch options into it, the
// GUI's launcher form edits it, and the command a run starts is built from it here, once.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace rl::runs {

struct Sbatch
{
    bool use = false;
    std::vector<std::string> options; // #SBATCH lines: --partition=gpu, --time=00:30:00, --nodes=2, ...
    std::string dir;                  // where the script and the output file go (shared with the nodes)

    friend bool operator==(const Sbatch&, const Sbatch&) = default;
};

struct Launch
{
    enum class Mode { Local, LocalMpirun, Hostfile, Template };
    Mode mode = Mode::LocalMpirun;
    int np = 2;
    std::string mpirun = "mpirun";       // the mpirun program (a path picks one MPI of several)
    std::vector<std::string> mpirunArgs; // extra launcher flags, e.g. --oversubscribe
    std::string hostfile;
    std::string templ;                   // placeholders {bench} {np} {nodes} {ppn} {hostfile}
    int nodes = 1;
    int ppn = 1;
    Sbatch sbatch;

    // Empty when valid, else what is wrong, one sentence (the CLI's error, the dialogs' message line).
    std::string validate() const;
    // The fields this mode uses, the others at their defaults: two launches that start the same
    // command compare equal.
    Launch canonical() const;
    friend bool operator==(const Launch&, const Launch&) = default;
};
// "local", "mpirun", "hostfile", "template": as sessions record it and settings store it.
const char* modeName(Launch::Mode mode);
Launch::Mode modeNamed(const std::string& name, Launch::Mode otherwise);

// {"launcher", "np", "mpirun", "mpirun_args", "hostfile", "template", "nodes", "ppn", "sbatch",
//  "sbatch_options", "sbatch_dir"}; fromJson keeps `base`'s value for a key missing or mistyped.
nlohmann::json toJson(const Launch& l);
Launch launchFromJson(const nlohmann::json& j, Launch base = {});

// into = j[key] when j has it with the right type; otherwise into keeps its value.
template <typename T>
void readJson(const nlohmann::json& j, const char* key, T& into)
{
    if (!j.is_object() || !j.contains(key))
        return;
    try {
        into = j.at(key).get<T>();
    } catch (const nlohmann::json::exception&) {
        // mistyped: keep what we had
    }
}

// argv to exec for `command` (the program and its arguments) under the launch: the command itself
// for Mode::Local; a template becomes {"/bin/sh", "-c", expanded} so users' shell syntax works.
// Throws std::invalid_argument for an empty template or one without {bench}.
std::vector<std::string> launchCommand(const Launch& launch, const std::vector<std::string>& command);
// One line, shell-quoted where needed, as a person would type it.
std::string displayCommand(const std::vector<std::string>& argv);
std::string shellQuote(const std::string& arg);
} // namespace rl::runs

namespace rl {
using runs::displayCommand;
using runs::shellQuote;
} // namespace rl
