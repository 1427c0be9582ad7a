// Scale of the CLI's point paths (issue 26 item 11): `ridgeline-cli export --points`, `results`
// and `fit` of a 10 M-point collective session, against references measured in this process on
// the same file:
//   scan      - the store's own read on one connection (Workspace::forEachCollectivePoint in
//               stored order: the blocks read and decoded, nothing written): what one thread's
//               export sits on;
//   scan, N threads - the same blocks read on N connections at once (store::formatCollectivePoints
//               formatting nothing): what the export, which reads that way, sits on;
//   scan of rows (former) - the same points stored as the former schema did, a row of 22 columns
//               each, read on one connection: the storage the blocks replaced;
//   vector    - the former path: every point read into one std::vector, then one
//               nlohmann::json per point (what export, results and fit did before).
// It also times what the GUI's worker does before one such session is drawn (chart data from the
// session's outline), and before every point is shown (points held, chart data made again).
// Each is run in a child process so its peak RSS (wait4) is its own. Not a ctest test: run by hand,
//   bench_scale [points, default 10000000] [folder for the workspace, default /tmp]
// (the former path only up to 3 M points unless RIDGELINE_BENCH_FORMER is set).
// It prints points/s (target > 1 M points/s for the export) and peak RSS against the points'
// size in memory (N x sizeof(CollectivePoint); target < 3x). The workspace and the rows file beside
// it are kept for a rerun (delete both when done: 10 M points take ~1 GB and ~1.3 GB).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "records/wireformat.h"
#include "scaleworkspace.h"
#include "store/collectiverows.h"
#include "store/database.h"
#include "store/migrations.h"
#include "store/parallelpoints.h"
#include "store/workspace.h"
#include "units/units.h"
#include "views/chartdata.h"
#include "views/sizechartdata.h"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {
struct Measured
{
    double seconds = 0;
    double peakBytes = 0;
    bool ok = false;
};

// fn runs in a child; its wall time and peak RSS come back.
Measured inChild(const std::function<int()>& fn)
{
    std::fflush(stdout); // else a child that reopens stdout prints the parent's pending lines again
    const auto t0 = Clock::now();
    const pid_t pid = fork();
    if (pid == 0)
        _exit(fn());
    int status = 0;
    rusage ru{};
    wait4(pid, &status, 0, &ru);
    Measured m;
    m.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    m.peakBytes = double(ru.ru_maxrss) * 1024.0;
    m.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    return m;
}

// ridgeline-cli with its stdout to `out` (a file, or /dev/null for results and fit).
Measured runCli(const std::string& db, std::vector<std::string> args, const std::string& out = "/dev/null")
{
    return inChild([&] {
        if (!std::freopen(out.c_str(), "w", stdout))
            return 1;
        std::vector<char*> argv{const_cast<char*>("ridgeline-cli"), const_cast<char*>("--db"), const_cast<char*>(db.c_str())};
        for (auto& a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        execv(RIDGELINE_CLI, argv.data());
        return 127;
    });
}

// The same points as the former storage held them, a row of 22 columns a point (schema 8, its
// tables made by the migrations that made them), in a file of its own beside the workspace: what
// the blocks replaced, timed in this run the way the store read it (one connection, id order, every
// column decoded into a point: store::forEachFormerCollectiveRow, which the v9 migration reads with).
std::string formerRows(const std::string& db, std::int64_t session)
{
    const std::string file = db.substr(0, db.size() - 3) + "-rows-v8.db";
    if (fs::exists(file))
        return file;
    std::printf("writing the same points as rows (schema 8) to %s ...\n", file.c_str());
    rl::store::Workspace ws(db);
    rl::store::Database rows(file + ".part", true);
    for (const auto& m : rl::store::migrations())
        if (m.toVersion <= 8)
            rows.exec(m.sql);
    rows.exec("PRAGMA user_version = 8");
    rows.exec("INSERT INTO sessions (id, kind, created, status) VALUES (1, 'collectives', '', 'complete')");
    rl::store::Transaction t(rows);
    rl::store::Statement q(rows, "INSERT INTO collective_results (session_id, op, nranks, dtype, redop, bytes, count, "
                                 "in_place, root, time_us, algbw, busbw, wrong, imbalance, split_group) "
                                 "VALUES (1,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    ws.forEachCollectivePoint(
        session,
        [&q](const rl::CollectivePoint& p) {
            q.bind(1, p.op).bind(2, p.nranks).bind(3, p.dtype).bind(4, p.redop).bind(5, p.bytes).bind(6, p.count);
            q.bind(7, p.inPlace ? 1 : 0).bind(8, p.root).bind(9, p.timeUs).bind(10, p.algbwGBs).bind(11, p.busbwGBs);
            q.bind(12, p.wrong).bind(13, p.imbalance).bind(14, p.group);
            q.run();
            return true;
        },
        rl::store::Workspace::PointOrder::Stored);
    t.commit();
    fs::rename(file + ".part", file);
    return file;
}

std::int64_t scanFormerRows(const std::string& file)
{
    rl::store::Database db(file, false);
    std::int64_t n = 0;
    rl::store::forEachFormerCollectiveRow(db, [&n](std::int64_t, const rl::CollectivePoint&) { ++n; });
    return n;
}

void report(const std::string& what, const Measured& m, std::int64_t points, const Measured* ref = nullptr)
{
    if (!m.ok) {
        std::printf("%-26s FAILED\n", what.c_str());
        return;
    }
    const double rate = double(points) / m.seconds;
    const double pointsSize = double(rl::scale::pointBytes(points));
    std::printf("%-26s %7.2f s  %6.2f M points/s  peak RSS %9s = %5.2fx the points' size", what.c_str(), m.seconds, rate / 1e6,
                rl::units::formatBytes(m.peakBytes).c_str(), m.peakBytes / pointsSize);
    if (ref && ref->ok)
        std::printf("  (%.2fx the time of %s)", m.seconds / ref->seconds, "scan");
    std::printf("\n");
}
} // namespace

int main(int argc, char** argv)
{
    const std::int64_t points = argc > 1 ? std::atoll(argv[1]) : 10'000'000;
    const fs::path dir = argc > 2 ? fs::path(argv[2]) : fs::temp_directory_path();
    const std::string db = (dir / ("ridgeline-scale-" + std::to_string(points) + ".db")).string();
    std::int64_t session = 1;
    if (!fs::exists(db)) {
        std::printf("generating %lld points in %s ...\n", static_cast<long long>(points), db.c_str());
        const auto t0 = Clock::now();
        rl::store::Workspace ws(db);
        rl::scale::LongSession spec;
        spec.points = points;
        session = rl::scale::addLongSession(ws, spec);
        std::printf("generated in %.1f s\n", std::chrono::duration<double>(Clock::now() - t0).count());
    }
    std::printf("workspace %s: %s on disk; points' size in memory %s (%lld x %zu B)\n", db.c_str(),
                rl::units::formatBytes(double(fs::file_size(db))).c_str(),
                rl::units::formatBytes(double(rl::scale::pointBytes(points))).c_str(), static_cast<long long>(points),
                sizeof(rl::CollectivePoint));

    const Measured scan = inChild([&] {
        rl::store::Workspace ws(db);
        std::int64_t n = 0;
        ws.forEachCollectivePoint(session, [&n](const rl::CollectivePoint&) { return ++n, true; },
                                  rl::store::Workspace::PointOrder::Stored);
        return n == points ? 0 : 1;
    });
    report("scan (reference)", scan, points);
    const std::string rowsFile = formerRows(db, session);
    const Measured rowScan = inChild([&] { return scanFormerRows(rowsFile) == points ? 0 : 1; });
    report("scan of rows (former)", rowScan, points, &scan);

    const Measured parallelScan = inChild([&] {
        rl::store::Workspace ws(db);
        const auto n = rl::store::formatCollectivePoints(
            ws, session, [](rl::io::TextBuffer&, const rl::CollectivePoint&) {}, [](std::string_view) { return true; });
        return n == points ? 0 : 1;
    });
    const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
    report("scan, " + std::to_string(threads) + " threads", parallelScan, points, &scan);

    const std::string id = std::to_string(session);
    const std::string jsonl = (dir / "ridgeline-scale-export.jsonl").string();
    const std::string csv = (dir / "ridgeline-scale-export.csv").string();
    const Measured json = runCli(db, {"export", id, "--points", "-o", jsonl});
    const double jsonBytes = fs::exists(jsonl) ? double(fs::file_size(jsonl)) : 0;
    report("ridgeline-cli export jsonl", json, points, &scan);
    const Measured csvRun = runCli(db, {"export", id, "--points", "-o", csv});
    const double csvBytes = fs::exists(csv) ? double(fs::file_size(csv)) : 0;
    report("ridgeline-cli export csv", csvRun, points, &scan);
    std::printf("%-26s %s JSON lines, %s CSV\n", "files", rl::units::formatBytes(jsonBytes).c_str(),
                rl::units::formatBytes(csvBytes).c_str());
    fs::remove(jsonl);
    fs::remove(csv);
    // results reads the session twice: the table's widths in stored order, then its points in
    // curve order (the encoded blocks held, the order sorted in memory); fit reads it once in curve
    // order and keeps each point's size and time.
    report("ridgeline-cli results", runCli(db, {"results", id}), points, &scan);
    report("ridgeline-cli results --json", runCli(db, {"--json", "results", id}), points, &scan);
    report("ridgeline-cli fit", runCli(db, {"fit", id}), points, &scan);

    // What the GUI's worker does before a selection of this session is drawn: every point held,
    // in curve order (Workspace::collectivePoints: every block decoded in stored order, on one
    // connection and on several, then each point moved to its place), and the bandwidth and latency charts' data made
    // from them (curves, fits, points thinned to 1,000 pixels). The drawing itself and the
    // results table's sort are bench_gui_session's.
    const auto held = [&](int threads) {
        return inChild([&] {
            rl::store::Workspace ws(db);
            return rl::store::readCollectivePoints(ws, session, {.threads = threads}).size() ==
                           static_cast<std::size_t>(points)
                       ? 0
                       : 1;
        });
    };
    report("points held, 1 thread", held(1), points, &scan);
    report("points held, " + std::to_string(threads) + " threads", held(0), points, &scan);
    // The charts' data as the GUI first draws them, from the session's outline (store/collectiveoutline.h,
    // written with the points), and as it draws them again once every point is held for the table.
    const auto chartDataFrom = [&](rl::charts::PointsRead read) {
        return inChild([&] {
            rl::store::Workspace ws(db);
            std::vector<rl::charts::SizeChartRequest> charts(2);
            charts[1].kind = rl::charts::ChartKind::Latency;
            const auto sessions = rl::charts::loadSessionCurves(ws, {session}, rl::charts::MissingSession::Fail, {}, read);
            if (sessions.size() != 1 || (read == rl::charts::PointsRead::OutlineWhereStored) != bool(sessions[0].outline))
                return 1; // an outline, or every point, as asked
            const auto prepared = rl::charts::prepareCurves(sessions, charts, {});
            return prepared.charts.size() == 2 && prepared.charts[0] && !prepared.charts[0]->drawn.empty() ? 0 : 1;
        });
    };
    const Measured chartData = chartDataFrom(rl::charts::PointsRead::OutlineWhereStored);
    report("GUI's chart data (outline)", chartData, points, &scan);
    report("GUI's chart data (every point)", chartDataFrom(rl::charts::PointsRead::Every), points, &scan);

    // The former path holds every point (3 GB at 10 M) and runs at ~0.1 M points/s: measured at
    // 1 M points, left out above 3 M unless asked for.
    if (points > 3'000'000 && !std::getenv("RIDGELINE_BENCH_FORMER")) {
        std::printf("%-26s left out above 3 M points (RIDGELINE_BENCH_FORMER=1 runs it)\n", "vector + nlohmann (former)");
    } else {
        const Measured vec = inChild([&] {
            rl::store::Workspace ws(db);
            const auto all = ws.collectivePoints(session);
            std::ofstream out(jsonl);
            for (const auto& p : all)
                out << rl::wire::toJson(p).dump() << '\n';
            return out.good() ? 0 : 1;
        });
        report("vector + nlohmann (former)", vec, points, &scan);
        fs::remove(jsonl);
    }
    if (json.ok)
        std::printf("export target: > 1 M points/s: %s; peak RSS < 3x the points' size: %s\n",
                    double(points) / json.seconds > 1e6 ? "met" : "NOT met",
                    json.peakBytes < 3.0 * double(rl::scale::pointBytes(points)) ? "met" : "NOT met");
    if (chartData.ok)
        std::printf("chart data of one session in under 1 s (from its outline; its drawing not counted): %s\n",
                    chartData.seconds < 1.0 ? "met" : "NOT met");
    return json.ok && csvRun.ok && chartData.ok ? 0 : 1;
}
