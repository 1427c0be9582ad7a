#pragma once
// UTF-16 text to UTF-8, for outputs saved on Windows: PowerShell's `>` / Out-File / Tee-Object
// write UTF-16LE with a BOM, and some tools write it without one. Importers read UTF-8 only, so
// InputFile decodes as it streams and nothing after it needs to know.
#include <cstddef>
#include <string>
#include <string_view>

namespace rl::io {

enum class TextEncoding { Utf8, Utf16Le, Utf16Be };

struct DetectedEncoding
{
    TextEncoding encoding = TextEncoding::Utf8;
    std::size_t bomBytes = 0; // to skip before the text (UTF-8's BOM is skipped too)
};

// From the first bytes of the content: a BOM, or else the NUL pattern of mostly-ASCII UTF-16
// (every second byte NUL, the other not), which plain text never has. Anything else is UTF-8.
DetectedEncoding detectEncoding(std::string_view head);

// Decodes UTF-16 in chunks of any size: a code unit or surrogate pair split between chunks is
// completed by the next call; unpaired surrogates become U+FFFD.
class Utf16Decoder
{
public:
    explicit Utf16Decoder(bool bigEndian) : m_bigEndian(bigEndian) {}
    // Appends the UTF-8 of `bytes` to `out`.
    void decode(std::string_view bytes, std::string& out);
    // The end of the input: a dangling byte or high surrogate becomes U+FFFD.
    void finish(std::string& out);

private:
    void unit(char16_t u, std::string& out);
    bool m_bigEndian;
    int m_pendingByte = -1;  // first byte of a code unit split between chunks
    char16_t m_highSurrogate = 0;
};

// The first bytes of a content decoded by what detectEncoding finds, for sniffing: a character
// cut at the end is left out.
std::string decodeText(std::string_view bytes);
} // namespace rl::io
