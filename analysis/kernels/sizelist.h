#pragma once
// Parses the integer lists the kernel sweeps take on the command line:
//   "1024"  "128,256,512"  "1024:8192:64" (start:stop:step, stop included when hit)  "1:8" (step 1)
//   and comma-joined mixes of those. Sizes may carry binary suffixes ("4K", "1M").
#include <cstdint>
#include <string_view>
#include <vector>

namespace rl::kernels {
// Throws std::invalid_argument naming the bad part. At most maxValues values (guards "1:1e12").
std::vector<std::int64_t> parseIntList(std::string_view text, std::size_t maxValues = 1'000'000);
} // namespace rl::kernels
