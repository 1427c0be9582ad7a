#pragma once
// How every chart ridgeline-cli writes reaches its file (export --chart, moe-sweep -o, checkpoint
// -o): the format by the suffix (views/exportformat.h, the GUI's rule too), the data as CSV here
// in any build, the image through chartimages.h (the Qt build; a build without Qt says so), and
// one --width/--height for every image.
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

namespace rl::cli {

struct ImageSize
{
    int width = 1200;
    int height = 800;
};

// --width and --height in pixels, with the ranges every image export accepts.
void addImageSizeOptions(CLI::App* command, ImageSize& size);

// .csv writes csv() atomically; .png/.svg/.pdf runs drawImage(); any other suffix throws naming
// the four.
void writeChartOutput(const std::string& path, const std::function<std::string()>& csv,
                      const std::function<void()>& drawImage);
} // namespace rl::cli
