// Shipped hardware profiles load and validate; validation names file and field; measured profile.
#include <gtest/gtest.h>

#include <filesystem>

#include "model/hardwareprofileloader.h"
#include "model/measuredprofile.h"
#include "model/roofline.h"
#include "records/wireformat.h"
#include "store/kernelresults.h"
#include "store/workspace.h"
#include "tempdir.h"

using namespace rl;

TEST(HardwareProfile, AllShippedProfilesLoadWithSources)
{
    const auto profiles = loadHardwareProfiles(std::string(RIDGELINE_SOURCE_RESOURCE_DIR) + "/hardware");
    ASSERT_EQ(profiles.size(), 7u);
    for (const auto& hw : profiles) {
        EXPECT_FALSE(hw.peakTflops.empty()) << hw.id;
        for (const auto& [dtype, s] : hw.peakTflops)
            EXPECT_TRUE(s.source.starts_with("http")) << hw.id << " " << dtype;
        EXPECT_GT(hw.hbmBandwidthGBs.value, 0) << hw.id;
        EXPECT_GT(hw.hbmCapacityGB.value, 0) << hw.id;
        EXPECT_FALSE(hw.memoryLevels.empty()) << hw.id;
        // Every profile: a max-achievable BF16 figure with its source, below the peak; a network.
        ASSERT_TRUE(hw.maxAchievableTflops.count("bf16")) << hw.id;
        for (const auto& [dtype, s] : hw.maxAchievableTflops) {
            EXPECT_TRUE(s.source.starts_with("http")) << hw.id << " " << dtype;
            EXPECT_LT(s.value, hw.peakTflops.at(dtype).value) << hw.id << " " << dtype;
        }
        EXPECT_GT(hw.nicGBsPerGpu.value, 0) << hw.id;
        EXPECT_GT(hw.scaleUpGpus.value, 0) << hw.id;
        EXPECT_GT(hw.nicsPerNode.value, 0) << hw.id;
        EXPECT_TRUE(hw.nicLineRateGbps.source.starts_with("http")) << hw.id;
    }
}

TEST(HardwareProfile, MaxAchievableAbovePeakIsRejectedAndRoundTrips)
{
    auto j = nlohmann::json{{"id", "x"}, {"name", "X"}, {"vendor", "V"},
                            {"peak_tflops", {{"bf16", {{"value", 100}, {"source", "https://example.com/ds.pdf"}}}}},
                            {"max_achievable_tflops", {{"bf16", {{"value", 120}, {"source", "https://example.com/maf"}}}}},
                            {"hbm_capacity_gb", {{"value", 80}, {"source", "https://example.com/ds.pdf"}}},
                            {"hbm_bandwidth_gbs", {{"value", 2000}, {"source", "https://example.com/ds.pdf"}}},
                            {"compute_units", {{"value", 100}, {"source", "https://example.com/ds.pdf"}}},
                            {"nic_line_rate_gbps", {{"value", 200}, {"source", "https://example.com/nic"}}},
                            {"gpus_per_nic", {{"value", 2}, {"source", "https://example.com/nic"}}}};
    EXPECT_THROW(hardwareProfileFromJson(j, "x.json"), ProfileError);
    j["max_achievable_tflops"]["bf16"]["value"] = 80;
    const auto hw = hardwareProfileFromJson(j, "x.json");
    EXPECT_DOUBLE_EQ(hw.nicGBsPerGpu.value, 12.5); // 200 Gb/s / 8 / 2 GPUs per NIC
    const auto back = hardwareProfileFromJson(toJson(hw), "back");
    EXPECT_DOUBLE_EQ(back.nicGBsPerGpu.value, 12.5);
    EXPECT_DOUBLE_EQ(back.gpusPerNic.value, 2);
    EXPECT_FALSE(toJson(hw).contains("nic_gbs_per_gpu")); // derived, not stored
}

TEST(HardwareProfile, Mi300xFigures)
{
    const auto hw = loadHardwareProfile(std::string(RIDGELINE_SOURCE_RESOURCE_DIR) + "/hardware/mi300x.json");
    EXPECT_DOUBLE_EQ(hw.peakTflops.at("bf16").value, 1307.4);
    EXPECT_DOUBLE_EQ(hw.hbmBandwidthGBs.value, 5300);
    EXPECT_DOUBLE_EQ(hw.computeUnits.value, 304);
    // AMD's max-achievable FLOPs (ROCm blog "Measuring max-achievable FLOPs", part 2).
    EXPECT_DOUBLE_EQ(hw.maxAchievableTflops.at("bf16").value, 708);
    EXPECT_DOUBLE_EQ(hw.maxAchievableTflops.at("fp16").value, 654);
    EXPECT_DOUBLE_EQ(hw.maxAchievableTflops.at("fp8").value, 1273);
    EXPECT_NE(hw.maxAchievableTflops.at("bf16").source.find("measuring-max-achievable-flops-part2"), std::string::npos);
    // One 400 Gb/s NIC per GPU: 50 GB/s per GPU, derived; 8 GPUs per xGMI domain.
    EXPECT_DOUBLE_EQ(hw.nicGBsPerGpu.value, 50);
    EXPECT_DOUBLE_EQ(hw.scaleUpGpus.value, 8);
    const auto r = Roofline::fromProfile(hw);
    EXPECT_NEAR(*r.ridgePoint("bf16", "HBM3"), 1307.4e3 / 5300, 1e-9);
}

TEST(HardwareProfile, A100HasNoFp8)
{
    const auto hw = loadHardwareProfile(std::string(RIDGELINE_SOURCE_RESOURCE_DIR) + "/hardware/a100-80gb.json");
    EXPECT_FALSE(hw.peakTflops.count("fp8"));
    EXPECT_TRUE(hw.peakTflops.count("bf16"));
}

namespace {
std::string errorOf(const nlohmann::json& j)
{
    try {
        hardwareProfileFromJson(j, "bad.json");
    } catch (const ProfileError& e) {
        return e.what();
    }
    return {};
}
nlohmann::json minimal()
{
    return {{"id", "x"}, {"name", "X"}, {"vendor", "V"},
            {"peak_tflops", {{"bf16", {{"value", 100}, {"source", "https://example.com/ds.pdf"}}}}},
            {"hbm_capacity_gb", {{"value", 80}, {"source", "https://example.com/ds.pdf"}}},
            {"hbm_bandwidth_gbs", {{"value", 2000}, {"source", "https://example.com/ds.pdf"}}},
            {"compute_units", {{"value", 100}, {"source", "https://example.com/ds.pdf"}}}};
}
} // namespace

TEST(HardwareProfile, ValidationNamesFileAndField)
{
    EXPECT_EQ(errorOf(minimal()), "");
    auto j = minimal();
    j["peak_tflops"]["bf16"].erase("source");
    EXPECT_EQ(errorOf(j), "bad.json: field 'peak_tflops.bf16.source': missing (every number needs its URL or document)");
    j = minimal();
    j["peak_tflops"]["bf17"] = {{"value", 1}, {"source", "https://example.com"}};
    EXPECT_NE(errorOf(j).find("'peak_tflops.bf17'"), std::string::npos);
    j = minimal();
    j["hbm_bandwidth_gbs"]["value"] = -5;
    EXPECT_NE(errorOf(j).find("'hbm_bandwidth_gbs.value': must be > 0"), std::string::npos);
    j = minimal();
    j["peak_tflops"]["fp8"] = {{"value", nullptr}};
    EXPECT_NE(errorOf(j).find("needs a \"note\""), std::string::npos);
    j = minimal();
    j["hbm_bandwidth"] = 5;
    EXPECT_NE(errorOf(j).find("no unit in the key name"), std::string::npos);
    j = minimal();
    j.erase("hbm_capacity_gb");
    EXPECT_NE(errorOf(j).find("'hbm_capacity_gb': missing"), std::string::npos);
}

TEST(HardwareProfile, AttentionKernelsLoadSortedAndBadCurvesNameTheField)
{
    const auto& h100 = findHardwareProfile("h100-sxm");
    ASSERT_EQ(h100.attentionKernels.count("cudnn"), 1u);
    // Head dims 64 and 128, ascending (the file lists each kernel's sets as an array).
    ASSERT_EQ(h100.attentionKernels.at("cudnn").size(), 2u);
    EXPECT_EQ(h100.attentionKernels.at("cudnn")[0].headDim, 64);
    EXPECT_EQ(h100.attentionKernels.at("cudnn")[0].forward.back(), (std::pair<double, double>{16384, 413}));
    const auto& cudnn = h100.attentionKernels.at("cudnn")[1];
    EXPECT_EQ(cudnn.headDim, 128);
    ASSERT_EQ(cudnn.forward.size(), 6u);
    EXPECT_EQ(cudnn.forward.front(), (std::pair<double, double>{512, 497})); // sorted by length, not as text
    EXPECT_EQ(cudnn.forward.back(), (std::pair<double, double>{16384, 595}));
    EXPECT_NE(cudnn.source.find("FlashAttention-3"), std::string::npos);

    auto j = minimal();
    j["attention_kernels"]["k"] = {{"forward", {{"2048", 300}, {"512", 100}}}, {"backward", {{"512", 80}}},
                                   {"source", "https://example.com/paper.pdf"}};
    EXPECT_EQ(errorOf(j), "");
    j["attention_kernels"]["k"]["forward"]["4k"] = 400;
    EXPECT_EQ(errorOf(j), "bad.json: field 'attention_kernels.k.forward.4k': the key must be a sequence length in tokens");
    j["attention_kernels"]["k"]["forward"].erase("4k");
    j["attention_kernels"]["k"].erase("backward");
    EXPECT_NE(errorOf(j).find("'attention_kernels.k': needs \"forward\" and \"backward\""), std::string::npos);
    j["attention_kernels"]["k"]["backward"] = {{"512", -1}};
    EXPECT_NE(errorOf(j).find("'attention_kernels.k.backward.512': expected TFLOP/s > 0"), std::string::npos);

    // Several head dims: an array; each set's field names its index, and a head dim given twice is refused.
    const nlohmann::json set = {{"head_dim", 64}, {"forward", {{"512", 100}}}, {"backward", {{"512", 80}}},
                      {"source", "https://example.com/paper.pdf"}};
    j["attention_kernels"]["k"] = nlohmann::json::array({set, set});
    j["attention_kernels"]["k"][1]["head_dim"] = 128;
    EXPECT_EQ(errorOf(j), "");
    j["attention_kernels"]["k"][1]["head_dim"] = 64;
    EXPECT_EQ(errorOf(j), "bad.json: field 'attention_kernels.k[1].head_dim': head dim 64 is listed twice");
    j["attention_kernels"]["k"] = nlohmann::json::array();
    EXPECT_NE(errorOf(j).find("'attention_kernels.k': expected an object or a non-empty array"), std::string::npos);
}

TEST(HardwareProfile, MissingFileAndBadJsonNameTheFile)
{
    EXPECT_THROW(loadHardwareProfile("/nonexistent/p.json"), ProfileError);
    try {
        loadHardwareProfile(std::string(RIDGELINE_TEST_DATA) + "/kernels/binary.bin");
        FAIL();
    } catch (const ProfileError& e) {
        EXPECT_NE(std::string(e.what()).find("binary.bin: not valid JSON"), std::string::npos);
    }
}

TEST(HardwareProfile, MeasuredProfileFromStoredSessions)
{
    test::TempDir dir;
    const auto path = dir.path / "hwprofile.db";
    {
        store::Workspace ws(path.string());
        SessionData peak;
        peak.session.kind = kind::PeakFlops;
        peak.peaks.push_back({"float64", 1, 40, 83, "avx512", 2.6, "x", 2, 8, "d"});
        peak.peaks.push_back({"float64", 2, 78, 166, "avx512", 2.6, "x", 2, 8, "d"});
        peak.peaks.push_back({"float32", 2, 150, 332, "avx512", 2.6, "x", 2, 16, "d"});
        const auto peakId = ws.storeSession(peak);
        SessionData mem;
        mem.session.kind = kind::MemBandwidth;
        mem.memCeilings.push_back({"L1", "triad", 1, 4096, 32768, 70});
        mem.memCeilings.push_back({"L1", "triad", 2, 4096, 65536, 140});
        mem.memCeilings.push_back({"DRAM", "triad", 2, 1 << 27, 1 << 28, 30});
        const auto memId = ws.storeSession(mem);
        MeasuredProfileSources from;
        from.compute = peakId;
        from.memory = memId;
        const auto hw = buildMeasuredProfile(ws, from);
        EXPECT_TRUE(hw.measured);
        EXPECT_DOUBLE_EQ(hw.peakTflops.at("fp64").value, 0.078);
        EXPECT_DOUBLE_EQ(hw.peakTflops.at("fp32").value, 0.150);
        ASSERT_EQ(hw.memoryLevels.size(), 2u);
        EXPECT_EQ(hw.memoryLevels[0].name, "L1");
        EXPECT_DOUBLE_EQ(hw.memoryLevels[0].bandwidthGBs, 140);
        EXPECT_DOUBLE_EQ(hw.hbmBandwidthGBs.value, 30);
        EXPECT_NE(hw.hbmBandwidthGBs.source.find("measured: session"), std::string::npos);
        // Round trip through the profile schema.
        const auto again = hardwareProfileFromJson(toJson(hw), "measured");
        EXPECT_DOUBLE_EQ(again.peakTflops.at("fp64").value, 0.078);
        EXPECT_EQ(again.memoryLevels.size(), 2u);
        from.compute = memId; // a membw session is no compute session
        EXPECT_THROW(buildMeasuredProfile(ws, from), ProfileError);
    }
}
