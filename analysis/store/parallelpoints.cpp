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

#include "io/textbuffer.h"
#include "store/collectiverows.h"
#include "store/workspace.h"

namespace rl::store {
namespace {
struct Block
{
    std::string text;
    std::int64_t points = 0;
};

// What the workers and the writer share: the next block to read, the blocks read and not yet
// written, and why everything stops early.
class BlockQueue
{
public:
    BlockQueue(std::int64_t blocks, std::int64_t window) : m_blocks(blocks), m_window(window) {}

    // The next block to read, or -1 when there is none or the writer stopped. Waits while the
    // writer is `window` blocks behind, so memory stays bounded however slow the disk is.
    std::int64_t take()
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_stop || m_next >= m_blocks || m_next < m_written + m_window; });
        if (m_stop || m_next >= m_blocks)
            return -1;
        return m_next++;
    }
    void done(std::int64_t k, Block b)
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
    // Block k once read; false when a worker failed.
    bool next(std::int64_t k, Block& out)
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
    const std::int64_t m_blocks, m_window;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::int64_t m_next = 0, m_written = 0;
    std::map<std::int64_t, Block> m_done;
    bool m_stop = false;
    std::exception_ptr m_error;
};

int threadCount(int wanted)
{
    if (wanted > 0)
        return wanted;
    return std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, 8);
}
} // namespace

std::int64_t formatCollectivePoints(Workspace& ws, std::int64_t sessionId,
                                    const std::function<void(io::TextBuffer&, const CollectivePoint&)>& format,
                                    const std::function<bool(std::string_view)>& write, ParallelRead how)
{
    const RowIds rows = collectivePointRows(ws.database(), sessionId);
    if (rows.first > rows.last)
        return 0;
    const std::int64_t expected = collectivePointCount(ws.database(), sessionId, rows);
    const std::int64_t blockRows = std::max<std::int64_t>(how.blockRows, 1);
    const std::int64_t blocks = (rows.last - rows.first) / blockRows + 1;
    const int threads = static_cast<int>(std::min<std::int64_t>(threadCount(how.threads), blocks));
    BlockQueue queue(blocks, 2 * std::int64_t(threads));

    const auto work = [&] {
        try {
            Workspace own(ws.path()); // a connection is used by one thread at a time
            std::ostringstream blockText;
            io::TextBuffer text(blockText);
            for (std::int64_t k; (k = queue.take()) >= 0;) {
                const std::int64_t first = rows.first + k * blockRows;
                const RowIds block{first, std::min(rows.last, first + blockRows - 1)};
                Block b;
                forEachCollectivePointInRows(own.database(), sessionId, block, [&](const CollectivePoint& p) {
                    format(text, p);
                    ++b.points;
                    return true;
                });
                text.flush();
                b.text = std::move(blockText).str();
                blockText.str({});
                queue.done(k, std::move(b));
            }
        } catch (...) {
            queue.fail(std::current_exception());
        }
    };
    std::vector<std::thread> workers;
    workers.reserve(std::size_t(threads));
    for (int i = 0; i < threads; ++i)
        workers.emplace_back(work);

    std::int64_t written = 0;
    bool complete = true;
    Block b;
    for (std::int64_t k = 0; k < blocks; ++k) {
        if (!queue.next(k, b) || !write(b.text)) {
            complete = false;
            break;
        }
        written += b.points;
    }
    queue.stop();
    for (auto& w : workers)
        w.join();
    if (const auto e = queue.error())
        std::rethrow_exception(e);
    if (complete && written != expected)
        throw StoreError(ws.path() + ": session " + std::to_string(sessionId) + " changed while its points were read (" +
                         std::to_string(expected) + " points at the start, " + std::to_string(written) +
                         " read): read it again");
    return written;
}

namespace {
// Other connections see only what is committed, and none sees an in-memory database's rows.
bool otherConnectionsSeeIt(Workspace& ws)
{
    sqlite3* db = ws.database().handle();
    const char* file = sqlite3_db_filename(db, "main");
    return sqlite3_get_autocommit(db) != 0 && file && *file;
}
} // namespace

std::vector<CollectivePoint> readCollectivePoints(Workspace& ws, std::int64_t sessionId, ParallelRead how)
{
    const bool parallel = otherConnectionsSeeIt(ws); // before the snapshot opens a transaction
    ReadSnapshot snapshot(ws.database()); // the keys, and the points if the workers' state differs
    const RowIds rows = collectivePointRows(ws.database(), sessionId);
    if (rows.first > rows.last)
        return {};
    const CurveOrderedRows keys = readCurveOrder(ws.database(), sessionId, rows);
    const auto& ids = keys.ids; // ascending: a block's first point is found here
    const auto& slots = keys.slots;
    if (how.keysRead)
        how.keysRead();
    std::vector<CollectivePoint> out(ids.size());
    const std::int64_t blockRows = std::max<std::int64_t>(how.blockRows, 1);
    const std::int64_t blocks = (rows.last - rows.first) / blockRows + 1;
    // Block k's points go to the places of the ids in its range. A block that holds other rows
    // than the keys' read found was changed since by another process (a workers' connection reads
    // the file as it is now): false.
    std::atomic<std::int64_t> next{0};
    const auto readBlocks = [&](Database& db) {
        for (std::int64_t k; (k = next++) < blocks;) {
            const std::int64_t first = rows.first + k * blockRows;
            const RowIds block{first, std::min(rows.last, first + blockRows - 1)};
            auto i = static_cast<std::size_t>(std::lower_bound(ids.begin(), ids.end(), block.first) - ids.begin());
            const auto end = static_cast<std::size_t>(std::upper_bound(ids.begin(), ids.end(), block.last) - ids.begin());
            bool fits = true;
            forEachCollectivePointInRows(db, sessionId, block, [&](const CollectivePoint& p) {
                fits = i < end;
                if (fits)
                    out[slots[i++]] = p;
                return fits;
            });
            if (!fits || i != end)
                return false;
        }
        return true;
    };
    const int threads = parallel ? static_cast<int>(std::min<std::int64_t>(threadCount(how.threads), blocks / 2)) : 1;
    if (threads > 1) {
        std::atomic<bool> same{true};
        std::mutex failed;
        std::exception_ptr error;
        std::vector<std::thread> workers;
        workers.reserve(std::size_t(threads));
        for (int t = 0; t < threads; ++t)
            workers.emplace_back([&] {
                bool read = false;
                try {
                    Workspace own(ws.path()); // a connection is used by one thread at a time
                    read = readBlocks(own.database());
                    if (!read)
                        same = false;
                } catch (...) {
                    std::lock_guard lock(failed);
                    if (!error)
                        error = std::current_exception();
                }
                if (!read)
                    next = blocks; // the others stop at their next block
            });
        for (auto& w : workers)
            w.join();
        if (error)
            std::rethrow_exception(error);
        if (same)
            return out;
        next = 0; // read again on ws's connection, whose snapshot the keys came from
    }
    if (!readBlocks(ws.database()))
        throw StoreError(ws.path() + ": session " + std::to_string(sessionId) + " changed while it was read (" +
                         std::to_string(ids.size()) + " points): read it again"); // within one snapshot: a bug
    return out;
}
} // namespace rl::store
