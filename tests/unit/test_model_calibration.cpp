// The calibration assembly (model::Calibration over StoreCalibration) on a real SQLite workspace
// with hand-made alpha-beta sessions: which sessions it fits, which session each collective is
// timed by, and what every figure says about its basis.
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include <gtest/gtest.h>

#include "model/calibration.h"
#include "model/hardwareprofileloader.h"
#include "store/workspace.h"
#include "tempdir.h"

using namespace rl;
using namespace rl::model;

namespace {
// A collective session of `op` over `ranks` with t = alpha + bytes / beta.
std::int64_t addSession(store::Workspace& ws, const char* title, const char* op, int ranks, double alphaUs, double betaGBs)
{
    Session s;
    s.title = title;
    const auto id = ws.createSession(s);
    for (std::int64_t bytes = 1 << 12; bytes <= (1 << 28); bytes *= 4) {
        CollectivePoint p;
        p.op = op;
        p.nranks = ranks;
        p.dtype = "bfloat16";
        p.bytes = bytes;
        p.count = bytes / 2;
        p.timeUs = alphaUs + double(bytes) / (betaGBs * 1e3);
        p.algbwGBs = double(bytes) / p.timeUs / 1e3;
        ws.addCollectivePoint(id, p);
    }
    return id;
}

struct TempWorkspace
{
    test::TempDir dir;
    std::string path = (dir.path / "calibration.db").string();
};
} // namespace

TEST(Calibration, ChosenSessionsOnlyEachCollectiveNamesItsSession)
{
    TempWorkspace t;
    store::Workspace ws(t.path);
    const auto intra = addSession(ws, "8 GPUs", "all_reduce", 8, 20, 100);
    const auto inter = addSession(ws, "16 GPUs", "all_reduce", 16, 40, 40);
    Session gemm;
    gemm.kind = kind::Gemm;
    gemm.title = "gemm";
    const auto gemmId = ws.createSession(gemm);

    CalibrationChoice choice;
    choice.collectiveSessions = {intra};
    const Calibration cal(&ws, choice);
    ASSERT_TRUE(cal.collectives());
    EXPECT_EQ(cal.collectives()->fitCount(), 1u); // the 16-GPU session is not chosen
    EXPECT_EQ(cal.collectiveBasis(CollectiveOp::AllReduce, 8, true), "session " + std::to_string(intra) + " (8 GPUs)");
    EXPECT_EQ(cal.collectiveBasis(CollectiveOp::AllReduce, 16, false), "datasheet");
    EXPECT_EQ(cal.collectives()->coverage(intra), "all_reduce over 8 GPUs");

    // Bound to a device: the chosen fit times its collective (alpha + bytes/beta), the profile the rest.
    const auto rates = deviceRates(findHardwareProfile("h100-sxm"), "bf16");
    const CalibratedSources sources(cal, rates);
    EXPECT_NEAR(sources.collectives().timeUs(CollectiveOp::AllReduce, 1e8, 8, false), 20 + 1e8 / 100e3, 0.01 * (20 + 1e8 / 100e3));
    const ProfileCollectiveTime profile(rates);
    EXPECT_DOUBLE_EQ(sources.collectives().timeUs(CollectiveOp::AllReduce, 1e8, 16, true),
                     profile.timeUs(CollectiveOp::AllReduce, 1e8, 16, true));
    EXPECT_EQ(sources.timing().measured, nullptr);
    EXPECT_EQ(sources.timing().defaultEfficiency, 0);

    // Every figure says its basis: the chosen session by name, the rest datasheet or default.
    bool sawSession = false, sawGemmDefault = false;
    for (const auto& b : cal.bases(rates)) {
        EXPECT_FALSE(b.basis.empty()) << b.figure;
        if (b.figure == "collectives") {
            EXPECT_EQ(b.basis, "session " + std::to_string(intra) + " (8 GPUs)");
            sawSession = true;
        }
        if (b.figure == "GEMM efficiency")
            sawGemmDefault = b.basis == "default";
    }
    EXPECT_TRUE(sawSession);
    EXPECT_TRUE(sawGemmDefault);

    // Both tiers: each session times its own rank count.
    choice.collectiveSessions = {intra, inter};
    const Calibration both(&ws, choice);
    EXPECT_EQ(both.collectiveBasis(CollectiveOp::AllReduce, 16, true), "session " + std::to_string(inter) + " (16 GPUs)");

    // A session that is not a collective benchmark, or not there, is refused by name.
    choice.collectiveSessions = {gemmId};
    EXPECT_THROW(Calibration(&ws, choice), std::invalid_argument);
    choice.collectiveSessions = {9999};
    try {
        Calibration bad(&ws, choice);
        FAIL() << "a missing session was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("session 9999"), std::string::npos) << e.what();
    }
    // A GEMM session without efficiencies cannot time GEMMs.
    choice.collectiveSessions.clear();
    choice.gemmSession = gemmId;
    EXPECT_THROW(Calibration(&ws, choice), std::runtime_error);
}

TEST(Calibration, AllSessionsNewestWinsAsBefore)
{
    TempWorkspace t;
    store::Workspace ws(t.path);
    addSession(ws, "old", "all_gather", 8, 30, 50);
    const auto newer = addSession(ws, "new", "all_gather", 8, 10, 200);
    CalibrationChoice choice;
    choice.allCollectiveSessions = true;
    const Calibration cal(&ws, choice);
    EXPECT_EQ(cal.collectives()->fitCount(), 1u);
    EXPECT_EQ(cal.collectiveBasis(CollectiveOp::AllGather, 8, true), "session " + std::to_string(newer) + " (new)");
    // Nothing chosen: no store needed, nothing measured.
    const Calibration none(nullptr, CalibrationChoice{});
    EXPECT_FALSE(none.collectives());
    EXPECT_EQ(none.collectiveBasis(CollectiveOp::AllGather, 8, false), "datasheet");
}
