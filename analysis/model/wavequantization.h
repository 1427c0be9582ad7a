#pragma once
// Wave quantisation of a GEMM on a device with `computeUnits` CUs/SMs: the output is cut into
// tm x tn tiles, each CU works one tile at a time, so the last wave may leave CUs idle.
//   tiles = ceil(M/tm)·ceil(N/tn), waves = ceil(tiles/CUs), efficiency = tiles/(waves·CUs)
// Partial tiles at the matrix edge also waste work: tileEfficiency = M·N / (tiles·tm·tn).
#include <cstdint>

namespace rl::model {

struct WaveQuantization
{
    std::int64_t tiles = 0;
    std::int64_t waves = 0;
    double waveEfficiency = 1;  // tiles / (waves·CUs)
    double tileEfficiency = 1;  // useful fraction of the tiles' area
    double efficiency() const { return waveEfficiency * tileEfficiency; }
    double loss() const { return 1 - efficiency(); }
};

struct TileShape
{
    int tm = 256;
    int tn = 256;
};

WaveQuantization waveQuantization(std::int64_t m, std::int64_t n, int computeUnits, TileShape tile = {});
} // namespace rl::model
