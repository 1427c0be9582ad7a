#include "views/exportformat.h"

#include <cctype>

namespace rl::views {
namespace {
// The suffix after the last dot of the file name ("" without one), lower case.
std::string suffix(const std::string& path, std::size_t* dot = nullptr)
{
    const auto slash = path.find_last_of("/\\");
    const auto d = path.rfind('.');
    if (d == std::string::npos || (slash != std::string::npos && d < slash))
        return {};
    if (dot)
        *dot = d;
    std::string s = path.substr(d + 1);
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}
} // namespace

std::optional<ExportFormat> exportFormatFor(const std::string& path)
{
    const std::string s = suffix(path);
    for (auto f : {ExportFormat::Png, ExportFormat::Svg, ExportFormat::Pdf, ExportFormat::Csv})
        if (s == suffixOf(f))
            return f;
    return std::nullopt;
}

bool isImageFormat(ExportFormat format) { return format != ExportFormat::Csv; }

const char* suffixOf(ExportFormat format)
{
    switch (format) {
    case ExportFormat::Png: return "png";
    case ExportFormat::Svg: return "svg";
    case ExportFormat::Pdf: return "pdf";
    case ExportFormat::Csv: return "csv";
    }
    return "csv";
}

std::string withExportSuffix(const std::string& path, ExportFormat format)
{
    const auto known = exportFormatFor(path);
    if (known == format)
        return path;
    std::size_t dot = std::string::npos;
    suffix(path, &dot);
    return (known ? path.substr(0, dot) : path) + '.' + suffixOf(format);
}

std::string unknownExportFormat(const std::string& path)
{
    return "cannot tell the format of '" + path + "': use .png, .svg, .pdf or .csv";
}
} // namespace rl::views
