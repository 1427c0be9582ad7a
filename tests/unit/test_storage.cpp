// The storage benchmark's kernel without MPI: one rank's write/read of its range (bytes on disk,
// first byte before the end, errors with a clear message, cancel between blocks, cleanup), the
// sweep plan, the reduction over ranks, the wire format and the store.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "records/wireformat.h"
#include "storage/iophase.h"
#include "storage/iosweep.h"
#include "store/migrations.h"
#include "store/storageresults.h"
#include "store/workspace.h"
#include "tempdir.h"

using namespace rl;
namespace fs = std::filesystem;
using rl::test::TempDir;

TEST(StorageIo, WriteThenReadMovesEveryByteAndTimesFirstByteFirst)
{
    TempDir dir;
    storage::IoRange r;
    r.path = (dir.path / "f").string();
    r.bytes = 3 * 1024 * 1024 + 4096; // a short last block
    r.blockBytes = 1024 * 1024;
    r.fsync = true;
    const auto w = storage::writeRange(r);
    ASSERT_EQ(w.error, 0) << w.message;
    EXPECT_EQ(w.bytesDone, r.bytes);
    EXPECT_EQ(fs::file_size(r.path), std::uintmax_t(r.bytes));
    EXPECT_GT(w.firstByteS, 0.0);
    EXPECT_LE(w.firstByteS, w.totalS);
    EXPECT_EQ(storage::dropCachedRange(r.path, 0, r.bytes), 0);
    const auto rd = storage::readRange(r);
    ASSERT_EQ(rd.error, 0) << rd.message;
    EXPECT_EQ(rd.bytesDone, r.bytes);
    EXPECT_LE(rd.firstByteS, rd.totalS);
}

TEST(StorageIo, SharedFileRangesDoNotOverlap)
{
    TempDir dir;
    const storage::IoCase c{storage_access::SharedFile, 3, 64 * 1024, 16 * 1024};
    const std::string path = (dir.path / "shared").string();
    std::ofstream(path).close(); // rank 0 creates it before the others open
    for (int rank = 2; rank >= 0; --rank) {
        const auto range = storage::rangeOf(c, path, rank, false, false);
        EXPECT_EQ(range.offset, rank * 64 * 1024);
        EXPECT_FALSE(range.truncate);
        ASSERT_EQ(storage::writeRange(range).error, 0);
    }
    EXPECT_EQ(fs::file_size(path), 3u * 64 * 1024); // no rank truncated another's range
}

TEST(StorageIo, ReadingPastTheEndIsAClearErrorNamingTheFile)
{
    TempDir dir;
    storage::IoRange r;
    r.path = (dir.path / "short").string();
    std::ofstream(r.path) << "abc";
    r.bytes = 8192;
    r.blockBytes = 4096;
    const auto rd = storage::readRange(r);
    EXPECT_NE(rd.error, 0);
    EXPECT_NE(rd.message.find(r.path), std::string::npos) << rd.message;
    EXPECT_NE(rd.message.find("after 3 B of 8 KiB"), std::string::npos) << rd.message;
}

TEST(StorageIo, MissingFolderFailsAtOpen)
{
    storage::IoRange r;
    r.path = "/nonexistent-ridgeline-dir/f";
    r.bytes = 4096;
    const auto w = storage::writeRange(r);
    EXPECT_EQ(w.error, ENOENT);
    EXPECT_NE(w.message.find("open /nonexistent-ridgeline-dir/f"), std::string::npos) << w.message;
}

TEST(StorageIo, CancelStopsBetweenBlocks)
{
    TempDir dir;
    storage::IoRange r;
    r.path = (dir.path / "c").string();
    r.bytes = 64 * 4096;
    r.blockBytes = 4096;
    int calls = 0;
    const auto w = storage::writeRange(r, [&] { return ++calls > 3; });
    EXPECT_TRUE(w.cancelled);
    EXPECT_EQ(w.error, 0);
    EXPECT_EQ(w.bytesDone, 3 * 4096);
}

TEST(StorageIo, DirectNeedsFourKiBMultiples)
{
    storage::IoRange r;
    r.path = "/tmp/x";
    r.bytes = 10000;
    r.blockBytes = 4096;
    r.direct = true;
    EXPECT_NE(storage::checkRange(r).find("multiples of 4 KiB"), std::string::npos);
    r.bytes = 8192;
    EXPECT_EQ(storage::checkRange(r), "");
}

TEST(StorageIo, ScratchFilesRemovesWhatItWasGiven)
{
    TempDir dir;
    const auto a = (dir.path / "a").string(), b = (dir.path / "b").string();
    {
        storage::ScratchFiles files;
        for (const auto& p : {a, b}) {
            std::ofstream(p) << "x";
            files.add(p);
        }
        files.add(a); // once
        files.remove(a);
        EXPECT_FALSE(fs::exists(a));
        EXPECT_TRUE(fs::exists(b));
    } // the destructor: the way out on exceptions
    EXPECT_FALSE(fs::exists(b));
}

TEST(StorageSweep, PlanCoversAccessRanksSizesAndBlocksAndSkipsBlocksAboveTheFile)
{
    storage::IoSweepConfig c;
    c.fileBytes = {1 << 20, 4 << 20};
    c.blockBytes = {256 << 10, 2 << 20};
    c.access = {"fpp", "shared"};
    const auto plan = storage::planIoSweep(c, 4);
    // ranks 1, 2, 4 by default; (1M, 256K), (4M, 256K), (4M, 2M): 2 x 3 x 3 cases
    ASSERT_EQ(plan.size(), 18u);
    EXPECT_EQ(plan.front().access, storage_access::FilePerProcess);
    EXPECT_EQ(plan.front().nranks, 1);
    EXPECT_EQ(plan.back().access, storage_access::SharedFile);
    EXPECT_EQ(plan.back().nranks, 4);
    EXPECT_EQ(plan.back().blockBytes, 2 << 20);
    EXPECT_EQ(storage::peakScratchBytes(plan), 16 << 20);
    c.ranks = {3};
    EXPECT_EQ(storage::planIoSweep(c, 3).size(), 6u);
}

TEST(StorageSweep, BadPlansAreRefusedWithTheReason)
{
    storage::IoSweepConfig c;
    c.ranks = {8};
    EXPECT_THROW(storage::planIoSweep(c, 4), std::invalid_argument);
    c.ranks = {};
    c.access = {"striped"};
    EXPECT_THROW(storage::planIoSweep(c, 4), std::invalid_argument);
    c.access = {"fpp"};
    c.fileBytes = {10000};
    c.blockBytes = {4096};
    c.direct = true;
    try {
        storage::planIoSweep(c, 1);
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("4 KiB"), std::string::npos);
    }
    c.direct = false;
    c.blockBytes = {1 << 20};
    EXPECT_THROW(storage::planIoSweep(c, 1), std::invalid_argument); // every block above every file
}

TEST(StorageSweep, SummaryIsAllBytesOverTheSlowestRank)
{
    const storage::IoCase c{storage_access::FilePerProcess, 3, 1'000'000'000, 1 << 20};
    std::vector<storage::IoTiming> t(3);
    const double seconds[3] = {1.0, 2.0, 0.5};
    const double first[3] = {0.001, 0.003, 0.002};
    for (int r = 0; r < 3; ++r) {
        t[std::size_t(r)].bytesDone = 1'000'000'000;
        t[std::size_t(r)].totalS = seconds[r];
        t[std::size_t(r)].firstByteS = first[r];
    }
    const auto p = storage::summarize(c, "write", true, false, t);
    EXPECT_EQ(p.nranks, 3);
    EXPECT_DOUBLE_EQ(p.aggregateGBs, 3.0 / 2.0); // 3 GB in the slowest rank's 2 s
    EXPECT_EQ(p.rankGBs, (std::vector<double>{1.0, 0.5, 2.0}));
    EXPECT_DOUBLE_EQ(p.minRankGBs, 0.5);
    EXPECT_DOUBLE_EQ(p.maxRankGBs, 2.0);
    EXPECT_DOUBLE_EQ(p.meanRankGBs, 3.5 / 3);
    EXPECT_EQ(p.slowestRank, 1);
    EXPECT_DOUBLE_EQ(p.timeS, 2.0);
    EXPECT_DOUBLE_EQ(p.firstByteUs, 3000);
    EXPECT_DOUBLE_EQ(p.firstByteMeanUs, 2000);
    EXPECT_TRUE(p.fsync);
    EXPECT_FALSE(storage::summarize(c, "read", true, false, t).fsync); // fsync is a write-side option
}

TEST(StorageSweep, MedianRunIsTheMiddleByAggregate)
{
    std::vector<StoragePoint> runs(4);
    const double agg[4] = {3, 1, 4, 2};
    for (int i = 0; i < 4; ++i)
        runs[std::size_t(i)].aggregateGBs = agg[i];
    const auto p = storage::medianRun(runs);
    EXPECT_DOUBLE_EQ(p.aggregateGBs, 2); // lower median of 1 2 3 4
    EXPECT_EQ(p.repeats, 4);
}

TEST(StorageWire, PointRoundTripsAndBadOpsAreRefused)
{
    StoragePoint p;
    p.op = "read";
    p.access = storage_access::SharedFile;
    p.nranks = 4;
    p.fileBytes = std::int64_t{1} << 34;
    p.blockBytes = 16 << 20;
    p.direct = true;
    p.aggregateGBs = 12.5;
    p.meanRankGBs = 3.2;
    p.minRankGBs = 3.0;
    p.maxRankGBs = 3.4;
    p.slowestRank = 2;
    p.timeS = 5.5;
    p.firstByteUs = 850;
    p.firstByteMeanUs = 400;
    p.repeats = 3;
    p.rankGBs = {3.1, 3.4, 3.0, 3.3};
    const auto rec = wire::parseLine(wire::toJson(p).dump());
    ASSERT_TRUE(rec);
    EXPECT_EQ(std::get<StoragePoint>(*rec), p);
    EXPECT_THROW(wire::parseLine(R"({"record":"storage","op":"append","nranks":1,"file_bytes":1,"aggregate_gbs":1})"),
                 std::exception);
    EXPECT_THROW(wire::parseLine(R"({"record":"storage","op":"read","nranks":1.5,"file_bytes":1,"aggregate_gbs":1})"),
                 std::exception);
}

TEST(StorageStore, SessionWithPointsRoundTripsAndDeletesWithItsSession)
{
    TempDir dir;
    store::Workspace ws((dir.path / "ws.db").string());
    EXPECT_GE(ws.schemaVersion(), 6); // v6 adds storage_results
    SessionData d;
    d.session.kind = kind::Storage;
    d.session.title = "io";
    StoragePoint w;
    w.op = "write";
    w.nranks = 2;
    w.fileBytes = 1 << 20;
    w.blockBytes = 1 << 16;
    w.aggregateGBs = 1.5;
    w.rankGBs = {0.8, 0.75};
    w.fsync = true;
    StoragePoint r = w;
    r.op = "read";
    r.fsync = false;
    r.rankGBs.clear();
    d.storage = {w, r};
    const auto id = ws.storeSession(d);
    const auto back = store::storagePoints(ws.database(), id);
    ASSERT_EQ(back.size(), 2u);
    EXPECT_EQ(back[0], w);
    EXPECT_EQ(back[1], r);
    ws.deleteSession(id);
    EXPECT_TRUE(store::storagePoints(ws.database(), id).empty());
}

#include "views/storagechartdata.h"

TEST(StorageCharts, SeriesPerOpAccessRanksAndBlockSortedByX)
{
    auto point = [](const char* op, const char* access, int ranks, std::int64_t file, double gbs) {
        StoragePoint p;
        p.op = op;
        p.access = access;
        p.nranks = ranks;
        p.fileBytes = file;
        p.blockBytes = 1 << 20;
        p.aggregateGBs = gbs;
        return p;
    };
    Session run;
    run.title = "run";
    const storage::StorageSessionData s{run, {point("write", storage_access::FilePerProcess, 2, 4 << 20, 2.0),
                                              point("write", storage_access::FilePerProcess, 2, 1 << 20, 1.0),
                                              point("read", storage_access::FilePerProcess, 2, 1 << 20, 3.0),
                                              point("write", storage_access::FilePerProcess, 1, 1 << 20, 0.6),
                                              point("write", storage_access::SharedFile, 2, 1 << 20, 0.9)}};
    const auto bySize = storage::storageSeries({s}, storage::StorageAxis::FileSize);
    ASSERT_EQ(bySize.size(), 4u);
    EXPECT_EQ(bySize[0].label, "write fpp 2 ranks, 1 MiB blocks");
    EXPECT_EQ(bySize[0].xy, (std::vector<std::pair<double, double>>{{1 << 20, 1.0}, {4 << 20, 2.0}}));
    EXPECT_EQ(bySize[2].label, "write fpp 1 rank, 1 MiB blocks");
    const auto byRanks = storage::storageSeries({s}, storage::StorageAxis::Ranks);
    ASSERT_EQ(byRanks.size(), 4u); // write fpp 4M, write fpp 1M (ranks 1 and 2), read fpp 1M, write shared 1M
    EXPECT_EQ(byRanks[1].label, "write fpp 1 MiB/rank, 1 MiB blocks");
    EXPECT_EQ(byRanks[1].xy, (std::vector<std::pair<double, double>>{{1, 0.6}, {2, 1.0}}));
    const auto csv = storage::storageSeriesCsv(byRanks, storage::StorageAxis::Ranks);
    EXPECT_EQ(csv.substr(0, csv.find('\n')), "series,ranks,aggregate_gbs");
    EXPECT_NE(csv.find("\"write fpp 1 MiB/rank, 1 MiB blocks\",1,0.6\n"), std::string::npos) << csv;
}
