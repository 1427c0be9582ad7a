// One home for a wire record (records/recordroute.h, store/appendrecord.h): every kind of record
// has a role and a chart family, goes into the right vector of a session being imported and the
// right table of a stored one, and the header, end and raw records go nowhere. Each record is a
// JSON line parsed by the wire reader, as the CLI's run, the importer and the GUI read them.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "chartfixtures.h"
#include "records/recordroute.h"
#include "store/appendrecord.h"
#include "store/kernelresults.h"
#include "store/pairresults.h"
#include "store/storageresults.h"
#include "store/workspace.h"

using namespace rl;

namespace {
wire::Record parsed(const nlohmann::json& line)
{
    const auto r = wire::parseLine(line.dump());
    EXPECT_TRUE(r.has_value()) << line.dump();
    return r ? *r : wire::Record{};
}

// How many records of each table a stored session holds, and the same from a SessionData.
struct Counts
{
    std::size_t collectives = 0, gemms = 0, membw = 0, ceilings = 0, peaks = 0, storage = 0, pairs = 0;
    bool operator==(const Counts&) const = default;
};
Counts countsOf(const SessionData& d)
{
    return {d.collectives.size(), d.gemms.size(), d.membw.size(), d.memCeilings.size(), d.peaks.size(),
            d.storage.size(),     d.pairs.size()};
}
Counts countsOf(store::Workspace& ws, std::int64_t id)
{
    auto& db = ws.database();
    return {ws.collectivePoints(id).size(), store::gemmPoints(db, id).size(),  store::memBwPoints(db, id).size(),
            store::memCeilings(db, id).size(), store::peakFlopsPoints(db, id).size(),
            store::storagePoints(db, id).size(), store::pairPoints(db, id).size()};
}

struct Case
{
    const char* name;
    wire::Record record;
    wire::RecordRole role;
    wire::RecordFamily family;
    std::size_t Counts::*table; // nullptr: stored nowhere
};

std::vector<Case> everyKind()
{
    GemmPoint g;
    g.dtype = "float32";
    g.m = g.n = g.k = 256;
    g.timeUs = 900;
    g.gflops = 37.3;
    MemBwPoint m;
    m.kernel = "triad";
    m.threads = 2;
    m.bytes = 1 << 20;
    m.bestTimeUs = 26;
    m.bandwidthGBs = 40;
    MemCeiling c{"L2", "triad", 2, 1 << 18, 1 << 20, 120};
    PeakFlopsPoint f;
    f.dtype = "float64";
    f.threads = 2;
    f.gflops = 80;
    StoragePoint st;
    st.op = "write";
    st.fileBytes = st.blockBytes = 1 << 20;
    st.aggregateGBs = st.meanRankGBs = st.minRankGBs = st.maxRankGBs = 1.5;
    st.timeS = 0.0007;
    PairPoint pp;
    pp.rankB = 1;
    pp.hostA = pp.hostB = "node01";
    pp.latencyBytes = 8;
    pp.latencyUs = 0.4;
    pp.bandwidthBytes = 1 << 22;
    pp.bandwidthGBs = 9.5;
    pp.iters = 100;
    Session s;
    s.kind = kind::Collectives;
    s.title = "all kinds";
    using R = wire::RecordRole;
    using F = wire::RecordFamily;
    return {
        {"session", parsed(wire::toJson(s)), R::Header, F::None, nullptr},
        {"collective", parsed(wire::toJson(test::modelPoint("all_reduce", 8, 1 << 20, 20, 100))), R::Point,
         F::Collective, &Counts::collectives},
        {"gemm", parsed(wire::toJson(g)), R::Point, F::Kernel, &Counts::gemms},
        {"membw", parsed(wire::toJson(m)), R::Point, F::Kernel, &Counts::membw},
        {"membw_ceiling", parsed(wire::toJson(c)), R::Derived, F::Kernel, &Counts::ceilings},
        {"peakflops", parsed(wire::toJson(f)), R::Point, F::Kernel, &Counts::peaks},
        {"storage", parsed(wire::toJson(st)), R::Point, F::Storage, &Counts::storage},
        {"pair", parsed(wire::toJson(pp)), R::Point, F::Storage, &Counts::pairs},
        {"raw", parsed({{"record", "attention"}, {"backend", "flash"}}), R::Raw, F::None, nullptr},
        {"end", parsed(wire::endRecord(SessionStatus::Complete)), R::End, F::None, nullptr},
    };
}
} // namespace

TEST(RecordRoute, EveryKindHasItsRoleFamilyVectorAndTable)
{
    test::TempDir dir;
    store::Workspace ws((dir.path / "route.db").string());
    Session s;
    s.title = "route";
    for (const auto& c : everyKind()) {
        SCOPED_TRACE(c.name);
        EXPECT_EQ(wire::roleOf(c.record), c.role);
        EXPECT_EQ(wire::familyOf(c.record), c.family);
        const bool data = c.table != nullptr;
        EXPECT_EQ(wire::isSessionData(c.record), data);
        // Its JSON line reads back as the same kind of record.
        const auto json = wire::toJson(c.record);
        EXPECT_EQ(json.is_null(), !data);
        if (data) {
            EXPECT_EQ(parsed(json).index(), c.record.index());
        }

        SessionData imported;
        EXPECT_EQ(appendRecord(imported, c.record), data);
        const std::int64_t id = ws.createSession(s);
        EXPECT_EQ(store::appendRecord(ws, id, c.record), data);
        Counts expected;
        if (data)
            expected.*c.table = 1;
        EXPECT_EQ(countsOf(imported), expected);
        EXPECT_EQ(countsOf(ws, id), expected);
    }
}

// A real ridgeline-bench membw run (points, then the ceilings derived from them): the importer's
// vectors and the stored tables hold the same records.
TEST(RecordRoute, ARealRunGoesIntoTheImportAndTheStoreAlike)
{
    test::TempDir dir;
    store::Workspace ws((dir.path / "run.db").string());
    Session s;
    s.kind = kind::MemBandwidth;
    const std::int64_t id = ws.createSession(s);
    SessionData imported;
    std::ifstream in(std::string(RIDGELINE_TEST_DATA) + "/kernels/membw-zen5-2cpu-kvm.jsonl");
    std::string line;
    int points = 0, derived = 0;
    while (std::getline(in, line)) {
        const auto r = wire::parseLine(line);
        if (!r)
            continue;
        points += wire::roleOf(*r) == wire::RecordRole::Point;
        derived += wire::roleOf(*r) == wire::RecordRole::Derived;
        if (wire::isSessionData(*r)) {
            EXPECT_TRUE(appendRecord(imported, *r));
            EXPECT_TRUE(store::appendRecord(ws, id, *r));
        }
    }
    ASSERT_GT(points, 10);
    ASSERT_GT(derived, 0);
    EXPECT_EQ(countsOf(imported), countsOf(ws, id));
    EXPECT_EQ(countsOf(imported).membw, std::size_t(points));
    EXPECT_EQ(countsOf(imported).ceilings, std::size_t(derived));
}
