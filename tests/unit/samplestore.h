#pragma once
// A temporary workspace holding real files imported the way the GUI and the CLI import them, for
// the tests of what the charts show (analysis/views) on real data.
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

#include "store/fileimport.h"
#include "store/workspace.h"
#include "tempdir.h"

namespace rl::test {

inline std::string sampleData(const std::string& name)
{
    return std::string(RIDGELINE_TEST_DATA) + "/../../sample_data/" + name;
}
inline std::string testData(const std::string& name) { return std::string(RIDGELINE_TEST_DATA) + "/" + name; }

class SampleStore
{
public:
    SampleStore() : m_ws(std::make_unique<store::Workspace>((m_dir.path / "w.db").string())) {}
    SampleStore(const SampleStore&) = delete;
    SampleStore& operator=(const SampleStore&) = delete;

    // The ids of the sessions the file became; throws when the import fails.
    std::vector<std::int64_t> import(const std::string& path)
    {
        const auto out = store::importIntoWorkspace(*m_ws, path);
        if (!out.ok || out.sessionIds.empty())
            throw std::runtime_error(path + ": " + out.error);
        return out.sessionIds;
    }
    store::Workspace& workspace() { return *m_ws; }

private:
    TempDir m_dir; // removed after the workspace is closed
    std::unique_ptr<store::Workspace> m_ws;
};
} // namespace rl::test
