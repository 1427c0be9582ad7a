#pragma once
// Reads text line by line, tracking line numbers and byte offsets for error messages, and strips
// the prefixes launchers put in front of program output.
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>

#include "records/importresult.h"

namespace rl::io {

class LineReader
{
public:
    explicit LineReader(std::istream& in) : m_in(in) {}
    // Next line without its end-of-line (CR too); false at the end.
    bool next(std::string& line);
    // Where the line last returned by next() starts.
    SourceLocation location() const { return {m_lineNo, m_lineStart}; }
    std::int64_t bytesRead() const { return m_offset; }

private:
    std::istream& m_in;
    std::int64_t m_lineNo = 0;
    std::int64_t m_lineStart = 0;
    std::int64_t m_offset = 0;
};

// Removes "[1,0]<stdout>:" (Open MPI --tag-output), "[0] " / "0: " (srun -l, MPICH -l),
// "pod-name | " (kubectl / launcher logs) and an ISO timestamp prefix; returns the rest.
std::string_view stripLauncherPrefix(std::string_view line);

// Splits on runs of whitespace.
std::vector<std::string_view> splitWhitespace(std::string_view line);
// Splits on every separator (an empty field between two), each field trimmed; no quoting.
std::vector<std::string_view> splitFields(std::string_view line, char separator);
// ASCII lower case, for matching the names tools print in either case.
std::string lowerAscii(std::string_view s);
std::string_view trim(std::string_view s);
// True when the text looks like binary junk (NUL bytes or mostly non-printable).
bool looksBinary(std::string_view head);
} // namespace rl::io
