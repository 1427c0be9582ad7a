#pragma once
// Importers are pure functions: an input stream and options in, an ImportResult out. Each format
// lives in its own file and is listed once in importerregistry.cpp.
#include <cstdint>
#include <functional>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "records/importresult.h"
#include "trace/columnmapping.h"

namespace rl {

// Returns false to cancel. bytesTotal is the size on disk (0 when unknown).
using ProgressFn = std::function<bool(std::int64_t bytesDone, std::int64_t bytesTotal)>;

struct ImportInput
{
    std::string path;         // for messages and the session title
    std::istream& stream;     // decompressed content
    std::function<std::int64_t()> bytesReadOnDisk; // for progress; may be empty
    std::int64_t sizeOnDisk = 0;
};

struct ImportOptions
{
    ProgressFn progress; // may be empty
    // Generic training-metrics tables: the user's column mapping instead of the guess from the header.
    std::optional<trace::ColumnMapping> trainColumns;
};

struct ImporterInfo
{
    std::string id;   // stable, stored with imported files: "nccl-tests", "osu", "imb", "ridgeline-jsonl", ...
    std::string name; // for menus and messages
    // How sure the importer is that it reads this content (0 = not at all, 100 = certain).
    // head: the first ~8 KiB of the decompressed content; fileName: the base name.
    std::function<int(std::string_view head, std::string_view fileName)> sniff;
    std::function<ImportResult(ImportInput&, const ImportOptions&)> parse;
};

// Throttles progress callbacks to about every 0.1 % of the input and turns a false return into
// a cancel flag that importers check in their loop.
class ProgressTicker
{
public:
    ProgressTicker(const ImportInput& input, const ImportOptions& options);
    // Call often; cheap. Returns false when the user cancelled.
    bool tick();
    bool cancelled() const { return m_cancelled; }

private:
    const ImportInput& m_input;
    const ImportOptions& m_options;
    std::int64_t m_lastReported = -1;
    std::int64_t m_step = 1;
    unsigned m_calls = 0;
    bool m_cancelled = false;
};
} // namespace rl
