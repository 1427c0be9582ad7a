#include "model/wavequantization.h"

#include <algorithm>

namespace rl::model {

WaveQuantization waveQuantization(std::int64_t m, std::int64_t n, int computeUnits, TileShape tile)
{
    WaveQuantization w;
    if (m <= 0 || n <= 0 || computeUnits <= 0 || tile.tm <= 0 || tile.tn <= 0)
        return w;
    const std::int64_t tilesM = (m + tile.tm - 1) / tile.tm;
    const std::int64_t tilesN = (n + tile.tn - 1) / tile.tn;
    w.tiles = tilesM * tilesN;
    w.waves = (w.tiles + computeUnits - 1) / computeUnits;
    w.waveEfficiency = double(w.tiles) / (double(w.waves) * computeUnits);
    w.tileEfficiency = double(m) * double(n) / (double(w.tiles) * tile.tm * tile.tn);
    return w;
}
} // namespace rl::model
