#include "store/parallelpoints.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <sqlite3.h>

#include "io/parallelfor.h"
#include "io/textbuffer.h"
#include "store/collectiveblock.h"
#include "store/collectiverows.h"
#include "store/curveorder.h"
#include "store/curveorderedpoints.h"
#include "store/database.h"
#include "store/workspace.h"

namespace rl::store {
namespace {
// A worker's formatted text: the points of one Work, below.
struct Piece
{
    std::string text;
    std::int64_t points = 0;
};

// What the workers and the writer share: the next piece to make, the pieces made and not yet
// written, and why everything stops early.
class PieceQueue
{
public:
    PieceQueue(std::int64_t pieces, std::int64_t window) : m_pieces(pieces), m_window(window) {}

    // The next piece to make, or -1 when there is none or the writer stopped. Waits while the
    // writer is `window` pieces behind, so memory stays bounded however slow the disk is.
    std::int64_t take()
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_stop || m_next >= m_pieces || m_next < m_written + m_window; });
        if (m_stop || m_next >= m_pieces)
            return -1;
        return m_next++;
    }
    void done(std::int64_t k, Piece b)
    {
        {
            std::lock_guard lock(m_mutex);
            m_done.emplace(k, std::move(b));
        }
        m_changed.notify_all();
    }
    void fail(std::exception_ptr e)
    {
        {
            std::lock_guard lock(m_mutex);
            if (!m_error)
                m_error = e;
            m_stop = true;
        }
        m_changed.notify_all();
    }
    void stop()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_changed.notify_all();
    }
    // Piece k once made; false when a worker failed.
    bool next(std::int64_t k, Piece& out)
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_error || m_done.count(k); });
        if (m_error)
            return false;
        auto it = m_done.find(k);
        out = std::move(it->second);
        m_done.erase(it);
        m_written = k + 1;
        lock.unlock();
        m_changed.notify_all();
        return true;
    }
    std::exception_ptr error()
    {
        std::lock_guard lock(m_mutex);
        return m_error;
    }

private:
    const std::int64_t m_pieces, m_window;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::int64_t m_next = 0, m_written = 0;
    std::map<std::int64_t, Piece> m_done;
    bool m_stop = false;
    std::exception_ptr m_error;
};

// Consecutive blocks one worker reads and formats at once.
struct Work
{
    std::size_t firstBlock = 0, endBlock = 0;
};

std::vector<Work> cutIntoWork(const std::vector<PointBlock>& blocks, std::int64_t workPoints)
{
    std::vector<Work> out;
    std::int64_t inWork = 0;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        if (out.empty() || inWork >= workPoints) {
            out.push_back({b, b});
            inWork = 0;
        }
        out.back().endBlock = b + 1;
        inWork += blocks[b].points;
    }
    return out;
}

// Other connections see only what is committed, and none sees an in-memory database's blocks.
bool otherConnectionsSeeIt(Workspace& ws)
{
    sqlite3* db = ws.database().handle();
    const char* file = sqlite3_db_filename(db, "main");
    return sqlite3_get_autocommit(db) != 0 && file && *file;
}
} // namespace

std::int64_t formatCollectivePoints(Workspace& ws, std::int64_t sessionId,
                                    const std::function<void(io::TextBuffer&, const CollectivePoint&)>& format,
                                    const std::function<bool(std::string_view)>& write, ParallelRead how)
{
    const bool parallel = otherConnectionsSeeIt(ws);
    const std::vector<PointBlock> blocks = collectivePointBlocks(ws.database(), sessionId);
    if (how.listed)
        how.listed();
    const std::vector<Work> work = cutIntoWork(blocks, how.workPoints);
    const auto formatWork = [&](Database& db, const Work& w, Piece& b) {
        std::ostringstream blockText;
        io::TextBuffer text(blockText);
        for (std::size_t k = w.firstBlock; k < w.endBlock; ++k)
            forEachCollectivePointInBlock(db, blocks[k], [&](const CollectivePoint& p) {
                format(text, p);
                ++b.points;
                return true;
            });
        text.flush();
        b.text = std::move(blockText).str();
    };
    std::int64_t written = 0;
    if (!parallel) { // on ws's own connection, a piece at a time
        for (const auto& w : work) {
            Piece b;
            formatWork(ws.database(), w, b);
            if (!write(b.text))
                break;
            written += b.points;
        }
        return written;
    }
    const auto pieces = static_cast<std::int64_t>(work.size());
    const int threads = static_cast<int>(std::min<std::int64_t>(workThreads(how.threads), pieces));
    PieceQueue queue(pieces, 2 * std::int64_t(threads));
    const auto worker = [&] {
        try {
            Workspace own(ws.path()); // a connection is used by one thread at a time
            for (std::int64_t k; (k = queue.take()) >= 0;) {
                Piece b;
                formatWork(own.database(), work[std::size_t(k)], b);
                queue.done(k, std::move(b));
            }
        } catch (...) {
            queue.fail(std::current_exception());
        }
    };
    std::vector<std::thread> workers;
    workers.reserve(std::size_t(threads));
    for (int i = 0; i < threads; ++i)
        workers.emplace_back(worker);
    Piece b;
    for (std::int64_t k = 0; k < pieces; ++k) {
        if (!queue.next(k, b) || !write(b.text))
            break;
        written += b.points;
    }
    queue.stop();
    for (auto& w : workers)
        w.join();
    if (const auto e = queue.error())
        std::rethrow_exception(e);
    return written;
}

std::vector<CollectivePoint> readCollectivePoints(Workspace& ws, std::int64_t sessionId, ParallelRead how)
{
    // The blocks' bytes, copied out on ws's own connection in one snapshot (a few hundred MB/s of
    // SQLite's work: reading them on other connections would save little), and where each point
    // starts in them.
    std::string bytes;
    std::vector<std::uint64_t> at;
    std::vector<std::size_t> placeOf;
    {
        ReadSnapshot snapshot(ws.database());
        const std::vector<PointBlock> blocks = collectivePointBlocks(ws.database(), sessionId);
        if (how.listed)
            how.listed();
        at.reserve(std::size_t(pointsIn(blocks)));
        std::int64_t total = 0;
        for (const auto& block : blocks)
            total += block.dataBytes;
        bytes.reserve(std::size_t(total)); // a running session's blocks may have grown: a few more
        prefaultInParallel(bytes.data(), bytes.capacity(), how.threads);
        CurveOrder order;
        const std::int64_t listed = pointsIn(blocks);
        for (const auto& block : blocks) {
            const std::size_t base = bytes.size();
            appendCollectiveBlockBytes(ws.database(), block, bytes);
            const std::string_view all(bytes);
            forEachEncodedPointInBytes(ws.path(), block, all.substr(base), [&](const EncodedPoint& point) {
                order.add(point.op, point.inPlace, point.size);
                at.push_back(std::uint64_t(point.bytes.data() - all.data()));
            });
            if (how.progress && !how.progress(std::int64_t(at.size()), 2 * listed))
                return {};
        }
        placeOf = std::move(order).slots();
    }
    // Each point decoded straight into its place, the places cut among the threads: reads of the
    // bytes jump, the writes run in order.
    std::vector<std::uint64_t> startOf(at.size());
    for (std::size_t i = 0; i < at.size(); ++i)
        startOf[placeOf[i]] = at[i];
    std::vector<std::uint64_t>().swap(at);
    std::vector<std::size_t>().swap(placeOf);
    std::vector<CollectivePoint> out;
    out.reserve(startOf.size());
    prefaultInParallel(out.data(), startOf.size() * sizeof(CollectivePoint), how.threads);
    out.resize(startOf.size());
    // Pieces of 64 Ki points: about 17 MB of points each.
    constexpr std::size_t piece = 65536;
    std::mutex reporting; // progress is told one piece at a time
    std::int64_t decoded = 0;
    std::atomic<bool> stopped{false};
    const auto total = std::int64_t(out.size());
    parallelFor((out.size() + piece - 1) / piece, [&](std::size_t k) {
        if (stopped)
            return;
        const std::size_t first = k * piece, end = std::min(out.size(), first + piece);
        for (std::size_t i = first; i < end; ++i) {
            CollectiveBlockReader r(std::string_view(bytes).substr(startOf[i]));
            r.read(out[i]); // decoded as far as its keys a moment ago: whole
        }
        if (how.progress) {
            std::lock_guard lock(reporting);
            decoded += std::int64_t(end - first);
            if (!how.progress(total + decoded, 2 * total))
                stopped = true;
        }
    }, how.threads);
    if (stopped)
        return {};
    return out;
}

void forEachCollectivePointInCurveOrder(Workspace& ws, std::int64_t sessionId,
                                        const std::function<bool(const CollectivePoint&)>& visit,
                                        std::size_t runBytes)
{
    CurveOrderedPoints sorted(runBytes);
    {
        ReadSnapshot snapshot(ws.database());
        std::string bytes; // one block's at a time
        for (const auto& block : collectivePointBlocks(ws.database(), sessionId)) {
            bytes.clear();
            appendCollectiveBlockBytes(ws.database(), block, bytes);
            forEachEncodedPointInBytes(ws.path(), block, bytes,
                                       [&sorted](const EncodedPoint& point) { sorted.add(point.bytes); });
        }
    }
    CollectivePoint p;
    sorted.visit([&](std::string_view point) {
        CollectiveBlockReader r(point);
        if (!r.read(p)) // its keys decoded a moment ago
            throw StoreError(ws.path() + ": session " + std::to_string(sessionId) + ": a point did not decode");
        return visit(p);
    });
}
} // namespace rl::store
