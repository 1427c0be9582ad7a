#include "store/collectiveoutline.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "store/collectiveblock.h"
#include "store/collectiverows.h"
#include "store/curveorder.h"
#include "store/database.h"
#include "store/packedbytes.h"

namespace rl::store {
namespace {
// Which of a size's points a view plots (views/sizechartdata.cpp): every point with a size on
// the bandwidth view, those with a time on the latency view, those with call statistics in the
// bandwidth view's spread. Any: a curve whose points are all 0-byte keeps one, so it is still named.
enum Filter { Any, Plotted, Timed, Spread, kFilters };
// The values the views plot, each in the order a positive display unit keeps.
enum Value { BusBw, AlgBw, Time, BusUpper, BusLower, AlgUpper, AlgLower, kValues };

// A point of an entry: where it is in stored order and its size (curve order is size, then stored
// order, so of two points the one of the smaller size, or else stored first, comes first).
struct Place
{
    std::int64_t at = -1;
    std::int64_t bytes = 0;
    bool before(const Place& o) const { return bytes < o.bytes || (bytes == o.bytes && at < o.at); }
};

struct Slot
{
    double value = 0;
    Place place;
};

struct Entry
{
    std::array<Place, kFilters> first, last; // first and last in curve order
    std::array<Slot, kValues> lo, hi;
    std::array<std::int64_t, kFilters> count{};
    OutlineSums sums; // its curve and smallest size, and the fit's sums (the counts from `count` at the end)
};

void consider(Entry& e, Value v, double value, const Place& p)
{
    // Strictly lower or higher, as decimateToPixels: of equal values the first in curve order stays.
    Slot& lo = e.lo[v];
    if (lo.place.at < 0 || value < lo.value || (value == lo.value && p.before(lo.place)))
        lo = {value, p};
    Slot& hi = e.hi[v];
    if (hi.place.at < 0 || value > hi.value || (value == hi.value && p.before(hi.place)))
        hi = {value, p};
}

// The bin of a size: 1/256 of an octave (a 0.27 % step), so a sweep of up to 256 sizes an octave
// has one size a bin. Sizes below one byte share a bin: no view plots them.
std::int64_t sizeBin(std::int64_t bytes)
{
    return bytes > 0 ? static_cast<std::int64_t>(std::floor(std::log2(static_cast<double>(bytes)) * kOutlineBinsPerOctave))
                     : std::numeric_limits<std::int64_t>::min();
}

// The sums' bytes as encodeSums wrote them; a read past their end names the outline as damaged.
class SumsReader
{
public:
    SumsReader(std::string_view bytes, const std::string& workspace, std::int64_t session)
        : m_in(bytes), m_workspace(workspace), m_session(session)
    {
    }
    bool atEnd() const { return m_in.atEnd(); }
    template <typename T> T take()
    {
        T v;
        if (!m_in.take(&v, sizeof v))
            damaged();
        return v;
    }
    std::string takeString()
    {
        std::string_view s;
        if (!m_in.takeString(s))
            damaged();
        return std::string(s);
    }

private:
    [[noreturn]] void damaged() const
    {
        throw StoreError(m_workspace + ": the outline of session " + std::to_string(m_session) +
                         " is damaged at byte " + std::to_string(m_in.offset()) + " of its sums");
    }
    PackedReader m_in;
    const std::string& m_workspace;
    std::int64_t m_session;
};

std::string encodeSums(const std::vector<OutlineSums>& sums)
{
    std::string out;
    for (const auto& s : sums) {
        putPackedString(out, s.op);
        putPacked(out, static_cast<std::uint8_t>(s.inPlace ? 1 : 0));
        putPackedString(out, s.group);
        putPacked(out, s.bytes);
        putPacked(out, s.sums.points);
        for (double v : {s.sums.w, s.sums.nw, s.sums.ww, s.sums.nww, s.sums.nnww, s.sums.smallest, s.sums.largest})
            putPacked(out, v);
        for (std::int64_t n : {s.sized, s.timed, s.spread})
            putPacked(out, n);
    }
    return out;
}

void deleteOutline(Database& db, std::int64_t sessionId)
{
    Statement q(db, "DELETE FROM collective_outlines WHERE session_id = ?");
    q.bind(1, sessionId);
    q.run();
}

// Stores the kept points (in stored order) in curve order with the builder's sums.
void insertOutline(Database& db, std::int64_t sessionId, std::int64_t covers, const std::vector<CollectivePoint>& kept,
                   const std::vector<OutlineSums>& sums)
{
    CurveOrder order;
    for (const auto& p : kept)
        order.add(p.op, p.inPlace, p.bytes);
    const auto slots = std::move(order).slots();
    std::vector<const CollectivePoint*> placed(kept.size());
    for (std::size_t i = 0; i < kept.size(); ++i)
        placed[slots[i]] = &kept[i];
    std::string data;
    for (const auto* p : placed)
        appendEncodedPoint(data, *p);
    Statement q(db, "INSERT INTO collective_outlines (session_id, covers, format, points, data, sums) VALUES (?,?,?,?,?,?)");
    q.bind(1, sessionId)
        .bind(2, covers)
        .bind(3, kCollectiveBlockFormat)
        .bind(4, static_cast<std::int64_t>(kept.size()))
        .bindBlob(5, data)
        .bindBlob(6, encodeSums(sums));
    q.run();
}
} // namespace

struct OutlineBuilder::State
{
    std::int64_t total = 0, next = 0;
    bool abandoned = false;
    std::unordered_map<std::string, std::uint32_t> index; // op, in-place, group, size -> entry
    std::vector<Entry> entries;
    std::string key; // reused: a point's key, built once a point
};

OutlineBuilder::OutlineBuilder(std::int64_t total) : m_state(std::make_unique<State>())
{
    m_state->total = total;
    m_state->abandoned = total < kOutlineMinPoints;
}

OutlineBuilder::~OutlineBuilder() = default;

void OutlineBuilder::add(const CollectivePoint& p)
{
    State& s = *m_state;
    const std::int64_t at = s.next++;
    if (s.abandoned)
        return;
    s.key.assign(p.op);
    s.key.push_back('\0');
    s.key.push_back(p.inPlace ? '1' : '0');
    s.key.append(p.group);
    s.key.push_back('\0');
    const std::int64_t bin = sizeBin(p.bytes);
    s.key.append(reinterpret_cast<const char*>(&bin), sizeof bin);
    const auto [it, added] = s.index.try_emplace(s.key, static_cast<std::uint32_t>(s.entries.size()));
    if (added) {
        // Each bin keeps at least one point: past a quarter of the points the outline is not
        // worth reading instead of them.
        if (static_cast<std::int64_t>(s.entries.size()) >= std::min(kOutlineMaxBins, s.total / 4)) {
            s.abandoned = true;
            s.index = {};
            s.entries = {};
            return;
        }
        OutlineSums& head = s.entries.emplace_back().sums;
        head.op = p.op;
        head.inPlace = p.inPlace;
        head.group = p.group;
        head.bytes = p.bytes;
    }
    Entry& e = s.entries[it->second];
    e.sums.bytes = std::min(e.sums.bytes, p.bytes);
    const Place here{at, p.bytes};
    const bool timed = p.bytes > 0 && p.timeUs > 0;
    const bool spread = timed && p.stats && p.stats->minUs > 0 && p.stats->maxUs > 0;
    const bool in[kFilters] = {true, p.bytes > 0, timed, spread};
    for (int f = 0; f < kFilters; ++f)
        if (in[f]) {
            if (e.first[f].at < 0 || here.before(e.first[f]))
                e.first[f] = here;
            if (e.last[f].at < 0 || e.last[f].before(here))
                e.last[f] = here;
            ++e.count[f];
        }
    if (p.bytes > 0) {
        consider(e, BusBw, p.busbwGBs, here);
        consider(e, AlgBw, p.algbwGBs, here);
    }
    if (timed)
        consider(e, Time, p.timeUs, here);
    if (spread) {
        // sizechartdata.cpp's callSpread: the value at the fastest and at the slowest call.
        consider(e, BusUpper, p.busbwGBs * p.timeUs / p.stats->minUs, here);
        consider(e, BusLower, p.busbwGBs * p.timeUs / p.stats->maxUs, here);
        consider(e, AlgUpper, p.algbwGBs * p.timeUs / p.stats->minUs, here);
        consider(e, AlgLower, p.algbwGBs * p.timeUs / p.stats->maxUs, here);
    }
    e.sums.sums.add(static_cast<double>(p.bytes), p.timeUs);
}

std::optional<std::vector<std::int64_t>> OutlineBuilder::kept() const
{
    const State& s = *m_state;
    if (s.abandoned || s.next != s.total)
        return std::nullopt;
    std::vector<std::int64_t> out;
    for (const auto& e : s.entries) {
        for (int f = 0; f < kFilters; ++f)
            out.insert(out.end(), {e.first[f].at, e.last[f].at});
        for (int v = 0; v < kValues; ++v)
            out.insert(out.end(), {e.lo[v].place.at, e.hi[v].place.at});
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    if (!out.empty() && out.front() < 0)
        out.erase(out.begin());
    if (static_cast<std::int64_t>(out.size()) > s.total / 4)
        return std::nullopt;
    return out;
}

std::vector<OutlineSums> OutlineBuilder::sums() const
{
    std::vector<OutlineSums> out;
    out.reserve(m_state->entries.size());
    for (const auto& e : m_state->entries) {
        out.push_back(e.sums);
        out.back().sized = e.count[Plotted];
        out.back().timed = e.count[Timed];
        out.back().spread = e.count[Spread];
    }
    return out;
}

bool storeCollectiveOutline(Database& db, std::int64_t sessionId, std::span<const CollectivePoint> storedOrder)
{
    deleteOutline(db, sessionId);
    OutlineBuilder builder(static_cast<std::int64_t>(storedOrder.size()));
    for (const auto& p : storedOrder)
        builder.add(p);
    const auto kept = builder.kept();
    if (!kept)
        return false;
    std::vector<CollectivePoint> points;
    points.reserve(kept->size());
    for (std::int64_t i : *kept)
        points.push_back(storedOrder[static_cast<std::size_t>(i)]);
    insertOutline(db, sessionId, static_cast<std::int64_t>(storedOrder.size()), points, builder.sums());
    return true;
}

bool storeCollectiveOutline(Database& db, std::int64_t sessionId)
{
    deleteOutline(db, sessionId);
    const auto blocks = collectivePointBlocks(db, sessionId);
    const std::int64_t total = pointsIn(blocks);
    if (total < kOutlineMinPoints)
        return false;
    OutlineBuilder builder(total);
    for (const auto& b : blocks)
        forEachCollectivePointInBlock(db, b, [&](const CollectivePoint& p) { return builder.add(p), true; });
    const auto kept = builder.kept();
    if (!kept)
        return false;
    std::vector<CollectivePoint> points;
    points.reserve(kept->size());
    std::int64_t at = 0;
    auto want = kept->begin();
    for (const auto& b : blocks) {
        forEachCollectivePointInBlock(db, b, [&](const CollectivePoint& p) {
            if (want != kept->end() && *want == at) {
                points.push_back(p);
                ++want;
            }
            ++at;
            return want != kept->end();
        });
        if (want == kept->end())
            break;
    }
    insertOutline(db, sessionId, total, points, builder.sums());
    return true;
}

void outlineLongSessions(Database& db)
{
    std::vector<std::int64_t> sessions;
    {
        Statement q(db, "SELECT session_id FROM collective_blocks GROUP BY session_id HAVING SUM(points) >= ?");
        q.bind(1, kOutlineMinPoints);
        while (q.step())
            sessions.push_back(q.int64(0));
    }
    for (std::int64_t id : sessions)
        storeCollectiveOutline(db, id);
}

std::optional<CollectiveOutline> readCollectiveOutline(Database& db, std::int64_t sessionId)
{
    Statement q(db, "SELECT covers, format, points, data, sums FROM collective_outlines WHERE session_id = ?");
    q.bind(1, sessionId);
    if (!q.step())
        return std::nullopt;
    CollectiveOutline out;
    out.covers = q.int64(0);
    // Another format (a newer Ridgeline's) is read as if there were none: the points are there.
    if (q.int64(1) != kCollectiveBlockFormat || out.covers != collectivePointCount(db, sessionId))
        return std::nullopt;
    const std::int64_t n = q.int64(2);
    if (n < 0 || n > out.covers)
        throw StoreError(db.path() + ": the outline of session " + std::to_string(sessionId) + " lists " +
                         std::to_string(n) + " points of the " + std::to_string(out.covers) + " it outlines");
    out.points.resize(static_cast<std::size_t>(n));
    CollectiveBlockReader r(q.blobView(3));
    for (auto& p : out.points)
        if (!r.read(p))
            throw StoreError(db.path() + ": the outline of session " + std::to_string(sessionId) + " is damaged at byte " +
                             std::to_string(r.offset()));
    if (!r.atEnd())
        throw StoreError(db.path() + ": the outline of session " + std::to_string(sessionId) + " holds more than the " +
                         std::to_string(n) + " points it lists");
    SumsReader s(q.blobView(4), db.path(), sessionId);
    while (!s.atEnd()) {
        OutlineSums o;
        o.op = s.takeString();
        o.inPlace = s.take<std::uint8_t>() != 0;
        o.group = s.takeString();
        o.bytes = s.take<std::int64_t>();
        o.sums.points = s.take<std::int64_t>();
        for (double* v : {&o.sums.w, &o.sums.nw, &o.sums.ww, &o.sums.nww, &o.sums.nnww, &o.sums.smallest, &o.sums.largest})
            *v = s.take<double>();
        for (std::int64_t* n : {&o.sized, &o.timed, &o.spread})
            *n = s.take<std::int64_t>();
        out.sums.push_back(std::move(o));
    }
    return out;
}
} // namespace rl::store
