// The store side of every run whose program prints Ridgeline's JSON lines (ridgeline-bench,
// ridgeline-probe): each record is stored as it arrives, the session ends with what the program
// or its launcher said.
#include <iostream>

#include "pointtimeout.h"
#include "records/recordroute.h"
#include "records/wireformat.h"
#include "runsession.h"
#include "sbatchrun.h"

namespace rl::cli {

// Runs ridgeline-bench's argv into a new session: every record it prints is stored as it arrives.
// pointTimeoutS > 0 (the MPI benchmarks): the runner's ranks report a point that runs over (see
// pointtimeout.h) and the job is stopped; if none can report, silence for a while longer stops it.
int runAndStore(const CliContext& ctx, Session s, const std::vector<std::string>& argv, const runs::Sbatch& sbatch,
                int ranks, double pointTimeoutS, const RawRecordFn& onRaw)
{
    if (s.tool.empty()) {
        s.tool = "ridgeline-bench";
        s.toolVersion = RIDGELINE_VERSION;
    }
    RunSession run(ctx, std::move(s), argv);
    std::optional<wire::End> end;
    ChildResult child;
    Launcher launcher;
    StuckRanks stuck(ranks);
    bool started = false;
    // The ranks' own reports come first; this backstop only ends a run whose ranks cannot speak.
    const int silenceMs = pointTimeoutS > 0 ? static_cast<int>((pointTimeoutS + 10) * 1000) : 0;
    try {
        child = runLocallyOrAsJob(sbatch, ranks, run.session().kind, argv, [&](const std::string& line) {
            std::optional<wire::Record> rec;
            try {
                rec = wire::parseLine(line);
            } catch (const std::exception&) {
                std::cerr << line << '\n'; // not ours (launcher chatter): pass it on
                return;
            }
            if (!rec)
                return;
            if (auto* raw = std::get_if<wire::RawRecord>(&*rec)) {
                // What the ranks said before we stopped them: a stopped rank that the stop's SIGCONT
                // wakes reports too, and must still be named as the one that did not arrive.
                if (!launcher.stopping() && stuck.take(raw->object))
                    launcher.stop(2000); // the other ranks' reports are on their way
                else if (onRaw)
                    onRaw(run, *raw);
            } else if (auto* h = std::get_if<wire::SessionHeader>(&*rec)) {
                started = true;
                nlohmann::json params = run.session().params;
                params["runner"] = h->session.params;
                if (!h->session.toolVersion.empty() && h->session.tool == run.session().tool)
                    params["runner_version"] = h->session.toolVersion;
                params["runner_host"] = h->session.host;
                run.setParams(params);
                run.emit(wire::toJson(run.session())); // again, with what the runner knows (expected points)
            } else if (wire::isSessionData(*rec)) {
                run.append(*rec);
            } else if (auto* e = std::get_if<wire::End>(&*rec)) {
                end = *e;
            }
        }, silenceMs, [&](const std::string& job, const std::string& script) { run.noteJob(job, script); }, {},
           &launcher);
    } catch (const std::exception& e) {
        return run.end(SessionStatus::Failed, e.what());
    }
    // Our own stop (a point ran over) ends the runner as a cancel would; the session says why.
    if (stuck.any() && !child.interrupted)
        return run.end(SessionStatus::Failed, stuck.message() + "; stopped after " + std::to_string(run.points()) +
                                                  " points");
    if (child.interrupted || (end && end->status == SessionStatus::Cancelled))
        return run.end(SessionStatus::Cancelled, "cancelled after " + std::to_string(run.points()) + " points");
    if (child.idleTimedOut)
        return run.end(SessionStatus::Failed,
                       (started ? "the runner printed nothing for " + std::to_string(silenceMs / 1000) +
                                      " s and no rank reported (--point-timeout " + std::to_string(int(pointTimeoutS)) +
                                      " s): every rank is stopped or gone"
                                : "no rank of the runner started within " + std::to_string(silenceMs / 1000) +
                                      " s (--point-timeout " + std::to_string(int(pointTimeoutS)) + " s)") +
                           "; stopped after " + std::to_string(run.points()) + " points");
    if (end && child.exitCode == 0)
        return run.end(end->status, end->message);
    return run.end(SessionStatus::Failed, childFailure("runner", child, 0));
}

} // namespace rl::cli
