#include "chartoutput.h"

#include <stdexcept>

#include "io/atomicfile.h"
#include "views/exportformat.h"

namespace rl::cli {

void addImageSizeOptions(CLI::App* command, ImageSize& size)
{
    command->add_option("--width", size.width, "Image width in pixels")->capture_default_str()->check(CLI::Range(200, 20000));
    command->add_option("--height", size.height, "Image height in pixels")->capture_default_str()->check(CLI::Range(150, 20000));
}

void writeChartOutput(const std::string& path, const std::function<std::string()>& csv,
                      const std::function<void()>& drawImage)
{
    const auto format = views::exportFormatFor(path);
    if (!format)
        throw std::runtime_error(views::unknownExportFormat(path));
    if (*format == views::ExportFormat::Csv)
        io::writeFileAtomically(path, csv());
    else
        drawImage();
}
} // namespace rl::cli
