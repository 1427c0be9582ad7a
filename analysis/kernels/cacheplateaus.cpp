#include "kernels/cacheplateaus.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rl::kernels {
namespace {
struct Pt
{
    double x; // log2 bytes
    double y; // ln GB/s
    const MemBwPoint* p;
};

struct Segment
{
    std::size_t begin; // [begin, end) into the sorted points
    std::size_t end;
};

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Optimal split of y into k constant pieces (least squares), for every k up to kMax.
std::vector<std::vector<Segment>> segmentations(const std::vector<Pt>& pts, std::size_t kMax, std::vector<double>& sse)
{
    const std::size_t n = pts.size();
    std::vector<double> s1(n + 1, 0), s2(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i) {
        s1[i + 1] = s1[i] + pts[i].y;
        s2[i + 1] = s2[i] + pts[i].y * pts[i].y;
    }
    auto cost = [&](std::size_t a, std::size_t b) { // [a, b)
        const double m = static_cast<double>(b - a);
        const double s = s1[b] - s1[a];
        return std::max(0.0, (s2[b] - s2[a]) - s * s / m);
    };
    const double inf = std::numeric_limits<double>::infinity();
    // best[k][j]: cost of the first j points in k segments; from[k][j]: where the last one starts.
    std::vector<std::vector<double>> best(kMax + 1, std::vector<double>(n + 1, inf));
    std::vector<std::vector<std::size_t>> from(kMax + 1, std::vector<std::size_t>(n + 1, 0));
    best[0][0] = 0;
    for (std::size_t k = 1; k <= kMax; ++k)
        for (std::size_t j = k; j <= n; ++j)
            for (std::size_t i = k - 1; i < j; ++i)
                if (best[k - 1][i] < inf && best[k - 1][i] + cost(i, j) < best[k][j]) {
                    best[k][j] = best[k - 1][i] + cost(i, j);
                    from[k][j] = i;
                }
    std::vector<std::vector<Segment>> out(kMax + 1);
    sse.assign(kMax + 1, inf);
    for (std::size_t k = 1; k <= kMax; ++k) {
        sse[k] = best[k][n];
        std::size_t j = n;
        for (std::size_t kk = k; kk >= 1; --kk) {
            const std::size_t i = from[kk][j];
            out[k].insert(out[k].begin(), {i, j});
            j = i;
        }
    }
    return out;
}

std::string levelName(std::size_t index, std::size_t count)
{
    if (count > 1 && index + 1 == count)
        return "DRAM";
    return "L" + std::to_string(index + 1);
}
} // namespace

double effectiveCapacity(const CacheLevel& cache, int threads)
{
    const int sharing = std::max(1, cache.sharedByCpus);
    const int instances = std::max(1, (threads + sharing - 1) / sharing);
    return static_cast<double>(cache.sizeBytes) * instances;
}

std::vector<MemCeiling> detectPlateaus(const std::vector<MemBwPoint>& points, const std::vector<CacheLevel>& caches,
                                       const PlateauOptions& options)
{
    std::vector<Pt> pts;
    for (const auto& p : points)
        if (p.kernel == options.kernel && p.threads == options.threads && p.bytes > 0 && p.bandwidthGBs > 0)
            pts.push_back({std::log2(static_cast<double>(p.bytes)), std::log(p.bandwidthGBs), &p});
    std::sort(pts.begin(), pts.end(), [](const Pt& a, const Pt& b) { return a.x < b.x; });
    if (pts.size() < 2)
        return {};

    // BIC over piecewise-constant fits; the variance floor (1 % noise) keeps a perfectly flat
    // synthetic curve from being split for nothing.
    const std::size_t n = pts.size();
    const std::size_t kMax = std::min<std::size_t>(8, n);
    std::vector<double> sse;
    const auto segs = segmentations(pts, kMax, sse);
    std::size_t bestK = 1;
    double bestBic = std::numeric_limits<double>::infinity();
    for (std::size_t k = 1; k <= kMax; ++k) {
        const double var = std::max(sse[k] / static_cast<double>(n), 1e-4);
        const double bic = static_cast<double>(n) * std::log(var) + (2.0 * k - 1.0) * std::log(static_cast<double>(n));
        if (bic < bestBic - 1e-9) {
            bestBic = bic;
            bestK = k;
        }
    }

    // Plateaus: segments of at least two points (single points are transitions), with their edge
    // points trimmed when long enough, since the edges still lean towards the neighbour level.
    struct Plateau
    {
        std::size_t begin, end;
        double bw;
    };
    std::vector<Plateau> plateaus;
    for (const auto& s : segs[bestK]) {
        const std::size_t len = s.end - s.begin;
        if (len < 2 && !(s.end == n && len == 1 && plateaus.size() > 0 && bestK > 1))
            continue;
        const std::size_t trim = len >= 5 ? 1 : 0;
        std::vector<double> bw;
        for (std::size_t i = s.begin + trim; i < s.end - trim; ++i)
            bw.push_back(pts[i].p->bandwidthGBs);
        // A slope between two levels is a segment too. With cache sizes known, slopes fold into
        // the level they are named after (below); without, flat means the middle half of the
        // points agree within 12 % (quartiles, so one noisy point does not disqualify a plateau).
        if (caches.empty() && bw.size() >= 2) {
            std::vector<double> sorted = bw;
            std::sort(sorted.begin(), sorted.end());
            const double q1 = sorted[sorted.size() / 4];
            const double q3 = sorted[(sorted.size() * 3) / 4 - (sorted.size() % 4 == 0 ? 1 : 0)];
            if (q3 > 1.12 * q1)
                continue;
        }
        plateaus.push_back({s.begin, s.end, median(bw)});
    }
    // Adjacent plateaus within the tolerance are one level split by noise.
    std::vector<Plateau> merged;
    for (const auto& p : plateaus) {
        if (!merged.empty() && std::abs(p.bw - merged.back().bw) <= options.mergeTolerance * std::max(p.bw, merged.back().bw)) {
            const auto& last = merged.back();
            std::vector<double> bw;
            for (std::size_t i = last.begin; i < p.end; ++i)
                bw.push_back(pts[i].p->bandwidthGBs);
            merged.back() = {last.begin, p.end, median(bw)};
        } else {
            merged.push_back(p);
        }
    }

    // A cache level is never slower than the memory beyond it: a plateau below a larger one is the
    // thread start-up cost on working sets of a few KiB split over threads, not a level.
    double fasterBeyond = 0;
    for (std::size_t i = merged.size(); i-- > 0;) {
        const double bw = merged[i].bw;
        if (bw < fasterBeyond)
            merged.erase(merged.begin() + static_cast<std::ptrdiff_t>(i));
        else
            fasterBeyond = bw;
    }

    // Name the levels: by the cache capacities when known, else by order.
    std::vector<double> capacities;
    for (const auto& c : caches)
        capacities.push_back(effectiveCapacity(c, options.threads));
    std::sort(capacities.begin(), capacities.end());
    std::vector<MemCeiling> out;
    for (std::size_t i = 0; i < merged.size(); ++i) {
        const auto& p = merged[i];
        MemCeiling c;
        c.kernel = options.kernel;
        c.threads = options.threads;
        c.fromBytes = pts[p.begin].p->bytes;
        c.toBytes = pts[p.end - 1].p->bytes;
        c.bandwidthGBs = p.bw;
        if (capacities.empty()) {
            c.level = levelName(i, merged.size());
        } else {
            const double center = std::sqrt(static_cast<double>(c.fromBytes) * static_cast<double>(c.toBytes));
            const auto it = std::lower_bound(capacities.begin(), capacities.end(), center);
            c.level = it == capacities.end() ? "DRAM"
                                             : "L" + std::to_string(caches.empty() ? 0 : (it - capacities.begin()) + 1);
        }
        // Two segments named alike: keep the one with more evidence (points).
        if (!out.empty() && out.back().level == c.level) {
            const auto& prev = merged[i - 1];
            if (p.end - p.begin > prev.end - prev.begin)
                out.back() = c;
            continue;
        }
        out.push_back(c);
    }
    return out;
}
} // namespace rl::kernels
