#include "store/collectiveblock.h"

#include <cstring>

#include "store/packedbytes.h"

namespace rl::store {
namespace {
enum Flags : std::uint8_t { kInPlace = 1, kHasStats = 2 };

} // namespace

void appendEncodedPoint(std::string& block, const CollectivePoint& p)
{
    const auto& s = p.stats;
    putPacked(block, static_cast<std::uint8_t>((p.inPlace ? kInPlace : 0) | (s ? kHasStats : 0)));
    putPackedString(block, p.op);
    putPackedString(block, p.dtype);
    putPackedString(block, p.redop);
    putPackedString(block, p.group);
    putPacked(block, static_cast<std::int32_t>(p.nranks));
    putPacked(block, static_cast<std::int32_t>(p.root));
    putPacked(block, p.bytes);
    putPacked(block, p.count);
    putPacked(block, p.wrong);
    putPacked(block, p.timeUs);
    putPacked(block, p.algbwGBs);
    putPacked(block, p.busbwGBs);
    putPacked(block, p.imbalance);
    if (s) {
        putPacked(block, static_cast<std::int32_t>(s->iters));
        putPacked(block, static_cast<std::int32_t>(s->warmup));
        putPacked(block, static_cast<std::int32_t>(s->callsPerSample));
        putPacked(block, s->minUs);
        putPacked(block, s->maxUs);
        putPacked(block, s->p50Us);
        putPacked(block, s->p99Us);
        putPacked(block, s->cv);
    }
}

bool CollectiveBlockReader::take(void* out, std::size_t n)
{
    if (n > m_bytes.size() - m_at)
        return false;
    std::memcpy(out, m_bytes.data() + m_at, n);
    m_at += n;
    return true;
}

bool CollectiveBlockReader::takeString(std::string_view& out)
{
    std::uint32_t n = 0;
    if (!take(&n, sizeof n) || n > m_bytes.size() - m_at)
        return false;
    out = m_bytes.substr(m_at, n);
    m_at += n;
    return true;
}

bool CollectiveBlockReader::read(CollectivePoint& p)
{
    const std::size_t start = m_at;
    std::uint8_t flags = 0;
    std::string_view op, dtype, redop, group;
    std::int32_t nranks = 0, root = 0;
    bool ok = take(&flags, 1) && takeString(op) && takeString(dtype) && takeString(redop) && takeString(group) &&
              take(&nranks, 4) && take(&root, 4) && take(&p.bytes, 8) && take(&p.count, 8) && take(&p.wrong, 8) &&
              take(&p.timeUs, 8) && take(&p.algbwGBs, 8) && take(&p.busbwGBs, 8) && take(&p.imbalance, 8);
    if (ok && (flags & kHasStats)) {
        CallStats s;
        std::int32_t iters = 0, warmup = 0, calls = 0;
        ok = take(&iters, 4) && take(&warmup, 4) && take(&calls, 4) && take(&s.minUs, 8) && take(&s.maxUs, 8) &&
             take(&s.p50Us, 8) && take(&s.p99Us, 8) && take(&s.cv, 8);
        s.iters = iters;
        s.warmup = warmup;
        s.callsPerSample = calls;
        s.meanUs = p.timeUs;
        p.stats = s;
    } else {
        p.stats.reset();
    }
    if (!ok) {
        m_at = start;
        return false;
    }
    p.inPlace = (flags & kInPlace) != 0;
    p.op.assign(op);
    p.dtype.assign(dtype);
    p.redop.assign(redop);
    p.group.assign(group);
    p.nranks = nranks;
    p.root = root;
    return true;
}

bool CollectiveBlockReader::readKey(std::string_view& op, bool& inPlace, std::int64_t& bytes)
{
    const std::size_t start = m_at;
    std::uint8_t flags = 0;
    std::string_view skipped;
    // After op: dtype, redop, group, then nranks and root (8 bytes) before bytes; after bytes:
    // count, wrong and the four reals (48), and the statistics (52) when there are some.
    bool ok = take(&flags, 1) && takeString(op) && takeString(skipped) && takeString(skipped) &&
              takeString(skipped) && 8 <= m_bytes.size() - m_at;
    if (ok) {
        m_at += 8;
        const std::size_t rest = 48 + ((flags & kHasStats) ? 52 : 0);
        ok = take(&bytes, 8) && rest <= m_bytes.size() - m_at;
        if (ok)
            m_at += rest;
    }
    if (!ok) {
        m_at = start;
        return false;
    }
    inPlace = (flags & kInPlace) != 0;
    return true;
}
} // namespace rl::store
