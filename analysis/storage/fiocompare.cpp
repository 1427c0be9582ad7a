#include "storage/fiocompare.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <thread>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "runs/launch.h"
#include "io/runcommand.h"
#include "importers/fiojson.h"
#include "storage/iophase.h"
#include "units/units.h"

namespace rl::storage {
namespace {
double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Runs fio for one direction and returns its bandwidth in GB/s; throws with fio's output on failure.
double runFio(const FioCompareSpec& s, const std::string& path, const char* rw)
{
    std::vector<std::string> argv{s.fio, "--name=ridgeline-compare", "--filename=" + path, std::string("--rw=") + rw,
                                  "--bs=" + std::to_string(s.blockBytes), "--size=" + std::to_string(s.fileBytes),
                                  "--ioengine=psync", std::string("--direct=") + (s.direct ? "1" : "0"),
                                  // fio preallocates with fallocate by default; our runner extends the file
                                  // as it writes (as checkpoint writers do), so fio must too.
                                  "--fallocate=none",
                                  // fio at its leanest, like our bare loop: the job in a thread (no fork) and no
                                  // per-I/O clock reads for latency statistics (its bandwidth is still timed).
                                  "--thread", "--gtod_reduce=1",
                                  // Our runner fills its block once; fio by default rewrites part of it before
                                  // every write (scramble_buffers, against dedupe), a cost ours does not pay.
                                  "--scramble_buffers=0",
                                  "--output-format=json"};
    if (!s.direct && std::string_view(rw) == "write")
        argv.push_back("--end_fsync=1"); // like our --fsync: the data is on the device when the clock stops
    if (std::string_view(rw) == "read")
        argv.push_back("--invalidate=1"); // drop the file's pages first, as our reads do
    const io::CommandResult r = io::runCommand(argv, 0);
    const auto brace = r.out.find('{'); // fio may print notes before its JSON
    const auto doc = brace == std::string::npos ? nlohmann::json()
                                                : nlohmann::json::parse(r.out.substr(brace), nullptr, false);
    if (!r.ok() || !doc.is_object())
        throw std::runtime_error(s.fio + " failed (" + displayCommand(argv) + "):\n" + (r.err + r.out).substr(0, 2000));
    const auto points = fioStoragePoints(doc);
    for (const auto& p : points)
        if (p.op == rw)
            return p.aggregateGBs;
    throw std::runtime_error("fio reported no " + std::string(rw) + " bandwidth");
}
} // namespace

FioComparison compareWithFio(const FioCompareSpec& s)
{
    FioComparison c;
    const std::string base = (s.dir.empty() ? std::string(".") : s.dir) + "/ridgeline-compare." + std::to_string(getpid());
    ScratchFiles files;
    const std::string fioPath = base + ".fio", oursPath = base + ".ours";
    files.add(fioPath);
    files.add(oursPath);
    std::vector<double> fw, fr, ow, orr;
    std::ostringstream report;
    try {
        IoRange r;
        r.path = oursPath;
        r.bytes = s.fileBytes;
        r.blockBytes = s.blockBytes;
        r.direct = s.direct;
        r.fsync = !s.direct;
        if (auto why = checkRange(r); !why.empty())
            throw std::runtime_error(why);
        report << "fio vs ridgeline-bench io: one file of " << units::formatBytes(double(s.fileBytes)) << " in "
               << units::formatBytes(double(s.blockBytes)) << " blocks in " << s.dir << ", "
               << (s.direct ? "O_DIRECT" : "buffered, fsync before close; reads after dropping the file's pages")
               << ", psync, " << s.rounds + s.rounds % 2 << " rounds (each direction back to back, order flipped every round)\n";
        // Each direction is measured back to back (fio, ours), the order flipping every round so
        // neither side always runs first on a warming or cooling machine.
        const int rounds = s.rounds + s.rounds % 2; // as many rounds with fio first as with ours first
        for (int round = 0; round < rounds; ++round) {
            const bool fioFirst = round % 2 == 0;
            IoTiming w, rd;
            const auto settle = [&] { std::this_thread::sleep_for(std::chrono::duration<double>(s.settleSeconds)); };
            for (int k = 0; k < 2; ++k) {
                settle();
                if ((k == 0) == fioFirst) {
                    fw.push_back(runFio(s, fioPath, "write"));
                } else if ((w = writeRange(r)).error) {
                    throw std::runtime_error(w.message);
                }
            }
            dropCachedRange(oursPath, 0, s.fileBytes); // fio's read job drops its file's pages itself
            for (int k = 0; k < 2; ++k) {
                settle();
                if ((k == 0) == fioFirst) {
                    fr.push_back(runFio(s, fioPath, "read"));
                } else if ((rd = readRange(r)).error) {
                    throw std::runtime_error(rd.message);
                }
            }
            files.remove(fioPath);
            files.remove(oursPath);
            ow.push_back(double(w.bytesDone) / w.totalS / 1e9);
            orr.push_back(double(rd.bytesDone) / rd.totalS / 1e9);
            char line[200];
            std::snprintf(line, sizeof line, "round %d: write fio %s ours %s (%.3f), read fio %s ours %s (%.3f)\n",
                          round + 1, units::formatBandwidth(fw.back()).c_str(), units::formatBandwidth(ow.back()).c_str(),
                          ow.back() / fw.back(), units::formatBandwidth(fr.back()).c_str(),
                          units::formatBandwidth(orr.back()).c_str(), orr.back() / fr.back());
            report << line;
        }
    } catch (const std::exception& e) {
        c.report = report.str() + "error: " + e.what() + '\n';
        return c;
    }
    c.fioWriteGBs = median(fw);
    c.oursWriteGBs = median(ow);
    c.fioReadGBs = median(fr);
    c.oursReadGBs = median(orr);
    c.writeRatio = c.oursWriteGBs / c.fioWriteGBs;
    c.readRatio = c.oursReadGBs / c.fioReadGBs;
    std::vector<double> pw, pr;
    for (std::size_t i = 0; i < fw.size(); ++i) {
        pw.push_back(ow[i] / fw[i]);
        pr.push_back(orr[i] / fr[i]);
    }
    // The geometric mean over an even number of rounds: the side that runs second in a round is
    // favoured or penalised by the virtual disk (seen here both ways: reads after the other tool's
    // read came in at 0.4-0.6x for either tool), and flipping the order each round cancels that.
    auto geomean = [](const std::vector<double>& v) {
        double logSum = 0;
        for (double x : v)
            logSum += std::log(x);
        return std::exp(logSum / double(v.size()));
    };
    c.pairedWriteRatio = geomean(pw);
    c.pairedReadRatio = geomean(pr);
    char line[600];
    std::snprintf(line, sizeof line,
                  "median write: fio %s, ridgeline %s, ratio %.3f; geometric mean of the rounds' ratios %.3f\n"
                  "median read:  fio %s, ridgeline %s, ratio %.3f; geometric mean of the rounds' ratios %.3f\n"
                  "within 10 %% (geometric mean of the rounds' ratios): %s\n",
                  units::formatBandwidth(c.fioWriteGBs).c_str(), units::formatBandwidth(c.oursWriteGBs).c_str(),
                  c.writeRatio, c.pairedWriteRatio, units::formatBandwidth(c.fioReadGBs).c_str(),
                  units::formatBandwidth(c.oursReadGBs).c_str(), c.readRatio, c.pairedReadRatio,
                  std::abs(c.pairedWriteRatio - 1) <= 0.10 && std::abs(c.pairedReadRatio - 1) <= 0.10 ? "yes" : "NO");
    report << line;
    c.report = report.str();
    c.ok = true;
    return c;
}
} // namespace rl::storage
