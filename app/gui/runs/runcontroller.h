#pragma once
// Runs a benchmark (collectives, or a kernel benchmark) as a ridgeline-cli process (hotspot's
// PerfRecord): the CLI stores every point in the workspace itself and echoes it as a JSON line,
// which this class turns into signals.
// Cancel sends SIGTERM; the CLI forwards it to every rank and marks the session cancelled.
#include <QObject>
#include <QPointer>
#include <QProcess>

#include <cstdint>

#include "records/collectivepoint.h"

namespace rl {

class RunController : public QObject
{
    Q_OBJECT
public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    // ridgeline-cli next to this program (installed) or in the build tree (../cli/).
    static QString findCli();
    // One of Ridgeline's programs next to this one (installed), in the build tree (../SUBDIR/), or
    // the bare name (found on PATH).
    static QString findProgram(const QString& name, const QString& buildSubdir);

    bool isRunning() const;
    // Cancel was asked and the process is still ending (the CLI stores "cancelled" and exits).
    bool isCancelling() const { return isRunning() && m_cancelRequested; }
    std::int64_t sessionId() const { return m_sessionId; }
    int pointsDone() const { return m_points; }
    int pointsExpected() const { return m_expected; }

    void start(const QString& program, const QStringList& arguments, int expectedPoints);
    void cancel();
    // Lets the process outlive this object (and the GUI): it keeps writing to the store.
    void detach();

signals:
    void runStarted(std::int64_t sessionId);
    void pointAvailable(std::int64_t sessionId, const rl::CollectivePoint& point);
    // A kernel benchmark stored a point or a ceiling (the view reloads them from the store).
    void kernelRecordAvailable(std::int64_t sessionId);
    // A storage (io) or pairs point was stored (the view reloads it from the store).
    void storedPointAvailable(std::int64_t sessionId);
    // A probe record kept in the session's params was stored: an attention rate, a timed step, a
    // reference ratio (the view reloads the session).
    void keptRecordAvailable(std::int64_t sessionId);
    void progressChanged(int done, int expected);
    void runFinished(std::int64_t sessionId, const QString& status, const QString& message);
    void runFailed(const QString& message);

private:
    void readOutput();
    void handleLine(const QByteArray& line);
    void onFinished(int exitCode, QProcess::ExitStatus status);

    QPointer<QProcess> m_process;
    QByteArray m_buffer;
    QByteArray m_stderrTail;
    std::int64_t m_sessionId = 0;
    int m_points = 0;
    int m_expected = 0;
    bool m_sawEnd = false;
    bool m_cancelRequested = false;
};
} // namespace rl
