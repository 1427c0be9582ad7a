#include "store/appendrecord.h"

#include "records/overload.h"
#include "records/recordroute.h"
#include "store/kernelresults.h"
#include "store/pairresults.h"
#include "store/storageresults.h"
#include "store/workspace.h"

namespace rl::store {
bool appendRecord(Workspace& workspace, std::int64_t sessionId, const wire::Record& record)
{
    if (!wire::isSessionData(record))
        return false;
    if (const auto* p = std::get_if<CollectivePoint>(&record)) {
        workspace.addCollectivePoint(sessionId, *p); // its own transaction (and curve bookkeeping)
        return true;
    }
    Database& db = workspace.database();
    Transaction t(db);
    std::visit(Overload{[&](const GemmPoint& p) { insertGemm(db, sessionId, p); },
                        [&](const MemBwPoint& p) { insertMemBw(db, sessionId, p); },
                        [&](const MemCeiling& c) { insertMemCeiling(db, sessionId, c); },
                        [&](const PeakFlopsPoint& p) { insertPeakFlops(db, sessionId, p); },
                        [&](const StoragePoint& p) { insertStorage(db, sessionId, p); },
                        [&](const PairPoint& p) { insertPair(db, sessionId, p); },
                        // Stored above, or not stored: listed so that a new kind does not compile
                        // until it says where it goes.
                        [](const CollectivePoint&) {}, [](const wire::SessionHeader&) {}, [](const wire::End&) {},
                        [](const wire::RawRecord&) {}},
               record);
    t.commit();
    return true;
}
} // namespace rl::store
