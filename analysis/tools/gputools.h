#pragma once
// The GPU benchmark tools users already have and Ridgeline launches: nccl-tests / rccl-tests
// (one program per collective), hipblaslt-bench and rocblas-bench (AMD), cutlass_profiler,
// BabelStream and nvbandwidth (NVIDIA; BabelStream has HIP builds too). Where each lives - a folder
// the user names (e.g. an nccl-tests build/), else PATH, else ROCm's bin - and what it can run.
// The folders and the versions the tools reported are kept in tools.json in the user data dir,
// shared by the GUI's Settings and `ridgeline-cli tools`.
#include <optional>
#include <string>
#include <vector>

namespace rl::tools {

struct ToolKind
{
    std::string id;   // "nccl-tests", "hipblaslt-bench", "rocblas-bench", "cutlass_profiler", "babelstream", "nvbandwidth"
    std::string name; // for menus
    // Programs it is made of; a tool is found where its first program is, or any of them (anyProgram).
    std::vector<std::string> programs;
    bool collectives = false; // nccl-tests style: one program per op
    bool anyProgram = false;  // one program per build: nccl-tests' ops, BabelStream's cuda-stream / hip-stream
    // What askVersion runs (after the program) to learn the version; empty: nothing cheap tells
    // (BabelStream names its version only in the header of a full run, which the run stores).
    std::vector<std::string> versionArgs = {"--version"};
};
const std::vector<ToolKind>& knownTools();
const ToolKind* toolKind(const std::string& id);

// nccl-tests program of a collective: "all_reduce" -> "all_reduce_perf"; empty when there is none.
std::string ncclTestsProgram(const std::string& op);

struct FoundTool
{
    std::string id;
    std::string folder;                // where its programs are
    std::vector<std::string> programs; // those of ToolKind::programs present there
    std::string flavor;                // "rccl-tests" when the folder or programs say so
    std::string version;               // as the tool reported it; empty until asked
    std::string versionSource;         // "--version", "output header", or why unknown
    std::string path(const std::string& program) const { return folder + "/" + program; }
    bool has(const std::string& program) const;
};

struct ToolSettings
{
    std::vector<std::string> folders; // searched first, in order
    struct Version
    {
        std::string path, version, source;
        long long mtime = 0; // of the program when asked: a rebuilt tool is asked again
    };
    std::vector<Version> versions;

    // $XDG_DATA_HOME/ridgeline/tools.json
    static std::string defaultPath();
    // Missing file: empty settings. Throws std::runtime_error naming the file when it is not valid.
    static ToolSettings load(const std::string& path);
    void save(const std::string& path) const; // throws naming the file
    const Version* versionOf(const std::string& programPath) const;
    void rememberVersion(const std::string& programPath, const std::string& version, const std::string& source);
};

// User folders, then PATH, then /opt/rocm/bin, without repeats.
std::vector<std::string> searchFolders(const std::vector<std::string>& userFolders);
// The first folder holding the tool's first program (any program for nccl-tests); versions filled
// from the settings when remembered for the program as it is now.
std::optional<FoundTool> findTool(const ToolKind& kind, const ToolSettings& settings);

// Asks the tool its ToolKind::versionArgs: `--version` for the GEMM benches and cutlass_profiler,
// `--list` for nvbandwidth (its version line comes first); for nccl-tests, which has no such flag,
// the header of the smallest run (all_reduce_perf -b 8 -e 8 -n 1 -w 0 -c 0). Fills version and
// versionSource (the reason when it cannot tell: no GPU here, an old build without a version line)
// and remembers them in the settings.
void askVersion(FoundTool& tool, ToolSettings& settings, int timeoutMs = 60000);

// The version a tool's output names: "# nccl-tests version 2.17.1 ..." -> "2.17.1",
// "hipBLASLt version: 0.12.0" -> "0.12.0", "rocBLAS version: 4.3.0" -> "4.3.0",
// "CUTLASS 3.9.2 built on ..." -> "3.9.2", "nvbandwidth Version: v0.8" -> "v0.8"; empty when none.
std::string versionInOutput(const std::string& output);
} // namespace rl::tools
