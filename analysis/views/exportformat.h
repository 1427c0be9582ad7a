#pragma once
// The one rule for what an exported file is, by its suffix: the GUI's chart export, its "Export
// data", ridgeline-cli's export, moe-sweep and checkpoint all ask here, so "x.png" is an image and
// "x.csv" the chart's data everywhere.
#include <optional>
#include <string>

namespace rl::views {

enum class ExportFormat { Png, Svg, Pdf, Csv };

// By the suffix, case-insensitive; none for any other suffix or none at all.
std::optional<ExportFormat> exportFormatFor(const std::string& path);
bool isImageFormat(ExportFormat format); // PNG, SVG or PDF
const char* suffixOf(ExportFormat format); // "png", "svg", "pdf", "csv"

// path written as format: kept when its suffix already says so, the suffix replaced when it names
// another export format ("x.png" as CSV is "x.csv"), appended otherwise ("run.v2" -> "run.v2.csv").
std::string withExportSuffix(const std::string& path, ExportFormat format);

// What to say for a path of no known format: "cannot tell the format of 'x.txt': use .png, .svg,
// .pdf or .csv".
std::string unknownExportFormat(const std::string& path);
} // namespace rl::views
