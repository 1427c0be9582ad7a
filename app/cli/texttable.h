#pragma once
// Aligned plain-text tables for terminal output: numbers right-aligned, text left-aligned.
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

namespace rl::cli {
class TextTable
{
public:
    explicit TextTable(std::vector<std::string> header) : m_header(std::move(header)) {}
    void addRow(std::vector<std::string> row) { m_rows.push_back(std::move(row)); }
    void print(std::ostream& out) const;

private:
    std::vector<std::string> m_header;
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
