// Training-log parsers (Megatron-LM, Megatron-DeepSpeed, torchtitan, CSV/JSONL) and the restart,
// stall, skipped-step and goodput analysis. Fixture lines follow real logs quoted in public
// issues (NVIDIA/Megatron-LM#756, epfLLM/Megatron-LLM#11, pytorch/torchtitan#2389, #3393).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "importers/importerregistry.h"
#include "store/fileimport.h"
#include "store/traceresults.h"
#include "trace/trainloganalysis.h"
#include "trace/trainlogparse.h"
#include "tempdir.h"

using namespace rl;
namespace fs = std::filesystem;

namespace {
const std::string kLogs = std::string(RIDGELINE_TEST_DATA) + "/logs/";

int countEvents(const std::vector<TrainEvent>& ev, TrainEventKind k)
{
    return static_cast<int>(std::count_if(ev.begin(), ev.end(), [k](const TrainEvent& e) { return e.kind == k; }));
}
} // namespace

TEST(TrainLogLines, MegatronLmIterationLine)
{
    std::string tool;
    double gbs = 0;
    const auto s = trace::parseMegatronLine(
        " [2024-04-06 02:59:36] iteration       43/     100 | consumed samples:         5504 | elapsed time per "
        "iteration (ms): 5444.9 | throughput per GPU (TFLOP/s/GPU): 239.8 | learning rate: 8.600000E-06 | global "
        "batch size:   128 | lm loss: 1.825991E+00 | load_balancing_loss: 1.019746E+00 | loss scale: 1.0 | grad "
        "norm: 1.426 | num zeros: 0.0 | number of skipped iterations:   0 | number of nan iterations:   0 |",
        &tool, &gbs);
    ASSERT_TRUE(s);
    EXPECT_EQ(tool, "megatron-lm");
    EXPECT_EQ(s->step, 43);
    EXPECT_DOUBLE_EQ(s->stepTimeMs, 5444.9);
    EXPECT_DOUBLE_EQ(s->tflopsPerGpu, 239.8);
    EXPECT_DOUBLE_EQ(s->loss, 1.825991);
    EXPECT_DOUBLE_EQ(s->learningRate, 8.6e-6);
    EXPECT_DOUBLE_EQ(s->gradNorm, 1.426);
    EXPECT_DOUBLE_EQ(gbs, 128);
    EXPECT_DOUBLE_EQ(s->wallTimeS, 1712372376.0); // 2024-04-06T02:59:36Z
    EXPECT_FALSE(trace::parseMegatronLine(" > building GPT model ...")); // not a step line
}

TEST(TrainLogLines, TorchtitanLineWithAnsiColours)
{
    const auto s = trace::parseTorchtitanLine(
        "[rank0]:[titan] 2026-05-18 16:04:46,338 - root - INFO - \x1b[31mstep: 14  \x1b[32mloss:  3.24405  "
        "\x1b[38;2;180;60;0mgrad_norm:  0.8319  \x1b[33mmemory:  9.46GiB(64.99%)  \x1b[34mtps: 7,282  "
        "\x1b[36mtflops: 0.52  \x1b[35mmfu: 0.17%\x1b[39m");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->step, 14);
    EXPECT_DOUBLE_EQ(s->loss, 3.24405);
    EXPECT_DOUBLE_EQ(s->gradNorm, 0.8319);
    EXPECT_DOUBLE_EQ(s->tokensPerSec, 7282);
    EXPECT_DOUBLE_EQ(s->tflopsPerGpu, 0.52);
    EXPECT_NEAR(s->mfu, 0.0017, 1e-12);
    EXPECT_NEAR(s->wallTimeS, 1779120286.338, 1e-3);
}

TEST(TrainLog, MegatronRestartStallSkippedAndGoodput)
{
    const ImportResult r = importFile(kLogs + "megatron_lm_restart.log");
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.format, "trainlog");
    ASSERT_EQ(r.sessions.size(), 1u);
    const auto& s = r.sessions[0];
    EXPECT_EQ(s.session.kind, kind::TrainingLog);
    EXPECT_EQ(s.session.tool, "megatron-lm");
    ASSERT_EQ(s.trainSteps.size(), 6u);
    // tokens/s = global batch 128 x seq_length 4096 / 5 s
    EXPECT_DOUBLE_EQ(s.trainSteps[0].tokensPerSec, 128.0 * 4096 / 5.0);
    EXPECT_EQ(s.trainSteps[4].segment, 1);
    EXPECT_TRUE(s.trainSteps[3].redone);   // iteration 40 before the crash was redone from checkpoint 30
    EXPECT_FALSE(s.trainSteps[4].redone);
    EXPECT_EQ(s.trainSteps[0].iterationsCovered, 10);

    const auto& ev = s.trainEvents;
    EXPECT_EQ(countEvents(ev, TrainEventKind::Restart), 1);
    EXPECT_EQ(countEvents(ev, TrainEventKind::Stall), 1);
    EXPECT_EQ(countEvents(ev, TrainEventKind::Skipped), 1);
    EXPECT_EQ(countEvents(ev, TrainEventKind::TimeGap), 1);
    for (const auto& e : ev) {
        if (e.kind == TrainEventKind::Stall) {
            EXPECT_EQ(e.step, 40);
            EXPECT_DOUBLE_EQ(e.lostS, 150); // (20 s - 5 s median) x 10 iterations
        } else if (e.kind == TrainEventKind::Restart) {
            EXPECT_EQ(e.step, 40);
            EXPECT_DOUBLE_EQ(e.lostS, 200); // iterations 31..40 at 20 s each, redone
        } else if (e.kind == TrainEventKind::TimeGap) {
            EXPECT_DOUBLE_EQ(e.lostS, 850); // 900 s between the lines, 50 s of it expected
        } else if (e.kind == TrainEventKind::Skipped) {
            EXPECT_EQ(e.step, 30);
        }
    }
    const auto& p = s.session.params;
    EXPECT_EQ(p["restarts"], 1);
    EXPECT_EQ(p["skipped_iterations"], 2);
    EXPECT_EQ(p["redone_iterations"], 10);
    EXPECT_DOUBLE_EQ(p["wall_s"].get<double>(), 1300);      // 03:00:00 - 50 s .. 03:20:50
    EXPECT_DOUBLE_EQ(p["productive_s"].get<double>(), 240); // 50 + 50 + 40 + 50 + 50
    EXPECT_NEAR(p["goodput"].get<double>(), 240.0 / 1300.0, 1e-12);
}

TEST(TrainLog, MegatronDeepSpeedNanAndSkipped)
{
    const ImportResult r = importFile(kLogs + "megatron_deepspeed.log");
    ASSERT_TRUE(r.ok) << r.error;
    const auto& s = r.sessions[0];
    EXPECT_EQ(s.session.tool, "megatron-deepspeed");
    ASSERT_EQ(s.trainSteps.size(), 5u);
    EXPECT_TRUE(std::isnan(s.trainSteps[2].loss));
    EXPECT_NEAR(s.trainSteps[1].tokensPerSec, 256.0 * 2048 / 2.4 / 32, 1e-3); // tgs column
    EXPECT_DOUBLE_EQ(s.trainSteps[0].tflopsPerGpu, 151.32);
    EXPECT_EQ(countEvents(s.trainEvents, TrainEventKind::NanLoss), 1);
    EXPECT_EQ(countEvents(s.trainEvents, TrainEventKind::Skipped), 1);
    EXPECT_EQ(countEvents(s.trainEvents, TrainEventKind::Restart), 0);
    // No timestamps: wall = summed step times; the skipped iteration is not productive.
    EXPECT_FALSE(s.session.params["wall_from_timestamps"].get<bool>());
    EXPECT_NEAR(s.session.params["wall_s"].get<double>(), 2.5 + 4 * 2.4, 1e-9);
    EXPECT_NEAR(s.session.params["productive_s"].get<double>(), 2.5 + 3 * 2.4, 1e-9);
}

TEST(TrainLog, TorchtitanRestartOneRankAndStepTimeFromTimestamps)
{
    const ImportResult r = importFile(kLogs + "torchtitan_restart.log");
    ASSERT_TRUE(r.ok) << r.error;
    const auto& s = r.sessions[0];
    EXPECT_EQ(s.session.tool, "torchtitan");
    ASSERT_EQ(s.trainSteps.size(), 8u); // rank0 only: steps 1-5, then 4-6 after the restart
    EXPECT_EQ(s.trainSteps[5].step, 4);
    EXPECT_EQ(s.trainSteps[5].segment, 1);
    EXPECT_NEAR(s.trainSteps[1].stepTimeMs, 1100, 2);
    EXPECT_DOUBLE_EQ(s.trainSteps[2].tokensPerSec, 3401);
    EXPECT_NEAR(s.trainSteps[0].mfu, 0.3956, 1e-12);
    EXPECT_EQ(countEvents(s.trainEvents, TrainEventKind::Restart), 1);
    EXPECT_EQ(countEvents(s.trainEvents, TrainEventKind::TimeGap), 1);
    EXPECT_EQ(s.session.params["redone_iterations"], 2); // steps 4 and 5 again from checkpoint 3
    EXPECT_NEAR(s.session.params["goodput"].get<double>(), 6 * 1.1 / 323.3, 1e-3);
}

TEST(TrainLog, CsvWithGuessedColumns)
{
    const ImportResult r = importFile(kLogs + "metrics.csv");
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.format, "trainlog-table");
    const auto& s = r.sessions[0];
    ASSERT_EQ(s.trainSteps.size(), 6u);
    EXPECT_EQ(s.session.params["columns"]["loss"], "train/loss");
    EXPECT_DOUBLE_EQ(s.trainSteps[0].stepTimeMs, 1200);   // seconds column scaled
    EXPECT_DOUBLE_EQ(s.trainSteps[0].tokensPerSec, 27306); // quoted "27,306"
    EXPECT_NEAR(s.trainSteps[0].mfu, 0.412, 1e-12);        // percent column
    EXPECT_EQ(countEvents(s.trainEvents, TrainEventKind::NanLoss), 1);
    EXPECT_EQ(countEvents(s.trainEvents, TrainEventKind::Stall), 1); // 6 s vs 1.1 s median
}

// A step no integer holds (7.7e80) was cast to one: undefined behaviour. The row is skipped, named.
TEST(TrainLog, CsvStepThatIsNoWholeNumberSkipsTheRow)
{
    const ImportResult r = importFile(kLogs + "metrics_bad_step.csv");
    ASSERT_TRUE(r.ok) << r.error;
    ASSERT_EQ(r.sessions[0].trainSteps.size(), 2u);
    EXPECT_EQ(r.sessions[0].trainSteps[1].step, 3);
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_EQ(r.warnings[0].where.line, 3);
    EXPECT_NE(r.warnings[0].message.find("is not a whole number"), std::string::npos) << r.warnings[0].message;
}

TEST(TrainLog, JsonLinesWithRestartAndBadLine)
{
    const ImportResult r = importFile(kLogs + "metrics.jsonl");
    ASSERT_TRUE(r.ok) << r.error;
    const auto& s = r.sessions[0];
    ASSERT_EQ(s.trainSteps.size(), 4u);
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_EQ(r.warnings[0].where.line, 3);
    EXPECT_EQ(countEvents(s.trainEvents, TrainEventKind::Restart), 1);
    EXPECT_DOUBLE_EQ(s.trainSteps[0].mfu, 0.41);
}

TEST(TrainLog, ExplicitColumnMapping)
{
    trace::ColumnMapping m;
    m.step = "step";
    m.loss = "step_time_ms"; // deliberately odd: the mapping wins over guessing
    std::ifstream f(kLogs + "metrics.jsonl");
    ImportInput in{kLogs + "metrics.jsonl", f, {}, 0};
    const ImportResult r = trace::importTrainTable(in, {}, m);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_DOUBLE_EQ(r.sessions[0].trainSteps[0].loss, 850.5);
    EXPECT_TRUE(std::isnan(r.sessions[0].trainSteps[0].stepTimeMs));
}

TEST(TrainLog, TableColumnsComeFromTheHeaderOrTheFirstObjectInFileOrder)
{
    EXPECT_EQ(trace::trainTableColumns("it,\"lm loss\",elapsed (s)\r\n1,2,3\n"),
              (std::vector<std::string>{"it", "lm loss", "elapsed (s)"}));
    EXPECT_EQ(trace::trainTableColumns("step\tloss\n1\t2\n"), (std::vector<std::string>{"step", "loss"}));
    EXPECT_EQ(trace::trainTableColumns("\n{\"step\": 1, \"loss\": 2.5, \"b\": 0}\n"),
              (std::vector<std::string>{"step", "loss", "b"}));
    EXPECT_TRUE(trace::trainTableColumns("").empty());
    EXPECT_TRUE(trace::trainTableColumns("{not json\n").empty());
}

// A custom logger's column names defeat the guess (no step column): the file is not recognised
// until the user maps the columns, which ImportOptions carries to the table importer.
TEST(TrainLog, ImportOptionsColumnMappingImportsAnUnguessableTable)
{
    const std::string path = kLogs + "custom_logger_odd_columns.csv";
    EXPECT_FALSE(importFile(path).ok);
    ImportOptions options;
    trace::ColumnMapping m;
    m.step = "it";
    m.stepTime = "iter time (s)";
    m.stepTimeScale = 1000;
    m.mfu = "mfu (%)";
    m.mfuPercent = true;
    options.trainColumns = m;
    const ImportResult r = importFile(path, options, "trainlog-table");
    ASSERT_TRUE(r.ok) << r.error;
    const auto& steps = r.sessions.at(0).trainSteps;
    ASSERT_EQ(steps.size(), 6u);
    EXPECT_EQ(steps[0].step, 10);
    EXPECT_NEAR(steps[0].stepTimeMs, 1482, 1e-9);
    EXPECT_NEAR(steps[0].mfu, 0.384, 1e-12);
    EXPECT_TRUE(std::isnan(steps[0].loss)); // not mapped
}

// Importing the same table again with another mapping is another import (a new session with that
// mapping's values), not skipped as a duplicate of the bytes; the same mapping again is a duplicate.
TEST(TrainLog, ReimportWithAnotherColumnMappingIsANewSession)
{
    test::TempDir dir;
    const fs::path db = dir.path / "remap.db";
    {
        store::Workspace ws(db.string());
        const std::string path = kLogs + "custom_logger_odd_columns.csv";
        trace::ColumnMapping seconds;
        seconds.step = "it";
        seconds.stepTime = "iter time (s)";
        seconds.stepTimeScale = 1000;
        ImportOptions options;
        options.trainColumns = seconds;
        const auto first = store::importIntoWorkspace(ws, path, options, "trainlog-table");
        ASSERT_TRUE(first.ok) << first.error;
        EXPECT_FALSE(first.alreadyImported);
        const auto again = store::importIntoWorkspace(ws, path, options, "trainlog-table");
        EXPECT_TRUE(again.alreadyImported);
        EXPECT_EQ(again.sessionIds, first.sessionIds);

        trace::ColumnMapping withMfu = seconds;
        withMfu.mfu = "mfu (%)";
        withMfu.mfuPercent = true;
        options.trainColumns = withMfu;
        const auto second = store::importIntoWorkspace(ws, path, options, "trainlog-table");
        ASSERT_TRUE(second.ok) << second.error;
        EXPECT_FALSE(second.alreadyImported);
        ASSERT_EQ(second.sessionIds.size(), 1u);
        EXPECT_NE(second.sessionIds, first.sessionIds);
        const auto before = store::trainSteps(ws.database(), first.sessionIds.at(0));
        const auto after = store::trainSteps(ws.database(), second.sessionIds.at(0));
        ASSERT_EQ(before.size(), 6u);
        ASSERT_EQ(after.size(), 6u);
        EXPECT_TRUE(std::isnan(before[0].mfu)); // the first import is kept as it was
        EXPECT_NEAR(after[0].mfu, 0.384, 1e-12);
        EXPECT_EQ(ws.session(second.sessionIds[0])->params["columns"]["mapped_by"], "user");
    }
}

TEST(TrainLog, EmptyAndStepLessLogsAreRejected)
{
    EXPECT_FALSE(importFile(kLogs + "empty.log").ok);
    const ImportResult r = importFile(kLogs + "no_steps.log", {}, "trainlog");
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("no_steps.log"), std::string::npos) << r.error;
}

TEST(TrainLog, StoredSeriesAndEventsRoundTrip)
{
    test::TempDir dir;
    const fs::path db = dir.path / "trainlog.db";
    {
        store::Workspace ws(db.string());
        const auto out = store::importIntoWorkspace(ws, kLogs + "megatron_lm_restart.log");
        ASSERT_TRUE(out.ok) << out.error;
        const auto id = out.sessionIds.at(0);
        const auto steps = store::trainSteps(ws.database(), id);
        ASSERT_EQ(steps.size(), 6u);
        EXPECT_DOUBLE_EQ(steps[0].loss, 1.825991);
        EXPECT_TRUE(std::isnan(steps[0].mfu)); // not printed by Megatron: stored as NULL
        EXPECT_TRUE(steps[3].redone);
        const auto events = store::trainEvents(ws.database(), id);
        EXPECT_EQ(events.size(), 4u);
        EXPECT_EQ(ws.session(id)->params["restarts"], 1);
    }
}
