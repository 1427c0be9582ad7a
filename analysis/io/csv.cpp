#include "io/csv.h"

#include <deque>
#include <sstream>
#include <stdexcept>

#include <csv.h>

#include "io/linereader.h"

namespace rl::io {

struct CsvReader::State
{
    explicit State(std::istream& in) : lines(in) {}
    LineReader lines;
    csv_parser parser{};
    std::deque<CsvRow> ready;
    CsvRow building;
    bool needStart = true; // the next line fed starts a row
    bool finished = false;
    SourceLocation lineAt;
    SourceLocation rowAt;

    static void onField(void* data, std::size_t len, void* self)
    {
        auto* s = static_cast<State*>(self);
        s->building.fields.emplace_back(data ? static_cast<const char*>(data) : "", data ? len : 0);
    }
    static void onRowEnd(int, void* self)
    {
        auto* s = static_cast<State*>(self);
        // libcsv reports a blank line as a row without fields; those carry nothing.
        if (!s->building.fields.empty()) {
            s->building.where = s->rowAt;
            s->ready.push_back(std::move(s->building));
        }
        s->building = {};
        s->needStart = true;
    }
};

CsvReader::CsvReader(std::istream& in, char delimiter) : m_state(std::make_unique<State>(in))
{
    if (csv_init(&m_state->parser, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
        throw std::runtime_error("cannot initialise the CSV parser");
    csv_set_delim(&m_state->parser, static_cast<unsigned char>(delimiter));
}

CsvReader::~CsvReader() { csv_free(&m_state->parser); }

std::int64_t CsvReader::bytesRead() const { return m_state->lines.bytesRead(); }

bool CsvReader::next(CsvRow& row)
{
    State& s = *m_state;
    std::string line;
    while (s.ready.empty() && !s.finished) {
        if (!s.lines.next(line)) {
            s.finished = true;
            if (csv_fini(&s.parser, State::onField, State::onRowEnd, &s) != 0)
                throw std::runtime_error("line " + std::to_string(s.rowAt.line) +
                                         ": quoted field is never closed (truncated file?)");
            break;
        }
        // Fed line by line so a row knows the line it started on.
        s.lineAt = s.lines.location();
        if (s.needStart && line.empty())
            continue; // blank line between rows
        if (s.needStart) {
            s.rowAt = s.lineAt;
            s.needStart = false;
        }
        line += '\n';
        if (csv_parse(&s.parser, line.data(), line.size(), State::onField, State::onRowEnd, &s) != line.size())
            throw std::runtime_error("line " + std::to_string(s.lineAt.line) + ": " +
                                     csv_strerror(csv_error(&s.parser)));
    }
    if (s.ready.empty())
        return false;
    row = std::move(s.ready.front());
    s.ready.pop_front();
    return true;
}

std::string csvField(std::string_view field, char delimiter)
{
    const bool needsQuotes = field.find_first_of(std::string{delimiter, '"', '\n', '\r'}) != std::string_view::npos ||
                             (!field.empty() && (field.front() == ' ' || field.back() == ' '));
    if (!needsQuotes)
        return std::string(field);
    std::string out(field.size() * 2 + 2, '\0');
    out.resize(csv_write(out.data(), out.size(), field.data(), field.size()));
    return out;
}

void writeCsvRow(std::ostream& out, const std::vector<std::string>& fields, char delimiter)
{
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (i)
            out << delimiter;
        out << csvField(fields[i], delimiter);
    }
    out << '\n';
}
std::string csvText(std::string_view text)
{
    if (!text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos)
        return "'" + std::string(text);
    return std::string(text);
}

std::string csvNumber(double v)
{
    std::ostringstream s;
    s.precision(10);
    s << v;
    return s.str();
}
} // namespace rl::io
