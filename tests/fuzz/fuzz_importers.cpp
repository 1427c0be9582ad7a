// libFuzzer target: every importer's sniff and parse on arbitrary bytes must return (ok or a
// clear error) without crashing, hanging or tripping ASan/UBSan.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "importers/importerregistry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    for (const auto& importer : rl::importers()) {
        if (importer.sniff)
            importer.sniff(text.substr(0, 8192), "fuzz.txt");
        std::istringstream in(text);
        rl::ImportInput input{"fuzz.txt", in, {}, static_cast<std::int64_t>(size)};
        try {
            rl::ImportResult r = importer.parse(input, {});
            if (!r.ok && r.error.empty())
                __builtin_trap(); // a failure must say why
        } catch (const std::exception&) {
            // importFile() turns exceptions into errors; the parse functions may throw.
        }
    }
    return 0;
}
