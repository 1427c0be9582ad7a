#include "importers/importerregistry.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "io/inputfile.h"
#include "io/linereader.h"
#include "importers/figurecheck.h"
#include "importers/formats.h"

namespace rl {

const std::vector<ImporterInfo>& importers()
{
    // One line per format; each factory lives in its own file (importers/formats.h).
    static const std::vector<ImporterInfo> list = [] {
        std::vector<ImporterInfo> v;
        for (auto make : importerFactories())
            v.push_back(make());
        return v;
    }();
    return list;
}

const ImporterInfo* importerById(std::string_view id)
{
    for (const auto& imp : importers())
        if (imp.id == id)
            return &imp;
    return nullptr;
}

std::vector<Detection> detectFormat(std::string_view head, std::string_view fileName)
{
    std::vector<Detection> out;
    for (const auto& imp : importers()) {
        const int c = imp.sniff ? imp.sniff(head, fileName) : 0;
        if (c > 0)
            out.push_back({&imp, c});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Detection& a, const Detection& b) { return a.confidence > b.confidence; });
    return out;
}

ImportResult importFile(const std::string& path, const ImportOptions& options, const std::string& formatId)
{
    auto fail = [&](std::string message, SourceLocation where = {}) {
        ImportResult r;
        r.ok = false;
        r.error = describeLocation(path, where) + ": " + std::move(message);
        r.errorAt = where;
        return r;
    };
    try {
        std::error_code ec;
        if (!std::filesystem::exists(path, ec))
            return fail("no such file");
        if (std::filesystem::is_directory(path, ec))
            return fail("is a directory (import its files one by one)");
        const std::string head = io::InputFile::head(path);
        const ImporterInfo* importer = nullptr;
        if (!formatId.empty()) {
            importer = importerById(formatId);
            if (!importer)
                return fail("unknown format '" + formatId + "'");
        } else {
            if (head.empty())
                return fail("file is empty");
            if (io::looksBinary(head))
                return fail("binary content, not a text or JSON file of a known format");
            const auto found = detectFormat(head, std::filesystem::path(path).filename().string());
            if (found.empty())
                return fail("unrecognised format (not nccl-tests, rccl-tests, OSU, IMB, GEMM, STREAM, "
                            "Kineto trace, training log or Ridgeline JSON/CSV)");
            if (found.size() > 1 && found[0].confidence == found[1].confidence)
                return fail("ambiguous format: could be '" + found[0].importer->id + "' or '" +
                            found[1].importer->id + "'; choose one");
            importer = found.front().importer;
        }
        io::InputFile file(path);
        ImportInput input{path, file.stream(), [&file] { return file.bytesReadOnDisk(); }, file.sizeOnDisk()};
        ImportResult result = importer->parse(input, options);
        result.format = importer->id;
        // The importers skip rows out of range where they still know the line; this catches what
        // the line-less formats (fio's JSON) and derived figures let through.
        if (result.ok && !result.cancelled)
            dropOutOfRange(result);
        if (!result.ok && result.error.find(path) == std::string::npos)
            result.error = describeLocation(path, result.errorAt) + ": " + result.error;
        if (result.ok && !result.cancelled && result.sessions.empty())
            return fail("no results found in a file that looks like " + importer->name);
        return result;
    } catch (const std::exception& e) {
        return fail(e.what());
    }
}
} // namespace rl
