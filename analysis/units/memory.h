#pragma once
// Memory of a device or needed per GPU, in binary GiB. HBM is built and reported in binary sizes:
// nvidia-smi gives 81,559 MiB for an "80GB" H100, rocminfo 192 GiB for a "192 GB" MI300X. So a
// requirement is printed as nvidia-smi and rocm-smi show the device: "206.2 GiB", "192 GiB",
// "850 MiB". (Bandwidth stays decimal GB/s, as vendors and nccl-tests quote it: units.h.)
#include <string>

namespace rl::units {
std::string formatMemory(double bytes);
} // namespace rl::units
