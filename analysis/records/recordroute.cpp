#include "records/recordroute.h"

#include "records/overload.h"

// Every visit below lists each kind of Record: a new kind does not compile until it says what it
// is, which charts it feeds and where it goes.
namespace rl::wire {
RecordRole roleOf(const Record& r)
{
    return std::visit(Overload{[](const SessionHeader&) { return RecordRole::Header; },
                               [](const End&) { return RecordRole::End; },
                               [](const RawRecord&) { return RecordRole::Raw; },
                               [](const MemCeiling&) { return RecordRole::Derived; },
                               [](const CollectivePoint&) { return RecordRole::Point; },
                               [](const GemmPoint&) { return RecordRole::Point; },
                               [](const MemBwPoint&) { return RecordRole::Point; },
                               [](const PeakFlopsPoint&) { return RecordRole::Point; },
                               [](const StoragePoint&) { return RecordRole::Point; },
                               [](const PairPoint&) { return RecordRole::Point; }},
                      r);
}

bool isSessionData(const Record& r)
{
    const RecordRole role = roleOf(r);
    return role == RecordRole::Point || role == RecordRole::Derived;
}

RecordFamily familyOf(const Record& r)
{
    return std::visit(Overload{[](const CollectivePoint&) { return RecordFamily::Collective; },
                               [](const GemmPoint&) { return RecordFamily::Kernel; },
                               [](const MemBwPoint&) { return RecordFamily::Kernel; },
                               [](const MemCeiling&) { return RecordFamily::Kernel; },
                               [](const PeakFlopsPoint&) { return RecordFamily::Kernel; },
                               [](const StoragePoint&) { return RecordFamily::Storage; },
                               [](const PairPoint&) { return RecordFamily::Storage; },
                               [](const SessionHeader&) { return RecordFamily::None; },
                               [](const End&) { return RecordFamily::None; },
                               [](const RawRecord&) { return RecordFamily::None; }},
                      r);
}

nlohmann::json toJson(const Record& r)
{
    // Each point kind by name: a catch-all would send a new kind without a toJson of its own back
    // here through the variant's converting constructor, and recurse without end.
    return std::visit(Overload{[](const SessionHeader&) { return nlohmann::json(); },
                               [](const End&) { return nlohmann::json(); },
                               [](const RawRecord&) { return nlohmann::json(); },
                               [](const CollectivePoint& p) { return toJson(p); },
                               [](const GemmPoint& p) { return toJson(p); },
                               [](const MemBwPoint& p) { return toJson(p); },
                               [](const MemCeiling& c) { return toJson(c); },
                               [](const PeakFlopsPoint& p) { return toJson(p); },
                               [](const StoragePoint& p) { return toJson(p); },
                               [](const PairPoint& p) { return toJson(p); }},
                      r);
}
} // namespace rl::wire

namespace rl {
bool appendRecord(SessionData& data, const wire::Record& r)
{
    return std::visit(Overload{[&](const CollectivePoint& p) { return data.collectives.push_back(p), true; },
                               [&](const GemmPoint& p) { return data.gemms.push_back(p), true; },
                               [&](const MemBwPoint& p) { return data.membw.push_back(p), true; },
                               [&](const MemCeiling& c) { return data.memCeilings.push_back(c), true; },
                               [&](const PeakFlopsPoint& p) { return data.peaks.push_back(p), true; },
                               [&](const StoragePoint& p) { return data.storage.push_back(p), true; },
                               [&](const PairPoint& p) { return data.pairs.push_back(p), true; },
                               [](const wire::SessionHeader&) { return false; },
                               [](const wire::End&) { return false; },
                               [](const wire::RawRecord&) { return false; }},
                      r);
}
} // namespace rl
