#include "io/textencoding.h"

#include <algorithm>

namespace rl::io {
namespace {
void appendUtf8(char32_t c, std::string& out)
{
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
}

constexpr char32_t kReplacement = 0xFFFD;

// Share of the code units (in the first 512 bytes) whose high byte is NUL and low byte is not:
// ~1 for ASCII-heavy UTF-16 of that byte order, ~0 for UTF-8 text.
double nulPattern(std::string_view head, bool bigEndian)
{
    const std::size_t pairs = std::min<std::size_t>(head.size(), 512) / 2;
    if (pairs == 0)
        return 0;
    std::size_t hits = 0;
    for (std::size_t i = 0; i < pairs; ++i) {
        const char lo = head[2 * i + (bigEndian ? 1 : 0)];
        const char hi = head[2 * i + (bigEndian ? 0 : 1)];
        hits += hi == 0 && lo != 0;
    }
    return double(hits) / double(pairs);
}
} // namespace

DetectedEncoding detectEncoding(std::string_view head)
{
    if (head.starts_with("\xEF\xBB\xBF"))
        return {TextEncoding::Utf8, 3};
    if (head.starts_with("\xFF\xFE"))
        return {TextEncoding::Utf16Le, 2};
    if (head.starts_with("\xFE\xFF"))
        return {TextEncoding::Utf16Be, 2};
    // Two units at least, so a lone "a\0" stays what it is; 90 % leaves room for a few non-Latin
    // characters (µ, box drawing) in the first lines.
    if (head.size() >= 4) {
        if (nulPattern(head, false) >= 0.9)
            return {TextEncoding::Utf16Le, 0};
        if (nulPattern(head, true) >= 0.9)
            return {TextEncoding::Utf16Be, 0};
    }
    return {};
}

void Utf16Decoder::unit(char16_t u, std::string& out)
{
    if (m_highSurrogate) {
        const char16_t high = m_highSurrogate;
        m_highSurrogate = 0;
        if (u >= 0xDC00 && u <= 0xDFFF) {
            appendUtf8(0x10000 + ((char32_t(high) - 0xD800) << 10) + (char32_t(u) - 0xDC00), out);
            return;
        }
        appendUtf8(kReplacement, out); // the high surrogate had no partner; u is read on its own
    }
    if (u >= 0xD800 && u <= 0xDBFF)
        m_highSurrogate = u;
    else if (u >= 0xDC00 && u <= 0xDFFF)
        appendUtf8(kReplacement, out);
    else
        appendUtf8(u, out);
}

void Utf16Decoder::decode(std::string_view bytes, std::string& out)
{
    out.reserve(out.size() + bytes.size() / 2);
    std::size_t i = 0;
    auto byteAt = [&](std::size_t k) { return static_cast<unsigned char>(bytes[k]); };
    auto make = [&](unsigned first, unsigned second) {
        return static_cast<char16_t>(m_bigEndian ? (first << 8 | second) : (second << 8 | first));
    };
    if (m_pendingByte >= 0 && !bytes.empty()) {
        unit(make(static_cast<unsigned>(m_pendingByte), byteAt(0)), out);
        m_pendingByte = -1;
        i = 1;
    }
    for (; i + 1 < bytes.size(); i += 2)
        unit(make(byteAt(i), byteAt(i + 1)), out);
    if (i < bytes.size())
        m_pendingByte = byteAt(i);
}

void Utf16Decoder::finish(std::string& out)
{
    if (m_highSurrogate || m_pendingByte >= 0)
        appendUtf8(kReplacement, out);
    m_highSurrogate = 0;
    m_pendingByte = -1;
}

std::string decodeText(std::string_view bytes)
{
    const DetectedEncoding enc = detectEncoding(bytes);
    bytes.remove_prefix(enc.bomBytes);
    if (enc.encoding == TextEncoding::Utf8)
        return std::string(bytes);
    std::string out;
    Utf16Decoder decoder(enc.encoding == TextEncoding::Utf16Be);
    decoder.decode(bytes, out);
    // A head cut mid-character is not an error: leave the tail out instead of adding U+FFFD.
    return out;
}
} // namespace rl::io
