#pragma once
// Opens a file for importers: gzip is decompressed transparently (zlib reads plain files as is),
// UTF-16 (with or without BOM) is decoded to UTF-8 and a UTF-8 BOM dropped (io/textencoding.h),
// and progress is reported in bytes of the file on disk, so .json.gz and .json progress alike.
// Line numbers are the file's; byte offsets in messages count the UTF-8 text, not the UTF-16 file.
#include <cstdint>
#include <istream>
#include <memory>
#include <string>
#include <string_view>

namespace rl::io {

class InputFile
{
public:
    // Throws std::runtime_error("path: reason") when the file cannot be opened.
    explicit InputFile(const std::string& path);
    ~InputFile();
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    std::istream& stream();
    const std::string& path() const { return m_path; }
    std::int64_t sizeOnDisk() const { return m_sizeOnDisk; }
    std::int64_t bytesReadOnDisk() const; // compressed position for gzip, plain position otherwise
    bool compressed() const;
    // The first bytes of the decompressed and decoded content, for sniffing.
    static std::string head(const std::string& path, std::size_t bytes = 8192);

private:
    class Buffer;
    std::string m_path;
    std::int64_t m_sizeOnDisk = 0;
    std::unique_ptr<Buffer> m_buffer;
    std::unique_ptr<std::istream> m_stream;
};

std::string sha256File(const std::string& path); // lower-case hex; throws on read errors
std::string sha256Text(std::string_view bytes);   // lower-case hex
} // namespace rl::io
