#include "tools/gemmrecipes.h"

#include <cmath>
#include <stdexcept>

#include "model/gemmlist.h"
#include "units/units.h"

namespace rl::tools {

std::vector<GemmShape> squareSweep(std::int64_t from, std::int64_t to)
{
    if (from < 1 || to < from)
        throw std::invalid_argument("square sweep: need 1 <= from <= to");
    std::vector<GemmShape> out;
    for (std::int64_t s = from; s <= to; s *= 2)
        out.push_back({s, s, s, 1, "N", "N", "square"});
    return out;
}

std::vector<GemmShape> maxAchievableShapes(int cus, const std::vector<int>& waves)
{
    if (cus < 1)
        throw std::invalid_argument("max-achievable recipe: the CU count must be at least 1");
    constexpr std::int64_t tile = 256, k = 8192;
    std::vector<GemmShape> out;
    for (int w : waves) {
        const std::int64_t tiles = std::int64_t(cus) * w;
        // The factor pair of tiles closest to square: M and N of similar size keep both operands' reuse.
        std::int64_t a = static_cast<std::int64_t>(std::sqrt(double(tiles)));
        while (a > 1 && tiles % a != 0)
            --a;
        const std::int64_t b = tiles / a;
        out.push_back({tile * b, tile * a, k, 1, "N", "T",
                       std::to_string(w) + (w == 1 ? " wave" : " waves") + " of 256x256 tiles on " + std::to_string(cus) + " CUs"});
    }
    return out;
}

std::vector<GemmShape> modelStepShapes(const model::ModelConfig& c, const model::ParallelConfig& p)
{
    std::vector<GemmShape> out;
    for (const auto& g : model::stepGemms(c, p)) {
        GemmShape s{std::llround(g.m), std::llround(g.n), std::llround(g.k), std::max<std::int64_t>(1, std::llround(g.batch)),
                    "N", "N", std::string(g.name) + " " + model::toString(g.pass)};
        if (s.m < 1 || s.n < 1 || s.k < 1)
            continue;
        bool seen = false;
        for (const auto& o : out)
            seen = seen || o == s;
        if (!seen)
            out.push_back(std::move(s));
    }
    return out;
}

GemmShape parseShape(const std::string& text)
{
    GemmShape s;
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t x; (x = text.find_first_of("xX", start)) != std::string::npos; start = x + 1)
        parts.push_back(text.substr(start, x - start));
    parts.push_back(text.substr(start));
    if (parts.size() == 4 && parts[3].size() == 2) {
        s.transA = std::string(1, char(std::toupper(static_cast<unsigned char>(parts[3][0]))));
        s.transB = std::string(1, char(std::toupper(static_cast<unsigned char>(parts[3][1]))));
        parts.pop_back();
    }
    const bool transOk = (s.transA == "N" || s.transA == "T") && (s.transB == "N" || s.transB == "T");
    if (parts.size() != 3 || !transOk)
        throw std::invalid_argument("GEMM shape '" + text + "': expected MxNxK or MxNxKxTT, e.g. 4096x4096x8192 or 4096x4096x8192xNT");
    std::int64_t* dims[] = {&s.m, &s.n, &s.k};
    for (int i = 0; i < 3; ++i) {
        const auto v = units::parseInt(parts[std::size_t(i)]);
        if (!v || *v < 1)
            throw std::invalid_argument("GEMM shape '" + text + "': '" + parts[std::size_t(i)] + "' is not a positive size");
        *dims[i] = *v;
    }
    s.label = "given";
    return s;
}
} // namespace rl::tools
