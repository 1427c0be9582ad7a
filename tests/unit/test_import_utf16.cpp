// Issue 26 item 6: UTF-16 outputs (as PowerShell and some Windows tools write them) are decoded
// as they stream, not refused as binary, and import like their UTF-8 originals.
#include <gtest/gtest.h>

#include "importers/importerregistry.h"
#include "io/textencoding.h"

using namespace rl;

namespace {
std::string hostile(const char* name) { return std::string(RIDGELINE_TEST_DATA) + "/hostile/" + name; }
std::string data(const char* name) { return std::string(RIDGELINE_TEST_DATA) + "/" + name; }
} // namespace

// PowerShell's `>`, Out-File and Tee-Object write UTF-16LE with a BOM (and CRLF); iconv and some
// tools write it without a BOM or big-endian. Each imports like the UTF-8 original.
TEST(ImportUtf16, Utf16OutputsImportLikeTheirUtf8Original)
{
    const auto original = importFile(data("collectives/nccl_2.13_allreduce_8xh100.txt"));
    ASSERT_TRUE(original.ok) << original.error;
    ASSERT_EQ(original.sessions.size(), 1u);
    for (const char* name : {"nccl_allreduce_utf16le_bom.txt", "nccl_allreduce_utf16le_nobom.txt",
                             "nccl_allreduce_utf16be_bom.txt"}) {
        SCOPED_TRACE(name);
        const auto r = importFile(hostile(name)); // before: "binary content, not a text or JSON file"
        ASSERT_TRUE(r.ok) << r.error;
        EXPECT_EQ(r.format, "nccl-tests");
        ASSERT_EQ(r.sessions.size(), 1u);
        EXPECT_EQ(r.sessions[0].collectives, original.sessions[0].collectives);
        EXPECT_EQ(r.sessions[0].session.params, original.sessions[0].session.params);
        EXPECT_EQ(r.warnings.size(), original.warnings.size());
    }
}

TEST(ImportUtf16, Utf16IsDetectedByBomOrByItsNulPattern)
{
    using io::TextEncoding;
    EXPECT_EQ(io::detectEncoding("\xFF\xFE#\0 \0").encoding, TextEncoding::Utf16Le);
    EXPECT_EQ(io::detectEncoding("\xFF\xFE#\0 \0").bomBytes, 2u);
    EXPECT_EQ(io::detectEncoding("\xFE\xFF\0#\0 ").encoding, TextEncoding::Utf16Be);
    const std::string le("#\0 \0n\0T\0h\0r\0e\0a\0d\0", 18);
    EXPECT_EQ(io::detectEncoding(le).encoding, TextEncoding::Utf16Le);
    EXPECT_EQ(io::detectEncoding(le).bomBytes, 0u);
    EXPECT_EQ(io::detectEncoding("# nThread 1 nGpus 8").encoding, TextEncoding::Utf8);
    EXPECT_EQ(io::detectEncoding("\xEF\xBB\xBF# nThread").bomBytes, 3u);
    // Binary with scattered NULs is not UTF-16 text (looksBinary still refuses it).
    EXPECT_EQ(io::detectEncoding(std::string("\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0", 16)).encoding, TextEncoding::Utf8);
}

TEST(ImportUtf16, Utf16DecoderCompletesUnitsAndSurrogatesSplitBetweenChunks)
{
    // "µs 😀" in UTF-16LE: B5 00 73 00 20 00 3D D8 00 DE
    const std::string bytes("\xB5\x00s\x00 \x00\x3D\xD8\x00\xDE", 10);
    for (std::size_t cut = 0; cut <= bytes.size(); ++cut) {
        io::Utf16Decoder d(false);
        std::string out;
        d.decode(std::string_view(bytes).substr(0, cut), out);
        d.decode(std::string_view(bytes).substr(cut), out);
        d.finish(out);
        EXPECT_EQ(out, "\xC2\xB5s \xF0\x9F\x98\x80") << "cut at " << cut;
    }
    io::Utf16Decoder d(false);
    std::string out;
    d.decode(std::string_view("\x3D\xD8", 2), out); // a high surrogate the file ends on
    d.finish(out);
    EXPECT_EQ(out, "\xEF\xBF\xBD");
}
