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
