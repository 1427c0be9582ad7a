// "Is this number good?": the tier of a collective session and its busbw ceiling from the shipped
// profiles' topology, each checked by hand, and on the bundled nccl-tests / rccl-tests samples.
#include <gtest/gtest.h>

#include "collectives/tierpeak.h"
#include "importers/importerregistry.h"
#include "model/hardwareprofileloader.h"

using namespace rl;

namespace {
Session importedSession(const std::string& file)
{
    const auto r = importFile(std::string(RIDGELINE_TEST_DATA) + "/../../sample_data/" + file);
    EXPECT_TRUE(r.ok) << r.error;
    return r.sessions.empty() ? Session{} : r.sessions.front().session;
}
} // namespace

TEST(TierPeak, OneNodeIsBoundedByEachGpusLinks)
{
    std::string why;
    const auto t = tierPeak("all_reduce", 8, 1, findHardwareProfile("mi300x"), &why);
    ASSERT_TRUE(t) << why;
    EXPECT_FALSE(t->interNode);
    EXPECT_DOUBLE_EQ(t->peakBusGBs, 448); // 7 xGMI links, 896 GB/s bidirectional: 448 per direction
    EXPECT_NE(t->reasoning.find("448 GB/s per direction"), std::string::npos) << t->reasoning;
    EXPECT_FALSE(t->source.empty());
}

TEST(TierPeak, SeveralNodesAreBoundedByTheNodesNics)
{
    // H100 SXM: 8 x 400 Gb/s NICs = 3200 Gb/s = 400 GB/s per node, under NVLink's 450.
    const auto t = tierPeak("all_reduce", 16, 2, findHardwareProfile("h100-sxm"));
    ASSERT_TRUE(t);
    EXPECT_TRUE(t->interNode);
    EXPECT_DOUBLE_EQ(t->peakBusGBs, 400);
    EXPECT_NE(t->reasoning.find("over 2 nodes is bounded by 8 x 400 Gb/s NICs = 400 GB/s per node"), std::string::npos)
        << t->reasoning;
    EXPECT_EQ(describeShareOfPeak(*t, 185), "busbw 185 GB/s is 46 % of it");
}

TEST(TierPeak, AllToAllAcrossNodesSharesTheNicsAndSendsOnlyPartOff)
{
    // 16 ranks on 2 nodes: 400 GB/s / 8 ranks = 50 GB/s per rank; 8 of 15 peers elsewhere, so the
    // ceiling is 50 x 15 / 8 = 93.75 GB/s.
    const auto t = tierPeak("all_to_all", 16, 2, findHardwareProfile("mi300x"));
    ASSERT_TRUE(t);
    EXPECT_DOUBLE_EQ(t->peakBusGBs, 50.0 * 15 / 8);
    // On one node all_to_all has the same ceiling as the other collectives.
    EXPECT_DOUBLE_EQ(tierPeak("all_to_all", 8, 1, findHardwareProfile("mi300x"))->peakBusGBs, 448);
}

TEST(TierPeak, PointToPointAndUnknownLayoutsHaveNoCeiling)
{
    std::string why;
    EXPECT_FALSE(tierPeak("sendrecv", 2, 1, findHardwareProfile("mi300x"), &why));
    EXPECT_NE(why.find("point-to-point"), std::string::npos);
    EXPECT_FALSE(tierPeak("all_reduce", 8, 0, findHardwareProfile("mi300x"), &why));
    HardwareProfile bare;
    bare.id = "bare";
    EXPECT_FALSE(tierPeak("all_reduce", 16, 2, bare, &why));
    EXPECT_NE(why.find("no scale-out network"), std::string::npos) << why;
}

TEST(TierPeak, SamplesNameTheirDevicesAndNodes)
{
    const auto profiles = availableHardwareProfiles();
    const Session h100 = importedSession("nccl-tests_2node_16xH100_all_reduce.txt");
    EXPECT_EQ(profileForSession(h100, profiles), "h100-sxm");
    EXPECT_EQ(sessionNodes(h100), 2);
    const Session mi300x = importedSession("rccl-tests_8xMI300X_all_collectives.txt");
    EXPECT_EQ(profileForSession(mi300x, profiles), "mi300x");
    EXPECT_EQ(sessionNodes(mi300x), 1);
    const Session imb = importedSession("imb_mpi1_allreduce_allgather_pingpong.txt");
    EXPECT_EQ(profileForSession(imb, profiles), ""); // IMB names no device
}

// The bundled 8xH100 all_reduce reaches ~460 GB/s busbw, above NVLink's 450 GB/s per direction: NCCL
// reduces in the NVSwitch (NVLS). The ceiling of an all_reduce on a switch that reduces is the
// link's algbw times the bus factor 2(n-1)/n; every other op (and MI300X's xGMI) keeps the link.
TEST(TierPeak, InSwitchReductionLiftsTheAllReduceCeilingAboveTheLink)
{
    const HardwareProfile h100 = findHardwareProfile("h100-sxm");
    ASSERT_GT(h100.inSwitchReduction.value, 0);
    EXPECT_FALSE(h100.inSwitchReduction.source.empty());
    const auto ar = tierPeak("all_reduce", 8, 1, h100);
    ASSERT_TRUE(ar);
    EXPECT_DOUBLE_EQ(ar->peakBusGBs, 450 * 2.0 * 7 / 8); // 787.5
    EXPECT_NE(ar->reasoning.find("NVLS"), std::string::npos) << ar->reasoning;
    EXPECT_DOUBLE_EQ(tierPeak("all_gather", 8, 1, h100)->peakBusGBs, 450);
    EXPECT_DOUBLE_EQ(tierPeak("all_reduce", 8, 1, findHardwareProfile("mi300x"))->peakBusGBs, 448);
    EXPECT_EQ(findHardwareProfile("a100-80gb").inSwitchReduction.value, 0); // NVSwitch 2 has no SHARP

    // Every point of the published runs stays under its tier's ceiling.
    for (const char* file : {"nccl-tests_8xH100_all_collectives.txt", "rccl-tests_8xMI300X_all_collectives.txt",
                             "nccl-tests_2node_16xH100_all_reduce.txt", "nccl-tests_4node_32xH100_all_reduce.txt"}) {
        const auto r = importFile(std::string(RIDGELINE_TEST_DATA) + "/../../sample_data/" + file);
        ASSERT_TRUE(r.ok) << r.error;
        for (const auto& s : r.sessions)
            for (const auto& p : s.collectives) {
                std::string why;
                const auto t = sessionTierPeak(s.session, p.op, p.nranks, {}, 0, &why);
                if (!t)
                    continue; // point-to-point ops have none
                EXPECT_LE(p.busbwGBs, t->peakBusGBs) << file << ' ' << p.op << ' ' << p.bytes << ": " << t->reasoning;
            }
    }
}

// A --split group is held to the tier of the nodes it ran on: a one-node group of a two-node job is
// intra-node, the world level of the same session inter-node.
TEST(TierPeak, SplitGroupsUseTheirOwnNodeCount)
{
    Session s;
    s.params["hosts"] = {"a", "b"};
    s.params["split_groups"] = nlohmann::json::array({
        {{"level", "node"}, {"group", "node a"}, {"ranks", {0, 1}}, {"nodes", 1}},
        {{"level", "world"}, {"group", "world"}, {"ranks", {0, 1, 2, 3}}, {"nodes", 2}},
    });
    EXPECT_EQ(groupNodes(s, ""), 2);
    EXPECT_EQ(groupNodes(s, "node a"), 1);
    EXPECT_EQ(groupNodes(s, "world"), 2);
    EXPECT_EQ(groupNodes(s, "node b"), 1);     // not recorded (an older session): a node is one node
    EXPECT_EQ(groupNodes(s, "ranks 0-1"), 2);  // not recorded: the session's
}
