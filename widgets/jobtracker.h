#pragma once
// One helper for all in-process background work (hotspot's JobTracker, on QtConcurrent + QPromise).
// start() runs a job on the global thread pool and delivers its result on the GUI thread, but only
// when it is still the latest job and the owner still exists: starting a new job cancels and
// supersedes the running one, and a closed view gets nothing. Jobs capture values, never `this`.
#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>

namespace rl {

// What a running job sees: cooperative cancel and throttled progress.
template <typename T>
class JobControl
{
public:
    explicit JobControl(QPromise<T>& promise) : m_promise(promise) {}
    bool isCanceled() const { return m_promise.isCanceled(); }
    // done/total in any unit (bytes, points); reported in 0.1 % steps so signals stay cheap.
    void setProgress(std::int64_t done, std::int64_t total, const QString& text = {})
    {
        if (total <= 0)
            return;
        const int permille = static_cast<int>(std::min<std::int64_t>(1000, done * 1000 / total));
        if (permille == m_lastPermille && text == m_lastText)
            return;
        if (m_lastPermille < 0)
            m_promise.setProgressRange(0, 1000); // leaves "indeterminate" at the first real tick
        m_lastPermille = permille;
        m_lastText = text;
        m_promise.setProgressValueAndText(permille, text);
    }

private:
    QPromise<T>& m_promise;
    int m_lastPermille = -1;
    QString m_lastText;
};

class JobTracker : public QObject
{
    Q_OBJECT
public:
    explicit JobTracker(QObject* owner) : QObject(owner), m_owner(owner) {}
    ~JobTracker() override { cancel(); }

    bool isRunning() const { return m_running; }
    std::uint64_t generation() const { return m_generation; }

    // job: T(JobControl<T>&), run on a worker thread. deliver: void(T), run on the GUI thread.
    template <typename T, typename Job, typename Deliver>
    void start(Job job, Deliver deliver)
    {
        static_assert(std::is_invocable_r_v<T, Job&, JobControl<T>&>, "job must be T(JobControl<T>&)");
        cancel();
        const auto gen = ++m_generation;
        m_running = true;
        auto* watcher = new QFutureWatcher<T>(this);
        m_cancelCurrent = [watcher] { watcher->future().cancel(); };
        connect(watcher, &QFutureWatcherBase::progressRangeChanged, this, [this, gen](int, int maximum) {
            if (gen == m_generation && maximum == 0)
                emit progressChanged(-1, {});
        });
        connect(watcher, &QFutureWatcherBase::progressValueChanged, this, [this, gen, watcher](int value) {
            if (gen == m_generation)
                emit progressChanged(value, watcher->progressText());
        });
        connect(watcher, &QFutureWatcherBase::finished, this, [this, gen, watcher, deliver = std::move(deliver)] {
            watcher->deleteLater();
            if (gen != m_generation)
                return; // superseded: a newer job owns the view
            m_running = false;
            m_cancelCurrent = nullptr;
            QFuture<T> future = watcher->future();
            if (future.isCanceled() || future.resultCount() == 0 || !m_owner) {
                emit jobCanceled();
                return;
            }
            deliver(future.takeResult()); // moved, not copied: a result can hold a million table rows
            emit jobFinished();
        });
        watcher->setFuture(QtConcurrent::run([job = std::move(job)](QPromise<T>& promise) mutable {
            JobControl<T> control(promise);
            T result = job(control);
            if (!promise.isCanceled())
                promise.addResult(std::move(result));
        }));
        emit jobStarted();
    }

    // Asks the running job to stop; it delivers nothing.
    void cancel()
    {
        if (m_cancelCurrent)
            m_cancelCurrent();
    }

signals:
    void jobStarted();
    void progressChanged(int permille, const QString& text); // permille -1: indeterminate
    void jobFinished();
    void jobCanceled();

private:
    QPointer<QObject> m_owner;
    std::uint64_t m_generation = 0;
    bool m_running = false;
    std::function<void()> m_cancelCurrent;
};
} // namespace rl
