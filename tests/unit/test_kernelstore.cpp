// Kernel records through the wire format and the workspace (schema version 2).
#include <gtest/gtest.h>

#include <filesystem>

#include "importers/importerregistry.h"
#include "records/wireformat.h"
#include "store/kernelresults.h"
#include "store/workspace.h"
#include "tempdir.h"

using namespace rl;

TEST(KernelStore, WireRoundTrip)
{
    GemmPoint g{"bfloat16", "float32", "bfloat16", "T", "N", 8192, 4096, 1024, 2, 123.5, 1.2e5, 512.0, 0.8, 0, "gfx942", "17"};
    auto r = wire::parseLine(wire::toJson(g).dump());
    ASSERT_TRUE(r && std::holds_alternative<GemmPoint>(*r));
    EXPECT_EQ(std::get<GemmPoint>(*r), g);
    MemBwPoint m{"triad", 1 << 20, 2, 12.5, 83.9};
    r = wire::parseLine(wire::toJson(m).dump());
    ASSERT_TRUE(r && std::holds_alternative<MemBwPoint>(*r));
    EXPECT_EQ(std::get<MemBwPoint>(*r), m);
    MemCeiling c{"L2", "triad", 2, 65536, 1 << 20, 150};
    r = wire::parseLine(wire::toJson(c).dump());
    ASSERT_TRUE(r && std::holds_alternative<MemCeiling>(*r));
    EXPECT_EQ(std::get<MemCeiling>(*r), c);
    PeakFlopsPoint p{"float32", 2, 300, 332, "avx512", 2.6, "/proc/cpuinfo", 2, 16, "2 cores x ..."};
    r = wire::parseLine(wire::toJson(p).dump());
    ASSERT_TRUE(r && std::holds_alternative<PeakFlopsPoint>(*r));
    EXPECT_EQ(std::get<PeakFlopsPoint>(*r), p);
    EXPECT_THROW(wire::parseLine(R"({"record":"gemm","m":1})"), std::runtime_error);
}

TEST(KernelStore, RecordedMembwRunImportsAndStores)
{
    const auto result = importFile(std::string(RIDGELINE_TEST_DATA) + "/kernels/membw-zen5-2cpu-kvm.jsonl");
    ASSERT_TRUE(result.ok) << result.error;
    ASSERT_EQ(result.sessions.size(), 1u);
    const auto& data = result.sessions[0];
    EXPECT_EQ(data.session.kind, "membw");
    EXPECT_EQ(data.session.status, SessionStatus::Complete);
    EXPECT_EQ(data.membw.size(), 248u); // 2 thread counts x 4 kernels x 31 sizes (4 KiB .. 128 MiB)
    EXPECT_GE(data.memCeilings.size(), 2u);

    test::TempDir dir;
    const auto path = dir.path / "kernels.db";
    {
        store::Workspace ws(path.string());
        EXPECT_GE(ws.schemaVersion(), 2); // version 2 adds the kernel tables
        const auto id = ws.storeSession(data);
        EXPECT_EQ(store::memBwPoints(ws.database(), id), data.membw);
        EXPECT_EQ(store::memCeilings(ws.database(), id), data.memCeilings);
        SessionData g;
        g.session.kind = kind::Gemm;
        g.gemms.push_back({"float64", "", "", "N", "N", 64, 64, 64, 1, 10, 52.4, 2.67, 0.5, 2, "cpu", "eigen+blas"});
        const auto gid = ws.storeSession(g);
        EXPECT_EQ(store::gemmPoints(ws.database(), gid), g.gemms);
        ws.deleteSession(gid);
        EXPECT_TRUE(store::gemmPoints(ws.database(), gid).empty()); // cascades
    }
}
