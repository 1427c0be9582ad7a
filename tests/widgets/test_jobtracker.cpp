// JobTracker: only the latest job delivers, progress arrives in order, cancel delivers nothing,
// and a destroyed owner gets nothing.
#include <QSignalSpy>
#include <QThread>
#include <QThreadPool>

#include <atomic>
#include <memory>

#include "jobtracker.h"
#include "test_gui_env.h"

using rl::JobControl;
using rl::JobTracker;
using rl::testing::waitFor;

TEST(JobTracker, DeliversOnlyTheLatestGeneration)
{
    QObject owner;
    auto* tracker = new JobTracker(&owner);
    auto release = std::make_shared<std::atomic<bool>>(false);
    std::vector<int> delivered;
    // The first job blocks until released, so it finishes after the second one was started.
    tracker->start<int>(
        [release](JobControl<int>&) {
            while (!release->load())
                QThread::msleep(1);
            return 1;
        },
        [&](int v) { delivered.push_back(v); });
    tracker->start<int>([](JobControl<int>&) { return 2; }, [&](int v) { delivered.push_back(v); });
    ASSERT_TRUE(waitFor([&] { return !delivered.empty(); }));
    release->store(true);
    QThreadPool::globalInstance()->waitForDone(5000);
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
    EXPECT_EQ(delivered, std::vector<int>{2});
    EXPECT_FALSE(tracker->isRunning());
    EXPECT_EQ(tracker->generation(), 2u);
}

TEST(JobTracker, ReportsProgressInPermille)
{
    QObject owner;
    auto* tracker = new JobTracker(&owner);
    QSignalSpy progress(tracker, &JobTracker::progressChanged);
    QSignalSpy finished(tracker, &JobTracker::jobFinished);
    int result = 0;
    tracker->start<int>(
        [](JobControl<int>& c) {
            for (int i = 0; i <= 4; ++i) {
                c.setProgress(i * 250, 1000, QStringLiteral("step"));
                QThread::msleep(20);
            }
            return 42;
        },
        [&](int v) { result = v; });
    ASSERT_TRUE(finished.wait(10000));
    EXPECT_EQ(result, 42);
    ASSERT_GE(progress.size(), 2);
    int last = -2;
    for (const auto& args : progress) {
        EXPECT_GE(args.at(0).toInt(), last) << "progress never goes back";
        last = args.at(0).toInt();
    }
    EXPECT_EQ(last, 1000);
    EXPECT_EQ(progress.last().at(1).toString(), QStringLiteral("step"));
}

TEST(JobTracker, CancelStopsTheJobAndDeliversNothing)
{
    QObject owner;
    auto* tracker = new JobTracker(&owner);
    QSignalSpy canceled(tracker, &JobTracker::jobCanceled);
    auto sawCancel = std::make_shared<std::atomic<bool>>(false);
    auto started = std::make_shared<std::atomic<bool>>(false);
    bool delivered = false;
    tracker->start<int>(
        [sawCancel, started](JobControl<int>& c) {
            started->store(true);
            for (int i = 0; i < 10000 && !c.isCanceled(); ++i)
                QThread::msleep(1);
            sawCancel->store(c.isCanceled());
            return 7;
        },
        [&](int) { delivered = true; });
    EXPECT_TRUE(tracker->isRunning());
    ASSERT_TRUE(waitFor([&] { return started->load(); })); // a job cancelled before it starts never runs
    tracker->cancel();
    ASSERT_TRUE(canceled.wait(10000));
    EXPECT_TRUE(sawCancel->load());
    EXPECT_FALSE(delivered);
    EXPECT_FALSE(tracker->isRunning());
}

TEST(JobTracker, DestroyedOwnerGetsNothing)
{
    auto owner = std::make_unique<QObject>();
    auto* tracker = new JobTracker(owner.get());
    auto release = std::make_shared<std::atomic<bool>>(false);
    bool delivered = false;
    tracker->start<int>(
        [release](JobControl<int>&) {
            while (!release->load())
                QThread::msleep(1);
            return 1;
        },
        [&delivered](int) { delivered = true; });
    owner.reset(); // deletes the tracker and its watcher with it
    release->store(true);
    QThreadPool::globalInstance()->waitForDone(5000);
    QCoreApplication::processEvents();
    EXPECT_FALSE(delivered);
}
