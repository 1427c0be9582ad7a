#pragma once
// Streaming reader for PyTorch profiler (Kineto) Chrome traces. The decompressed stream is read
// in chunks; a brace- and string-aware scanner cuts the traceEvents array into complete event
// objects, which simdjson (on-demand) parses a batch at a time. Memory stays proportional to the
// kept GPU events, never to the document.
#include <cstdint>
#include <functional>
#include <istream>
#include <stdexcept>
#include <string>

#include "trace/tracedata.h"

namespace rl::trace {

// A fatal problem in the input, at a byte offset of the decompressed JSON.
class TraceError : public std::runtime_error
{
public:
    TraceError(std::int64_t byteOffset, const std::string& message)
        : std::runtime_error(message), m_byteOffset(byteOffset)
    {
    }
    std::int64_t byteOffset() const { return m_byteOffset; }

private:
    std::int64_t m_byteOffset;
};

// Called about every event batch; return false to cancel.
using TickFn = std::function<bool()>;

// Fills out (path is used for rank guessing only). Returns false when cancelled. Throws
// TraceError for malformed or truncated JSON and for JSON that is not a Kineto/Chrome trace;
// read errors of the stream (corrupt gzip) are rethrown as TraceError at the offset reached.
bool readKinetoTrace(std::istream& in, TraceData& out, const TickFn& tick = {}, std::size_t chunkBytes = 4 << 20);

// Parses a JSON number token in microseconds ("123", "4458676983543.183", "1.5e3") into integer
// nanoseconds without going through a double for the integer part (epoch-based microsecond
// stamps exceed double's nanosecond precision).
bool parseMicrosToNs(std::string_view token, std::int64_t& ns);
} // namespace rl::trace
