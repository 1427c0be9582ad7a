#pragma once
// Aligned plain-text tables for terminal output: numbers right-aligned, text left-aligned.
// A table of millions of rows is not held: its rows are measured on a first pass over them and
// printed on a second (measure, then printHeader and printRow).
#include <cmath>
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace rl::cli {
class TextTable
{
public:
    explicit TextTable(std::vector<std::string> header);
    void addRow(std::vector<std::string> row)
    {
        measure(row);
        m_rows.push_back(std::move(row));
    }
    void print(std::ostream& out) const;

    // Rows not held: widen the columns to a row's cells now, print it later.
    void measure(const std::vector<std::string>& row);
    void printHeader(std::ostream& out) const;
    void printRow(std::ostream& out, const std::vector<std::string>& row) const;
    // The table of some of the columns, in the order given, as wide as measured so far (rows
    // measured with every optional column, printed with the ones that turned out to be needed).
    TextTable columns(const std::vector<std::size_t>& which) const;

private:
    void printLine(std::ostream& out, const std::vector<std::string>& row, bool header) const;

    std::vector<std::string> m_header;
    std::vector<std::size_t> m_widths;
    std::vector<std::vector<std::string>> m_rows;
};

// A cell for a value that may be missing (NaN: the source did not record it).
template <typename Format>
std::string cellOrNa(double v, Format format)
{
    return std::isfinite(v) ? format(v) : "n/a";
}
std::string numberCell(double v, int significant = 4); // "%.4g", "n/a" for NaN
} // namespace rl::cli
