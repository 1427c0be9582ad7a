#include "io/inputfile.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <vector>

#include <openssl/evp.h>
#include <zlib.h>

#include "io/textencoding.h"

namespace rl::io {

class InputFile::Buffer : public std::streambuf
{
public:
    explicit Buffer(const std::string& path)
    {
        m_gz = gzopen(path.c_str(), "rb");
        if (!m_gz)
            throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
        gzbuffer(m_gz, 1 << 17);
        m_data.resize(1 << 17);
    }
    ~Buffer() override { gzclose(m_gz); }
    std::int64_t diskOffset() const { return gzoffset(m_gz); }
    bool compressed() const { return gzdirect(m_gz) == 0; }
    std::string path;

protected:
    // UTF-16 is decoded one buffer at a time (a 200 MB log is never held whole), so importers and
    // their line and byte counts see UTF-8; progress still counts bytes on disk.
    int_type underflow() override
    {
        if (gptr() < egptr())
            return traits_type::to_int_type(*gptr());
        for (;;) {
            const int n = readRaw();
            std::size_t skip = 0;
            if (m_first) {
                m_first = false;
                const DetectedEncoding enc = detectEncoding(std::string_view(m_data.data(), static_cast<std::size_t>(n)));
                skip = enc.bomBytes;
                if (enc.encoding != TextEncoding::Utf8)
                    m_decoder.emplace(enc.encoding == TextEncoding::Utf16Be);
            }
            if (!m_decoder) {
                if (static_cast<std::size_t>(n) <= skip)
                    return traits_type::eof();
                setg(m_data.data(), m_data.data() + skip, m_data.data() + n);
                return traits_type::to_int_type(*gptr());
            }
            m_text.clear();
            if (n == 0)
                m_decoder->finish(m_text);
            else
                m_decoder->decode(std::string_view(m_data.data() + skip, static_cast<std::size_t>(n) - skip), m_text);
            if (!m_text.empty()) {
                setg(m_text.data(), m_text.data(), m_text.data() + m_text.size());
                return traits_type::to_int_type(*gptr());
            }
            if (n == 0)
                return traits_type::eof();
            // A read of one byte (half a code unit) decodes to nothing yet: read on.
        }
    }

private:
    int readRaw()
    {
        const int n = gzread(m_gz, m_data.data(), static_cast<unsigned>(m_data.size()));
        if (n < 0) {
            int err = 0;
            const char* msg = gzerror(m_gz, &err);
            throw std::runtime_error(path + ": read error: " + (msg ? msg : "unknown"));
        }
        return n;
    }

    gzFile m_gz = nullptr;
    std::vector<char> m_data;
    bool m_first = true;
    std::optional<Utf16Decoder> m_decoder; // set when the content is UTF-16
    std::string m_text;                    // the decoded buffer
};

InputFile::InputFile(const std::string& path) : m_path(path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw std::runtime_error(path + ": is a directory");
    m_sizeOnDisk = static_cast<std::int64_t>(std::filesystem::file_size(path, ec));
    if (ec)
        throw std::runtime_error(path + ": cannot open: " + ec.message());
    m_buffer = std::make_unique<Buffer>(path);
    m_buffer->path = path;
    m_stream = std::make_unique<std::istream>(m_buffer.get());
    // A corrupt .gz throws from underflow(); let it reach the importer as an exception.
    m_stream->exceptions(std::ios::badbit);
}

InputFile::~InputFile() = default;

std::istream& InputFile::stream() { return *m_stream; }
std::int64_t InputFile::bytesReadOnDisk() const { return m_buffer->diskOffset(); }
bool InputFile::compressed() const { return m_buffer->compressed(); }

std::string InputFile::head(const std::string& path, std::size_t bytes)
{
    gzFile gz = gzopen(path.c_str(), "rb");
    if (!gz)
        return {};
    // Twice the bytes, so that UTF-16 still gives `bytes` characters of ASCII text to sniff.
    std::string raw(2 * bytes, '\0');
    const int n = gzread(gz, raw.data(), static_cast<unsigned>(raw.size()));
    gzclose(gz);
    raw.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    std::string out = decodeText(raw);
    if (out.size() > bytes)
        out.resize(bytes);
    return out;
}

namespace {
using DigestContext = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

DigestContext newSha256()
{
    DigestContext ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr);
    return ctx;
}

std::string finishHex(EVP_MD_CTX* ctx)
{
    std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
    unsigned len = 0;
    EVP_DigestFinal_ex(ctx, md.data(), &len);
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (unsigned i = 0; i < len; ++i) {
        out += hex[md[i] >> 4];
        out += hex[md[i] & 15];
    }
    return out;
}
} // namespace

std::string sha256File(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
    auto ctx = newSha256();
    std::vector<char> buf(1 << 16);
    while (in) {
        in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
        if (in.gcount() > 0)
            EVP_DigestUpdate(ctx.get(), buf.data(), static_cast<std::size_t>(in.gcount()));
    }
    if (in.bad())
        throw std::runtime_error(path + ": read error");
    return finishHex(ctx.get());
}

std::string sha256Text(std::string_view bytes)
{
    auto ctx = newSha256();
    EVP_DigestUpdate(ctx.get(), bytes.data(), bytes.size());
    return finishHex(ctx.get());
}
} // namespace rl::io
