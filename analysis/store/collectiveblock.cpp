#include "store/collectiveblock.h"

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

bool CollectiveBlockReader::read(CollectivePoint& p)
{
    const std::size_t start = m_in.offset();
    std::uint8_t flags = 0;
    std::string_view op, dtype, redop, group;
    std::int32_t nranks = 0, root = 0;
    bool ok = m_in.take(&flags, 1) && m_in.takeString(op) && m_in.takeString(dtype) && m_in.takeString(redop) && m_in.takeString(group) &&
              m_in.take(&nranks, 4) && m_in.take(&root, 4) && m_in.take(&p.bytes, 8) && m_in.take(&p.count, 8) && m_in.take(&p.wrong, 8) &&
              m_in.take(&p.timeUs, 8) && m_in.take(&p.algbwGBs, 8) && m_in.take(&p.busbwGBs, 8) && m_in.take(&p.imbalance, 8);
    if (ok && (flags & kHasStats)) {
        CallStats s;
        std::int32_t iters = 0, warmup = 0, calls = 0;
        ok = m_in.take(&iters, 4) && m_in.take(&warmup, 4) && m_in.take(&calls, 4) && m_in.take(&s.minUs, 8) && m_in.take(&s.maxUs, 8) &&
             m_in.take(&s.p50Us, 8) && m_in.take(&s.p99Us, 8) && m_in.take(&s.cv, 8);
        s.iters = iters;
        s.warmup = warmup;
        s.callsPerSample = calls;
        s.meanUs = p.timeUs;
        p.stats = s;
    } else {
        p.stats.reset();
    }
    if (!ok) {
        m_in.seek(start);
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
    const std::size_t start = m_in.offset();
    std::uint8_t flags = 0;
    std::string_view skipped;
    // After op: dtype, redop, group, then nranks and root (8 bytes) before bytes; after bytes:
    // count, wrong and the four reals (48), and the statistics (52) when there are some.
    const bool ok = m_in.take(&flags, 1) && m_in.takeString(op) && m_in.takeString(skipped) &&
                    m_in.takeString(skipped) && m_in.takeString(skipped) && m_in.skip(8) && m_in.take(&bytes, 8) &&
                    m_in.skip(48 + ((flags & kHasStats) ? 52 : 0));
    if (!ok) {
        m_in.seek(start);
        return false;
    }
    inPlace = (flags & kInPlace) != 0;
    return true;
}
} // namespace rl::store
