#include "collectives/routingmatrix.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>
#include <stdexcept>

#include "io/linereader.h"
#include "units/units.h"

namespace rl {
namespace {
std::vector<std::string_view> cells(std::string_view line)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ',' || line[i] == ';' || line[i] == ' ' || line[i] == '\t'))
            ++i;
        std::size_t j = i;
        while (j < line.size() && line[j] != ',' && line[j] != ';' && line[j] != ' ' && line[j] != '\t')
            ++j;
        if (j > i)
            out.push_back(line.substr(i, j - i));
        i = j;
    }
    return out;
}

std::optional<double> byteCell(std::string_view cell)
{
    if (auto b = units::parseBytes(cell))
        return double(*b);
    return units::parseDouble(cell);
}
} // namespace

double RoutingMatrix::rowSum(int rank) const
{
    double s = 0;
    for (int j = 0; j < n; ++j)
        s += at(rank, j);
    return s;
}

double RoutingMatrix::columnSum(int rank) const
{
    double s = 0;
    for (int i = 0; i < n; ++i)
        s += at(i, rank);
    return s;
}

double RoutingMatrix::total() const { return std::accumulate(bytes.begin(), bytes.end(), 0.0); }

double loadImbalance(const RoutingMatrix& m)
{
    const double mean = m.n > 0 ? m.total() / m.n : 0.0;
    if (!(mean > 0))
        return 0.0;
    double worst = 0;
    for (int r = 0; r < m.n; ++r)
        worst = std::max({worst, m.rowSum(r), m.columnSum(r)});
    return worst / mean;
}

RoutingMatrix parseRoutingCsv(std::istream& in)
{
    std::vector<std::vector<double>> rows;
    std::string line;
    int lineNo = 0;
    bool firstDataLine = true;
    while (std::getline(in, line)) {
        ++lineNo;
        const std::string_view t = io::trim(line);
        if (t.empty() || t.front() == '#')
            continue;
        auto c = cells(t);
        const bool header = firstDataLine && !c.empty() && !byteCell(c.front()) && !byteCell(c.back());
        firstDataLine = false;
        if (header)
            continue;
        if (!c.empty() && !byteCell(c.front()))
            c.erase(c.begin()); // a label column ("rank0", "node-a")
        std::vector<double> row;
        for (auto cell : c) {
            const auto v = byteCell(cell);
            if (!v || !std::isfinite(*v) || *v < 0)
                throw std::invalid_argument("routing matrix line " + std::to_string(lineNo) + ": \"" + std::string(cell) +
                                            "\" is not a byte count");
            row.push_back(*v);
        }
        if (!rows.empty() && row.size() != rows.front().size())
            throw std::invalid_argument("routing matrix line " + std::to_string(lineNo) + " has " +
                                        std::to_string(row.size()) + " values, the first row " +
                                        std::to_string(rows.front().size()));
        rows.push_back(std::move(row));
    }
    if (rows.empty())
        throw std::invalid_argument("routing matrix: no rows");
    if (rows.size() != rows.front().size())
        throw std::invalid_argument("routing matrix: " + std::to_string(rows.size()) + " rows of " +
                                    std::to_string(rows.front().size()) + " values; it must be square (rank x rank)");
    RoutingMatrix m;
    m.n = int(rows.size());
    for (const auto& r : rows)
        m.bytes.insert(m.bytes.end(), r.begin(), r.end());
    if (!(m.total() > 0))
        throw std::invalid_argument("routing matrix: every entry is 0");
    return m;
}

void parseSkew(std::string_view text, MoeRouting& moe)
{
    if (text == "uniform") {
        moe.skew = MoeRouting::Skew::Uniform;
        return;
    }
    if (text.starts_with("zipf:")) {
        const auto s = units::parseDouble(text.substr(5));
        if (!s || !std::isfinite(*s) || *s < 0)
            throw std::invalid_argument("--moe-skew zipf:S needs an exponent >= 0, not \"" + std::string(text) + "\"");
        moe.skew = MoeRouting::Skew::Zipf;
        moe.zipfExponent = *s;
        return;
    }
    if (text.starts_with("hist:")) {
        const std::string path(text.substr(5));
        std::ifstream f(path);
        if (!f)
            throw std::invalid_argument("--moe-skew: cannot read the expert-load histogram " + path);
        moe.histogram.clear();
        std::string line;
        while (std::getline(f, line)) {
            const std::string_view t = io::trim(line);
            if (t.empty() || t.front() == '#')
                continue;
            for (auto cell : cells(t)) {
                const auto v = units::parseDouble(cell);
                if (!v || !std::isfinite(*v) || *v < 0)
                    throw std::invalid_argument(path + ": \"" + std::string(cell) + "\" is not an expert load");
                moe.histogram.push_back(*v);
            }
        }
        moe.skew = MoeRouting::Skew::Histogram;
        return;
    }
    throw std::invalid_argument("--moe-skew takes uniform, zipf:S or hist:FILE, not \"" + std::string(text) + "\"");
}

std::vector<double> expertShares(const MoeRouting& moe)
{
    if (moe.experts < 1)
        throw std::invalid_argument("--moe-experts must be at least 1");
    std::vector<double> w(std::size_t(moe.experts), 1.0);
    if (moe.skew == MoeRouting::Skew::Zipf)
        for (int e = 0; e < moe.experts; ++e)
            w[std::size_t(e)] = 1.0 / std::pow(double(e + 1), moe.zipfExponent);
    if (moe.skew == MoeRouting::Skew::Histogram) {
        if (moe.histogram.size() != std::size_t(moe.experts))
            throw std::invalid_argument("the expert-load histogram has " + std::to_string(moe.histogram.size()) +
                                        " values for " + std::to_string(moe.experts) + " experts");
        w = moe.histogram;
    }
    const double sum = std::accumulate(w.begin(), w.end(), 0.0);
    if (!(sum > 0))
        throw std::invalid_argument("the expert loads sum to 0");
    for (auto& v : w)
        v /= sum;
    return w;
}

RoutingMatrix moeRoutingMatrix(const MoeRouting& moe, int nranks)
{
    if (nranks < 1)
        throw std::invalid_argument("no ranks");
    if (moe.experts % nranks != 0)
        throw std::invalid_argument(std::to_string(moe.experts) + " experts do not divide evenly over " +
                                    std::to_string(nranks) + " ranks (expert parallel size = ranks)");
    if (moe.topK < 1 || moe.topK > moe.experts)
        throw std::invalid_argument("--moe-topk must be between 1 and the number of experts");
    if (moe.tokensPerRank < 1 || moe.bytesPerToken < 1)
        throw std::invalid_argument("--moe-tokens and the bytes per token must be at least 1");
    const auto shares = expertShares(moe);
    const int perRank = moe.experts / nranks;
    std::vector<double> rankShare(std::size_t(nranks), 0.0);
    for (int e = 0; e < moe.experts; ++e)
        rankShare[std::size_t(e / perRank)] += shares[std::size_t(e)];
    RoutingMatrix m;
    m.n = nranks;
    m.bytes.resize(std::size_t(nranks) * std::size_t(nranks));
    const double copies = double(moe.tokensPerRank) * moe.topK * double(moe.bytesPerToken);
    for (int i = 0; i < nranks; ++i)
        for (int j = 0; j < nranks; ++j)
            m.bytes[std::size_t(i) * std::size_t(nranks) + std::size_t(j)] = copies * rankShare[std::size_t(j)];
    return m;
}

double routingScale(const RoutingMatrix& m, std::int64_t requestedBytes)
{
    const double mean = m.n > 0 ? m.total() / m.n : 0.0;
    return mean > 0 ? double(requestedBytes) / mean : 0.0;
}

std::int64_t pairElements(const RoutingMatrix& m, double scale, int elemSize, int from, int to)
{
    return std::llround(m.at(from, to) * scale / std::max(elemSize, 1));
}

RankCounts rankCounts(const RoutingMatrix& m, double scale, int elemSize, int rank)
{
    RankCounts c;
    const auto n = std::size_t(m.n);
    c.sendCounts.resize(n);
    c.sendDispls.resize(n);
    c.recvCounts.resize(n);
    c.recvDispls.resize(n);
    std::int64_t sendAt = 0, recvAt = 0;
    for (int q = 0; q < m.n; ++q) {
        const auto s = pairElements(m, scale, elemSize, rank, q), r = pairElements(m, scale, elemSize, q, rank);
        c.sendCounts[std::size_t(q)] = int(s);
        c.sendDispls[std::size_t(q)] = int(sendAt);
        c.recvCounts[std::size_t(q)] = int(r);
        c.recvDispls[std::size_t(q)] = int(recvAt);
        sendAt += s;
        recvAt += r;
    }
    return c;
}

RoutingMatrix scaledMatrix(const RoutingMatrix& m, double scale, int elemSize)
{
    RoutingMatrix out;
    out.n = m.n;
    out.bytes.resize(m.bytes.size());
    for (int i = 0; i < m.n; ++i)
        for (int j = 0; j < m.n; ++j)
            out.bytes[std::size_t(i) * std::size_t(m.n) + std::size_t(j)] =
                double(pairElements(m, scale, elemSize, i, j) * elemSize);
    return out;
}
} // namespace rl
