#include "store/curveorderedpoints.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <queue>
#include <tuple>
#include <unistd.h>

#include "store/collectiveblock.h"
#include "store/database.h"

namespace rl::store {
namespace {
struct Key
{
    std::string_view op;
    bool inPlace = false;
    std::int64_t bytes = 0;
};

Key keyOf(std::string_view point)
{
    Key k;
    CollectiveBlockReader r(point);
    if (!r.readKey(k.op, k.inPlace, k.bytes)) // decoded once already, as it was read from its block
        throw StoreError("a collective point did not decode while its session was put in curve order");
    return k;
}

bool before(const Key& a, const Key& b) // string_view compares as bytes, as SQLite's BINARY does
{
    return std::tie(a.op, a.inPlace, a.bytes) < std::tie(b.op, b.inPlace, b.bytes);
}

std::string tempFolder()
{
    const char* dir = std::getenv("TMPDIR");
    return dir && *dir ? dir : "/tmp";
}

[[noreturn]] void failTemp(const std::string& what)
{
    throw StoreError(tempFolder() + ": cannot " + what + " a temporary file to put a long session in curve order (" +
                     std::strerror(errno) + "); set TMPDIR to a folder with room");
}

// A file in TMPDIR that is gone once closed (or if the process dies).
std::FILE* anonymousTempFile()
{
    std::string path = tempFolder() + "/ridgeline-curve-order-XXXXXX";
    const int fd = ::mkstemp(path.data());
    if (fd < 0)
        failTemp("create");
    ::unlink(path.c_str());
    std::FILE* f = ::fdopen(fd, "w+b");
    if (!f) {
        ::close(fd);
        failTemp("open");
    }
    std::setvbuf(f, nullptr, _IOFBF, std::size_t(256) << 10);
    return f;
}
} // namespace

CurveOrderedPoints::CurveOrderedPoints(std::size_t runBytes)
    : m_runBytes(std::clamp<std::size_t>(runBytes, 1, std::size_t(1) << 31))
{
}

CurveOrderedPoints::~CurveOrderedPoints() = default;

void CurveOrderedPoints::add(std::string_view point)
{
    if (!m_run.empty() && m_run.size() + point.size() > m_runBytes)
        spill();
    m_starts.push_back(static_cast<std::uint32_t>(m_run.size()));
    m_run.append(point);
}

std::vector<std::string_view> CurveOrderedPoints::orderedRun() const
{
    std::vector<std::string_view> points(m_starts.size());
    std::vector<Key> keys(m_starts.size());
    for (std::size_t i = 0; i < m_starts.size(); ++i) {
        const std::size_t end = i + 1 < m_starts.size() ? m_starts[i + 1] : m_run.size();
        points[i] = std::string_view(m_run).substr(m_starts[i], end - m_starts[i]);
        keys[i] = keyOf(points[i]);
    }
    std::vector<std::uint32_t> order(m_starts.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&keys](auto a, auto b) { return before(keys[a], keys[b]); });
    std::vector<std::string_view> out;
    out.reserve(order.size());
    for (auto i : order)
        out.push_back(points[i]);
    return out;
}

// The current run, in curve order, to a file of its own: each point as a u32 length and its bytes.
void CurveOrderedPoints::spill()
{
    std::unique_ptr<std::FILE, FileCloser> file(anonymousTempFile());
    for (std::string_view p : orderedRun()) {
        const auto n = static_cast<std::uint32_t>(p.size());
        if (std::fwrite(&n, sizeof n, 1, file.get()) != 1 || std::fwrite(p.data(), 1, p.size(), file.get()) != p.size())
            failTemp("write");
    }
    if (std::fflush(file.get()) != 0)
        failTemp("write");
    std::rewind(file.get());
    m_files.push_back(std::move(file));
    m_run.clear();
    m_starts.clear();
}

void CurveOrderedPoints::visit(const std::function<bool(std::string_view)>& visit)
{
    if (m_files.empty()) { // one run: in memory
        for (std::string_view p : orderedRun())
            if (!visit(p))
                return;
        return;
    }
    if (!m_starts.empty())
        spill();
    // Each run's next point, never moved (its key looks into its bytes); the heap holds run numbers.
    struct Head
    {
        std::string bytes;
        Key key;
    };
    std::vector<Head> heads(m_files.size());
    const auto readNext = [&](std::size_t run) {
        std::uint32_t n = 0;
        std::FILE* f = m_files[run].get();
        if (std::fread(&n, sizeof n, 1, f) != 1) {
            if (std::ferror(f))
                failTemp("read");
            return false; // the run is done
        }
        heads[run].bytes.resize(n);
        if (std::fread(heads[run].bytes.data(), 1, n, f) != n)
            failTemp("read");
        heads[run].key = keyOf(heads[run].bytes);
        return true;
    };
    const auto later = [&heads](std::size_t a, std::size_t b) { // equal keys: the earlier run first
        return before(heads[b].key, heads[a].key) || (!before(heads[a].key, heads[b].key) && a > b);
    };
    std::priority_queue<std::size_t, std::vector<std::size_t>, decltype(later)> next(later);
    for (std::size_t run = 0; run < m_files.size(); ++run)
        if (readNext(run))
            next.push(run);
    while (!next.empty()) {
        const std::size_t run = next.top();
        next.pop();
        if (!visit(heads[run].bytes))
            return;
        if (readNext(run))
            next.push(run);
    }
}
} // namespace rl::store
