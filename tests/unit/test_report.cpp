// The report model (analysis/report): summary sentences with numbers and units, from real
// published nccl-tests / rccl-tests outputs in sample_data/ imported into a workspace.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <unistd.h>

#include "model/hardwareprofileloader.h"
#include "report/report.h"
#include "store/fileimport.h"
#include "store/workspace.h"
#include "tempdir.h"

using namespace rl;

namespace {
struct Imported
{
    test::TempDir dir;
    std::unique_ptr<store::Workspace> ws;
    std::vector<std::int64_t> ids;
    explicit Imported(const std::vector<std::string>& samples)
    {
        ws = std::make_unique<store::Workspace>((dir.path / "w.db").string());
        for (const auto& f : samples) {
            auto out = store::importIntoWorkspace(*ws, std::string(RIDGELINE_TEST_DATA) + "/../../sample_data/" + f);
            EXPECT_TRUE(out.ok) << f << ": " << out.error;
            ids.insert(ids.end(), out.sessionIds.begin(), out.sessionIds.end());
        }
    }
};

HardwareProfile profile(const std::string& id)
{
    return loadHardwareProfile(std::string(RIDGELINE_SOURCE_RESOURCE_DIR) + "/hardware/" + id + ".json");
}
} // namespace

TEST(Report, TwoNodeAllReduceSummaryGivesPeakSizeAndShareOfTheNicLineRate)
{
    Imported w({"nccl-tests_2node_16xH100_all_reduce.txt"});
    ASSERT_EQ(w.ids.size(), 1u);
    const auto s = *w.ws->session(w.ids[0]);
    const auto lines = report::collectiveSummary(s, w.ws->collectivePoints(s.id), profile("h100-sxm"));
    ASSERT_EQ(lines.size(), 2u);
    for (const auto& l : lines)
        std::cout << l << '\n';
    // busbw 189.9 GB/s at 8 GiB in the file; 8 x 400 Gb/s NICs per node carry 400 GB/s.
    EXPECT_EQ(lines[0].rfind("all_reduce on 16 ranks peaks at a busbw of 190 GB/s at 8 GiB, 47 % of the NIC line "
                             "rate (400 GB/s: all_reduce over 2 nodes is bounded by 8 x 400 Gb/s NICs",
                             0),
              0u)
        << lines[0];
    EXPECT_EQ(lines[1].rfind("all_reduce: alpha ", 0), 0u) << lines[1];
    EXPECT_NE(lines[1].find("GB/s (alpha-beta fit over 8 B .. 8 GiB"), std::string::npos) << lines[1];
}

TEST(Report, SingleNodeCollectivesAreMeasuredAgainstTheIntraNodeLinks)
{
    Imported w({"rccl-tests_8xMI300X_all_collectives.txt"});
    ASSERT_EQ(w.ids.size(), 5u);
    std::vector<std::string> all;
    for (auto id : w.ids) {
        const auto s = *w.ws->session(id);
        const auto lines = report::collectiveSummary(s, w.ws->collectivePoints(id), profile("mi300x"));
        ASSERT_FALSE(lines.empty());
        all.insert(all.end(), lines.begin(), lines.end());
        std::cout << lines[0] << '\n';
    }
    const auto allReduce = std::find_if(all.begin(), all.end(), [](const std::string& l) {
        return l.rfind("all_reduce on 8 ranks peaks at a busbw of ", 0) == 0;
    });
    ASSERT_NE(allReduce, all.end());
    EXPECT_NE(allReduce->find("of the intra-node link peak"), std::string::npos) << *allReduce;
}

TEST(Report, WithoutAProfileTheSentenceHasNoPercentage)
{
    Imported w({"osu_allgather_8ranks.txt"});
    const auto s = *w.ws->session(w.ids[0]);
    const auto peaks = report::peakPerOp(w.ws->collectivePoints(s.id));
    ASSERT_EQ(peaks.size(), 1u);
    const auto line = report::peakSentence(peaks[0], std::nullopt);
    EXPECT_EQ(line.find('%'), std::string::npos) << line;
    EXPECT_EQ(line.rfind("all_gather on 8 ranks peaks at a busbw of ", 0), 0u) << line;
}

TEST(Report, ProvenanceNamesToolVersionHostsAndCommand)
{
    Imported w({"nccl-tests_2node_16xH100_all_reduce.txt"});
    const auto rows = report::provenanceRows(*w.ws->session(w.ids[0]));
    std::map<std::string, std::string> m(rows.begin(), rows.end());
    EXPECT_EQ(m["tool"].rfind("nccl-tests 2.17.1", 0), 0u) << m["tool"];
    EXPECT_NE(m["host"].find("h100-node-07"), std::string::npos) << m["host"];
    for (const auto& [k, v] : rows)
        std::cout << k << ": " << v << '\n';
}

TEST(Report, ClusterTemplateGroupsCollectivesByTierAndKernelsUnderTheRoofline)
{
    Imported w({"nccl-tests_8xH100_all_collectives.txt", "nccl-tests_2node_16xH100_all_reduce.txt",
                "nccl-tests_4node_32xH100_all_reduce.txt", "stream-5.10_2threads_kvm-vm.txt"});
    report::Options o;
    o.layout = report::Template::Cluster;
    o.hardware = profile("h100-sxm");
    const auto r = report::buildReport(*w.ws, w.ids, o);
    std::vector<std::string> headings;
    for (const auto& s : r.sections)
        headings.push_back(s.heading);
    EXPECT_EQ(headings, (std::vector<std::string>{"Collectives within one node", "Collectives across 2 nodes",
                                                  "Collectives across 4 nodes", "Kernels and roofline", "Sizing",
                                                  "Provenance"}));
    // No model was chosen: the sizing section only says how to get one.
    ASSERT_EQ(r.sections[4].paragraphs.size(), 1u);
    EXPECT_NE(r.sections[4].paragraphs[0].find("--model"), std::string::npos) << r.sections[4].paragraphs[0];
    EXPECT_TRUE(r.sections[4].tables.empty());
    EXPECT_EQ(r.sections[0].charts.size(), 2u);
    ASSERT_FALSE(r.sections[1].tables.empty());
    const auto& peaks = r.sections[1].tables[0];
    ASSERT_EQ(peaks.rows.size(), 1u);
    EXPECT_EQ(peaks.rows[0], (std::vector<std::string>{"6", "all_reduce", "16", "190 GB/s", "8 GiB", "400 GB/s", "47 %"}));
    EXPECT_EQ(r.sections[0].charts[0].sessions.size(), 5u);
    EXPECT_EQ(r.sections[3].charts[0].kind, "roofline");
    EXPECT_EQ(r.hardware, "h100-sxm");
    for (const auto& l : r.summary)
        std::cout << "summary: " << l << '\n';
    ASSERT_GE(r.summary.size(), 8u);
    EXPECT_EQ(r.summary[5], "all_reduce on 16 ranks peaks at a busbw of 190 GB/s at 8 GiB, 47 % of the NIC line rate "
                            "(400 GB/s) across 2 nodes");
    EXPECT_EQ(r.summary[6], "all_reduce on 32 ranks peaks at a busbw of 185 GB/s at 8 GiB, 46 % of the NIC line rate "
                            "(400 GB/s) across 4 nodes");
    EXPECT_EQ(r.summary[10], "triad (session 8) reaches 41.0 GB/s at a working set of 229 MiB on 2 threads");
}

TEST(Report, ProvenanceSpellsOutTheLibraryEnvironment)
{
    test::TempDir dir;
    {
        store::Workspace ws((dir.path / "w.db").string());
        auto out = store::importIntoWorkspace(ws, std::string(RIDGELINE_TEST_DATA) + "/collectives/nccl_tests_allreduce.json");
        ASSERT_TRUE(out.ok) << out.error;
        const auto rows = report::provenanceRows(*ws.session(out.sessionIds.at(0)));
        std::map<std::string, std::string> m(rows.begin(), rows.end());
        EXPECT_EQ(m["env NCCL_DEBUG"], "WARN");
        EXPECT_EQ(m["NCCL version"], "2.27.3");
        EXPECT_EQ(m.count("env PATH"), 0u);
        EXPECT_NE(m["command line"].find("-J out.json"), std::string::npos);
    }
}

// A --split session over two H100 nodes: each node's group is held to the NVLink tier and counts by
// its slowest node at each size; the world level is held to the NICs. Numbers: busbw 300 and 400 GB/s
// per node at 1 GiB, so node b (300 GB/s) is the slowest: 300 / 788 = 38 % of the NVLS all_reduce
// ceiling of one node; the world's 150 GB/s is 38 % of 8 x 400 Gb/s NICs.
TEST(Report, SplitGroupsCountByTheSlowestGroupAgainstTheirOwnTier)
{
    Imported w({});
    Session s;
    s.kind = kind::Collectives;
    s.title = "split node,world";
    s.params["hosts"] = {"a", "b"};
    s.params["devices"] = {"NVIDIA H100 80GB HBM3"};
    s.params["split_groups"] = nlohmann::json::array({
        {{"level", "node"}, {"group", "node a"}, {"ranks", {0, 1, 2, 3, 4, 5, 6, 7}}, {"nodes", 1}},
        {{"level", "node"}, {"group", "node b"}, {"ranks", {8, 9, 10, 11, 12, 13, 14, 15}}, {"nodes", 1}},
        {{"level", "world"}, {"group", "world"}, {"ranks", nlohmann::json::array()}, {"nodes", 2}},
    });
    const auto id = w.ws->createSession(s);
    auto add = [&](const std::string& group, int ranks, std::int64_t bytes, double busGBs) {
        CollectivePoint p;
        p.op = "all_reduce";
        p.nranks = ranks;
        p.dtype = "float32";
        p.redop = "sum";
        p.bytes = bytes;
        p.count = bytes / 4;
        p.busbwGBs = busGBs;
        p.algbwGBs = busGBs * ranks / (2.0 * (ranks - 1));
        p.timeUs = double(bytes) / (p.algbwGBs * 1e3);
        p.group = group;
        w.ws->addCollectivePoint(id, p);
    };
    for (std::int64_t bytes : {std::int64_t(1) << 20, std::int64_t(1) << 30}) {
        const double scale = bytes > (1 << 20) ? 1.0 : 0.5;
        add("node a", 8, bytes, 400 * scale);
        add("node b", 8, bytes, 300 * scale);
        add("world", 16, bytes, 150 * scale);
    }
    const auto lines = report::collectiveSummary(*w.ws->session(id), w.ws->collectivePoints(id), profile("h100-sxm"));
    for (const auto& l : lines)
        std::cout << l << '\n';
    ASSERT_EQ(lines.size(), 4u);
    EXPECT_EQ(lines[0].rfind("all_reduce on 8 ranks (the slowest group at each size) peaks at a busbw of 300 GB/s at "
                             "1 GiB (node b), 38 % of the intra-node link peak (788 GB/s",
                             0),
              0u)
        << lines[0];
    EXPECT_EQ(lines[1].rfind("all_reduce on 16 ranks peaks at a busbw of 150 GB/s at 1 GiB (world), 38 % of the NIC "
                             "line rate",
                             0),
              0u)
        << lines[1];
    EXPECT_EQ(lines[2].rfind("all_reduce on 8 ranks: alpha ", 0), 0u) << lines[2];
    EXPECT_NE(lines[2].find("2 points"), std::string::npos) << lines[2]; // node b's two sizes, not four
}
