#pragma once
// CSV reading and writing over libcsv, shared by every CSV import and export. Rows carry the line
// they start on so importers can name it in warnings (quoted fields may span lines).
#include <cstdint>
#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "records/importresult.h"

namespace rl::io {

struct CsvRow
{
    std::vector<std::string> fields;
    SourceLocation where; // line and byte offset where the row starts
};

class CsvReader
{
public:
    explicit CsvReader(std::istream& in, char delimiter = ',');
    ~CsvReader();
    CsvReader(const CsvReader&) = delete;
    CsvReader& operator=(const CsvReader&) = delete;

    // Next non-blank row; false at the end. Throws std::runtime_error("line N: reason") for
    // malformed quoting, including a quoted field left open at the end of the input.
    bool next(CsvRow& row);
    std::int64_t bytesRead() const;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

// The field as it must appear in a CSV file: quoted (by libcsv) only when it holds the delimiter,
// a quote, a line break or leading/trailing blanks.
std::string csvField(std::string_view field, char delimiter = ',');
void writeCsvRow(std::ostream& out, const std::vector<std::string>& fields, char delimiter = ',');
// A text cell from a user or a file (session title, host, model or kernel name): one that starts
// with =, +, -, @, a tab or a carriage return gets a leading ' so that a spreadsheet shows it as
// text instead of running it as a formula ("=cmd|' /C calc'!A0"; OWASP's CSV injection advice).
// Only for text: numbers we format ourselves ("-1.5") go through csvNumber and stay numbers.
std::string csvText(std::string_view text);
// A number as a CSV cell: 10 significant digits, shortest form ("0.25", "1.5e+09").
std::string csvNumber(double v);
} // namespace rl::io
