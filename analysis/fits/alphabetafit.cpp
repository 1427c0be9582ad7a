#include "fits/alphabetafit.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Dense>

namespace rl::fits {

std::optional<AlphaBeta> fitAlphaBeta(const std::vector<SizeTime>& samples)
{
    std::vector<SizeTime> s;
    s.reserve(samples.size());
    // The smallest and largest size: a fit needs two different ones (a set of the sizes cost 15-20
    // ms a chart of a 1 M-point session).
    double smallest = HUGE_VAL, largest = -HUGE_VAL;
    for (const auto& x : samples)
        if (x.timeUs > 0 && std::isfinite(x.timeUs) && x.bytes > 0 && std::isfinite(x.bytes)) {
            s.push_back(x);
            smallest = std::min(smallest, x.bytes);
            largest = std::max(largest, x.bytes);
        }
    if (s.empty() || smallest == largest)
        return std::nullopt;
    const Eigen::Index n = static_cast<Eigen::Index>(s.size());
    // Weighted rows: (1/t) * [1, bytes] * [alpha, c]^T = 1, with c = 1/(beta·1e3) µs per byte.
    Eigen::MatrixXd A(n, 2);
    Eigen::VectorXd b = Eigen::VectorXd::Ones(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const double w = 1.0 / s[static_cast<std::size_t>(i)].timeUs;
        A(i, 0) = w;
        A(i, 1) = w * s[static_cast<std::size_t>(i)].bytes;
    }
    // Column scaling keeps the problem well conditioned when bytes span 8 B .. 16 GiB.
    const Eigen::Vector2d scale(1.0 / A.col(0).norm(), 1.0 / std::max(A.col(1).norm(), 1e-300));
    const Eigen::MatrixXd As = A * scale.asDiagonal();
    const Eigen::Vector2d xs = As.colPivHouseholderQr().solve(b);
    const Eigen::Vector2d x = scale.cwiseProduct(xs);

    AlphaBeta r;
    r.alphaUs = std::max(0.0, x(0));
    r.betaGBs = x(1) > 0 ? 1.0 / (x(1) * 1e3) : 0.0;
    r.points = static_cast<int>(n);
    double sq = 0;
    for (const auto& p : s) {
        const double rel = (r.timeUs(p.bytes) - p.timeUs) / p.timeUs;
        sq += rel * rel;
    }
    r.rmsRelError = std::sqrt(sq / static_cast<double>(n));
    r.minBytes = static_cast<std::int64_t>(smallest);
    r.maxBytes = static_cast<std::int64_t>(largest);
    return r;
}

void FitSums::add(double bytes, double timeUs)
{
    if (!(timeUs > 0 && std::isfinite(timeUs) && bytes > 0 && std::isfinite(bytes)))
        return;
    const double w1 = 1.0 / timeUs;
    ++points;
    w += w1;
    nw += bytes * w1;
    ww += w1 * w1;
    nww += bytes * w1 * w1;
    nnww += bytes * bytes * w1 * w1;
    smallest = std::min(smallest, bytes);
    largest = std::max(largest, bytes);
}

FitSums& FitSums::operator+=(const FitSums& o)
{
    points += o.points;
    w += o.w;
    nw += o.nw;
    ww += o.ww;
    nww += o.nww;
    nnww += o.nnww;
    smallest = std::min(smallest, o.smallest);
    largest = std::max(largest, o.largest);
    return *this;
}

std::optional<AlphaBeta> fitAlphaBetaFromSums(const FitSums& s)
{
    if (s.points == 0 || !(s.largest > s.smallest))
        return std::nullopt;
    // The scaling fitAlphaBeta gives its columns (1 / each column's norm): the normal matrix then
    // has a unit diagonal, so its condition is that of the rows' two directions.
    const double a = 1.0 / std::sqrt(s.ww), b = 1.0 / std::sqrt(s.nnww);
    const double off = s.nww * a * b;
    const double det = 1.0 - off * off;
    if (!(det > 0))
        return std::nullopt;
    const double r0 = s.w * a, r1 = s.nw * b;
    const double alpha = (r0 - off * r1) / det * a;
    const double c = (r1 - off * r0) / det * b;

    AlphaBeta r;
    r.alphaUs = std::max(0.0, alpha);
    r.betaGBs = c > 0 ? 1.0 / (c * 1e3) : 0.0;
    r.points = static_cast<int>(s.points);
    // sum of (alpha·w + c'·n·w - 1)^2 with the alpha and c' drawn (alpha clamped at 0, c' of beta)
    const double al = r.alphaUs, cc = r.betaGBs > 0 ? 1.0 / (r.betaGBs * 1e3) : 0.0;
    const double sq = al * al * s.ww + 2 * al * cc * s.nww + cc * cc * s.nnww - 2 * al * s.w - 2 * cc * s.nw +
                      static_cast<double>(s.points);
    r.rmsRelError = std::sqrt(std::max(0.0, sq) / static_cast<double>(s.points));
    r.minBytes = static_cast<std::int64_t>(s.smallest);
    r.maxBytes = static_cast<std::int64_t>(s.largest);
    return r;
}

std::optional<AlphaBeta> fitCollective(std::span<const CollectivePoint> points, const std::string& op,
                                       bool inPlace, std::int64_t minBytes, std::int64_t maxBytes, int nranks)
{
    std::vector<SizeTime> s;
    for (const auto& p : points)
        if (p.op == op && p.inPlace == inPlace && p.bytes >= minBytes && p.bytes <= maxBytes &&
            (nranks == 0 || p.nranks == nranks))
            s.push_back({static_cast<double>(p.bytes), p.timeUs});
    return fitAlphaBeta(s);
}
} // namespace rl::fits
