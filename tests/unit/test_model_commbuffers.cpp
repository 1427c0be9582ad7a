// Issue 27's memory parts beyond the model's state: the NCCL buffers of a layout's communicators
// (model/commbuffers.h, each case computed by hand from NCCL's buffer sizes) and the framework's
// reserve, held to the H200 steps it was measured on (tests/data/probe/h200/step-memory-*.jsonl).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "model/commbuffers.h"
#include "model/memorymodel.h"
#include "model/modelconfig.h"
#include "model/modelcounts.h"
#include "model/parallelconfig.h"

using namespace rl::model;

namespace {
constexpr double kConnection = 524288.0 + 4915200.0 + 4194304.0; // LL + LL128 + Simple: 9,633,792 B
constexpr double kMiB = 1048576.0;

ParallelConfig layout(const ModelConfig& c, const std::string& spec, int zero)
{
    ParallelConfig p = parallelLayout(c, spec, ParallelConfig{});
    p.zeroStage = zero;
    return p;
}
} // namespace

TEST(CommBuffers, EachCommunicatorOfTheLayoutHoldsItsBuffers)
{
    const auto c = loadPreset("llama-3-8b"); // dense, untied embeddings
    EXPECT_DOUBLE_EQ(communicationBuffers(c, layout(c, "dp=1", 1)).bytes, 0) << "one GPU talks to no one";

    // TP and the gradients' DP group, a ring each (32 channels), and the pipeline's two neighbours
    // over the network: 2 peers x send and receive x 1 MiB x 2 channels.
    const auto b = communicationBuffers(c, layout(c, "tp=8,pp=4,dp=4", 1));
    EXPECT_EQ(b.collectiveCommunicators, 2);
    EXPECT_EQ(b.p2pPeers, 2);
    EXPECT_DOUBLE_EQ(b.bytes, 2 * 32 * kConnection + 2 * 2 * 1 * kMiB * 2); // 596 MiB

    // ZeRO 0 reduces the gradients with all_reduce, whose tree adds 3 connections a channel.
    EXPECT_DOUBLE_EQ(communicationBuffers(c, layout(c, "tp=8,pp=4,dp=4", 0)).bytes,
                     (1 + 4) * 32 * kConnection + 2 * 2 * 1 * kMiB * 2);
}

TEST(CommBuffers, AnExpertAllToAllConnectsEveryPeer)
{
    const auto c = loadPreset("mixtral-8x7b");
    ASSERT_TRUE(c.isMoe());
    // dp=8 with ep=8: the expert-data group is one rank (no communicator); 7 all_to_all peers over
    // NVLink, 4 MiB each way on 2 channels.
    const auto b = communicationBuffers(c, layout(c, "dp=8,ep=8", 1));
    EXPECT_EQ(b.collectiveCommunicators, 1);
    EXPECT_EQ(b.p2pPeers, 7);
    EXPECT_DOUBLE_EQ(b.bytes, 32 * kConnection + 7 * 2 * 4 * kMiB * 2);
    // dp=16, ep=8: expert-data groups of 2 ranks; ep x etp still fits a node.
    const auto b16 = communicationBuffers(c, layout(c, "dp=16,ep=8", 1));
    EXPECT_EQ(b16.collectiveCommunicators, 2);
    EXPECT_DOUBLE_EQ(b16.bytes, 2 * 32 * kConnection + 7 * 2 * 4 * kMiB * 2);
}

// DeepEP's buffers, term by term from config.hpp at 10 channels (20 SMs), hidden 4096 in bf16: a
// token slot is 8,192 B of hidden + 8 of source metadata + 128 top-k indices of 8 B + 128 weights
// and 128 scales of 4 B = 10,248 B (10,264 over RDMA, with an int4 of 16).
TEST(CommBuffers, TheFlexDispatcherHoldsDeepEpsBuffersInsteadOfNcclConnections)
{
    // 32 ranks: 4 nodes of 8. Dispatch and combine both receive 288 tokens over NVLink, 128 over RDMA.
    // NVLink: 10·8·(2·4 + 3)·4 = 3,520 + 10·8·288 = 23,040 slots x 10,248 = 236,113,920:
    // 236,117,440, aligned to 128: 236,117,504.
    // RDMA: 10·4·(8·2 + 2)·2·4 = 5,760 + 10·4·128·2 = 10,240 slots x 10,264 = 105,103,360:
    // 105,109,120 (a multiple of 128).
    EXPECT_DOUBLE_EQ(deepEpBufferBytes(32, 4096), 236117504.0 + 105109120.0);
    // 16 ranks: dispatch sends 20 RDMA tokens at once, so its 128 receive slots round up to 140
    // (combine: 12, to 132); the larger wins. 10·2·(16 + 2)·2·4 = 2,880 + 10·2·140·2 = 5,600 slots
    // x 10,264 = 57,478,400: 57,481,280, aligned: 57,481,344. NVLink as at 32 with 2 RDMA ranks:
    // 10·8·7·4 = 2,240 + 236,113,920 = 236,116,160, aligned: 236,116,224.
    EXPECT_DOUBLE_EQ(deepEpBufferBytes(16, 4096), 236116224.0 + 57481344.0);
    // 8 ranks, one node: NVLink only, 256 slots: 10·8·5·4 = 1,600 + 20,480 x 10,248 = 209,879,040:
    // 209,880,640, aligned: 209,880,704.
    EXPECT_DOUBLE_EQ(deepEpBufferBytes(8, 4096), 209880704.0);
    EXPECT_EQ(deepEpBufferBytes(1, 4096), 0.0);
    // 40 ranks: no config of its own, 48's (the same as 32's for these sizes) with 5 RDMA ranks.
    EXPECT_GT(deepEpBufferBytes(40, 4096), deepEpBufferBytes(32, 4096));

    // In a layout: the flex dispatcher's group is ep x etp; no NCCL connection to the 31 peers.
    const auto c = loadPreset("qwen3-235b-a22b");
    ASSERT_TRUE(c.isMoe());
    ParallelConfig flex = layout(c, "dp=32,ep=32", 1), a2a = flex;
    flex.flexDispatch = true;
    const auto f = communicationBuffers(c, flex), n = communicationBuffers(c, a2a);
    EXPECT_DOUBLE_EQ(f.deepEpBytes, deepEpBufferBytes(32, c.dModel));
    EXPECT_EQ(f.p2pPeers, n.p2pPeers);
    EXPECT_DOUBLE_EQ(n.deepEpBytes, 0.0);
    // The all_to_all's 31 peers over the network: 2 x 1 MiB each on 2 channels.
    EXPECT_DOUBLE_EQ(n.bytes - f.bytes, 31 * 2 * 1 * kMiB * 2 - f.deepEpBytes);
}

TEST(CommBuffers, AreAPartOfTheMemoryTheFitCounts)
{
    const auto c = loadPreset("llama-3-8b");
    const auto p = layout(c, "tp=8,pp=4,dp=4", 1);
    const auto m = trainingMemory(c, countParams(c), p);
    EXPECT_DOUBLE_EQ(m.communication, communicationBuffers(c, p).bytes);
    EXPECT_STREQ(memoryPartName(kMemoryParts - 1), "communication");
    EXPECT_DOUBLE_EQ(memoryPart(m, kMemoryParts - 1), m.communication);
    EXPECT_DOUBLE_EQ(m.total(), m.weights + m.gradients + m.optimizer + m.activations + m.working + m.communication);
    EXPECT_NE(memoryPartsText(m).find("communication 596 MiB"), std::string::npos) << memoryPartsText(m);
}

// The reserve's two figures against the steps they come from (five on an H200, two on an H100): the
// memory outside the allocator (context, cuBLAS/cuDNN) and the allocator's reserve over the tensors'
// peak, each step a fresh process.
TEST(FrameworkReserve, HoldsWhatTheH200StepsMeasured)
{
    int steps = 0;
    double worstSlack = 0;
    for (const char* device : {"h200", "h100"}) {
        for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(RIDGELINE_TEST_DATA) / "probe" / device)) {
            if (e.path().filename().string().rfind("step-memory-", 0) != 0)
                continue;
            std::ifstream in(e.path());
            std::string line;
            while (std::getline(in, line)) {
                const auto j = nlohmann::json::parse(line);
                if (j.value("record", "") != "step_summary")
                    continue;
                const auto& m = j.at("memory_bytes");
                ++steps;
                EXPECT_NEAR(m.at("outside_allocator").get<double>(), kFrameworkContextBytes, 0.01 * kFrameworkContextBytes)
                    << e.path();
                const double slack = m.at("peak_reserved").get<double>() / m.at("peak_allocated").get<double>() - 1;
                EXPECT_GT(slack, 0) << e.path();
                worstSlack = std::max(worstSlack, slack);
                // fp32 weights and AdamW's two moments between steps: 12 B a parameter (and the token batch).
                EXPECT_NEAR(m.at("between_steps").get<double>() / m.at("parameters").get<double>(), 12.0, 0.05) << e.path();
            }
        }
    }
    EXPECT_EQ(steps, 5 + 2);
    EXPECT_LT(worstSlack, kAllocatorSlack) << "the stated slack covers every measured step";
    EXPECT_GT(worstSlack, 0.02);

    // What is usable of an 80 GiB device: (80 - 0.75) / 1.05 GiB.
    const double gib = 1073741824.0;
    EXPECT_NEAR(usableMemory(80 * gib) / gib, 75.476, 0.001);
    EXPECT_NEAR(memoryHeadroom(80 * gib), 1 - 75.476 / 80, 1e-5);
    EXPECT_DOUBLE_EQ(usableMemory(0), 0);
    EXPECT_TRUE(fitsMemory(75.47 * gib, 80 * gib));
    EXPECT_FALSE(fitsMemory(75.48 * gib, 80 * gib));
}
