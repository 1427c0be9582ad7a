#include "tools/gputools.h"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "io/linereader.h"
#include "io/runcommand.h"
#include "io/userpaths.h"

namespace rl::tools {
namespace fs = std::filesystem;

namespace {
bool isExecutable(const std::string& path)
{
    struct stat st{};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

long long mtimeOf(const std::string& path)
{
    struct stat st{};
    return ::stat(path.c_str(), &st) == 0 ? static_cast<long long>(st.st_mtime) : 0;
}
} // namespace

const std::vector<ToolKind>& knownTools()
{
    static const std::vector<ToolKind> tools{
        {"nccl-tests", "nccl-tests / rccl-tests",
         {"all_reduce_perf", "reduce_scatter_perf", "all_gather_perf", "broadcast_perf", "alltoall_perf", "sendrecv_perf",
          "alltoallv_perf", "reduce_perf", "gather_perf", "scatter_perf"},
         true, true, {"-b", "8", "-e", "8", "-n", "1", "-w", "0", "-c", "0"}},
        {"hipblaslt-bench", "hipblaslt-bench (hipBLASLt)", {"hipblaslt-bench"}},
        {"rocblas-bench", "rocblas-bench (rocBLAS)", {"rocblas-bench"}},
        {"cutlass_profiler", "cutlass_profiler (CUTLASS GEMM)", {"cutlass_profiler"}},
        // BabelStream's CMake names the program after its model: cuda-stream, hip-stream, ...
        {"babelstream", "BabelStream (HBM bandwidth)", {"cuda-stream", "hip-stream", "omp-stream", "std-data-stream"},
         false, true, {}},
        {"nvbandwidth", "nvbandwidth (host-device and peer copies)", {"nvbandwidth"}, false, false, {"--list"}},
    };
    return tools;
}

const ToolKind* toolKind(const std::string& id)
{
    for (const auto& t : knownTools())
        if (t.id == id)
            return &t;
    return nullptr;
}

std::string ncclTestsProgram(const std::string& op)
{
    const std::string program = op + "_perf";
    for (const auto& p : knownTools().front().programs)
        if (p == program)
            return program;
    return {};
}

bool FoundTool::has(const std::string& program) const
{
    for (const auto& p : programs)
        if (p == program)
            return true;
    return false;
}

std::string ToolSettings::defaultPath() { return io::userDataDir() + "/tools.json"; }

ToolSettings ToolSettings::load(const std::string& path)
{
    ToolSettings s;
    std::ifstream in(path);
    if (!in)
        return s;
    try {
        const auto j = nlohmann::json::parse(in);
        for (const auto& f : j.value("folders", nlohmann::json::array()))
            s.folders.push_back(f.get<std::string>());
        for (const auto& v : j.value("versions", nlohmann::json::array()))
            s.versions.push_back({v.at("path").get<std::string>(), v.value("version", ""), v.value("source", ""),
                                  v.value("mtime", 0LL)});
    } catch (const std::exception& e) {
        throw std::runtime_error(path + ": not a valid tools file (" + e.what() + ")");
    }
    return s;
}

void ToolSettings::save(const std::string& path) const
{
    nlohmann::json j;
    j["folders"] = folders;
    j["versions"] = nlohmann::json::array();
    for (const auto& v : versions)
        j["versions"].push_back({{"path", v.path}, {"version", v.version}, {"source", v.source}, {"mtime", v.mtime}});
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp);
        out << j.dump(2) << '\n';
        if (!out)
            throw std::runtime_error(path + ": cannot write");
    }
    fs::rename(tmp, path, ec); // whole or not at all
    if (ec)
        throw std::runtime_error(path + ": cannot write (" + ec.message() + ")");
}

const ToolSettings::Version* ToolSettings::versionOf(const std::string& programPath) const
{
    for (const auto& v : versions)
        if (v.path == programPath && v.mtime == mtimeOf(programPath))
            return &v;
    return nullptr;
}

void ToolSettings::rememberVersion(const std::string& programPath, const std::string& version, const std::string& source)
{
    for (auto& v : versions)
        if (v.path == programPath) {
            v = {programPath, version, source, mtimeOf(programPath)};
            return;
        }
    versions.push_back({programPath, version, source, mtimeOf(programPath)});
}

std::vector<std::string> searchFolders(const std::vector<std::string>& userFolders)
{
    std::vector<std::string> out;
    auto add = [&](std::string f) {
        while (f.size() > 1 && f.back() == '/')
            f.pop_back();
        if (f.empty())
            return;
        for (const auto& o : out)
            if (o == f)
                return;
        out.push_back(std::move(f));
    };
    for (const auto& f : userFolders)
        add(f);
    if (const char* path = std::getenv("PATH")) {
        std::stringstream ss(path);
        std::string dir;
        while (std::getline(ss, dir, ':'))
            add(dir);
    }
    add("/opt/rocm/bin");
    return out;
}

std::optional<FoundTool> findTool(const ToolKind& kind, const ToolSettings& settings)
{
    for (const auto& folder : searchFolders(settings.folders)) {
        FoundTool t;
        t.id = kind.id;
        t.folder = folder;
        for (const auto& p : kind.programs)
            if (isExecutable(folder + "/" + p))
                t.programs.push_back(p);
        if (t.programs.empty() || (!kind.anyProgram && t.programs.front() != kind.programs.front()))
            continue;
        if (kind.collectives)
            t.flavor = folder.find("rccl") != std::string::npos || t.has("alltoallv_perf") ? "rccl-tests" : "nccl-tests";
        if (const auto* v = settings.versionOf(t.path(t.programs.front()))) {
            t.version = v->version;
            t.versionSource = v->source;
        }
        return t;
    }
    return std::nullopt;
}

void askVersion(FoundTool& tool, ToolSettings& settings, int timeoutMs)
{
    if (tool.programs.empty())
        return;
    const std::string program = tool.path(tool.programs.front());
    const ToolKind* kind = toolKind(tool.id);
    if (kind && kind->versionArgs.empty()) {
        tool.version.clear();
        tool.versionSource = "not asked: each run's output header names it";
        settings.rememberVersion(program, tool.version, tool.versionSource);
        return;
    }
    std::vector<std::string> argv{program};
    if (kind && kind->collectives)
        argv = {tool.path(tool.has("all_reduce_perf") ? "all_reduce_perf" : tool.programs.front())};
    const std::vector<std::string> args = kind ? kind->versionArgs : std::vector<std::string>{"--version"};
    argv.insert(argv.end(), args.begin(), args.end());
    std::string source = kind && kind->collectives ? "output header" : args.front();
    try {
        const io::CommandResult r = io::runCommand(argv, timeoutMs);
        tool.version = versionInOutput(r.out + "\n" + r.err);
        if (kind && kind->collectives && r.out.find("# nccl-tests version") != std::string::npos)
            tool.flavor = "nccl-tests"; // the header outranks the guess from the folder
        else if (kind && kind->collectives && r.out.find("rccl-tests") != std::string::npos)
            tool.flavor = "rccl-tests";
        if (tool.version.empty()) {
            const std::string said = std::string(io::trim((r.err.empty() ? r.out : r.err).substr(0, 200)));
            source = r.timedOut ? "no answer within " + std::to_string(timeoutMs / 1000) + " s"
                     : !r.ok()  ? "could not run it" + (said.empty() ? std::string() : ": " + said)
                                : "its output names no version";
        }
    } catch (const std::exception& e) {
        tool.version.clear();
        source = e.what();
    }
    tool.versionSource = source;
    settings.rememberVersion(program, tool.version, source);
}

std::string versionInOutput(const std::string& output)
{
    std::istringstream in(output);
    std::string line;
    while (std::getline(in, line)) {
        for (const char* key : {"nccl-tests version ", "rccl-tests version ", "rccl-tests: Version ", "hipBLASLt version",
                                "rocBLAS version", "nvbandwidth Version", "CUTLASS "}) {
            const auto at = line.find(key);
            if (at == std::string::npos)
                continue;
            std::string rest = line.substr(at + std::string(key).size());
            while (!rest.empty() && (rest.front() == ':' || rest.front() == ' '))
                rest.erase(0, 1);
            if (std::string_view(key) == "CUTLASS " && (rest.empty() || !std::isdigit(static_cast<unsigned char>(rest[0]))))
                continue; // "CUTLASS 3.9.2 built on ...", not any line that names CUTLASS
            const auto end = rest.find_first_of(" \t\r");
            return rest.substr(0, end);
        }
    }
    return {};
}
} // namespace rl::tools
