#include "gui/runs/runcontroller.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <algorithm>
#include <utility>

#include <nlohmann/json.hpp>

#include "records/keptrecords.h"
#include "records/recordroute.h"
#include "records/wireformat.h"

namespace rl {

RunController::RunController(QObject* parent) : QObject(parent) {}

RunController::~RunController()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->terminate(); // the owner chose "cancel" or never asked: do not orphan ranks
        m_process->waitForFinished(5000);
    }
}

QString RunController::findCli() { return findProgram(QStringLiteral("ridgeline-cli"), QStringLiteral("cli")); }

QString RunController::findProgram(const QString& name, const QString& buildSubdir)
{
    const QString dir = QCoreApplication::applicationDirPath();
    // A QStringList, not a braced list of `dir + ...`: with QT_USE_QSTRINGBUILDER those elements
    // are QStringBuilder objects that refer to temporaries destroyed before the loop body runs.
    const QStringList candidates{dir + u'/' + name, dir + QStringLiteral("/../") + buildSubdir + u'/' + name};
    for (const QString& candidate : candidates) {
        const QFileInfo info(candidate);
        if (info.isExecutable())
            return info.canonicalFilePath();
    }
    return name; // on PATH
}

bool RunController::isRunning() const { return m_process && m_process->state() != QProcess::NotRunning; }

void RunController::start(const QString& program, const QStringList& arguments, int expectedPoints)
{
    if (isRunning()) {
        emit runFailed(tr("A benchmark is already running."));
        return;
    }
    m_buffer.clear();
    m_stderrTail.clear();
    m_sessionId = 0;
    m_points = 0;
    m_expected = expectedPoints;
    m_sawEnd = false;
    m_cancelRequested = false;
    m_process = new QProcess(this);
    connect(m_process, &QProcess::readyReadStandardOutput, this, &RunController::readOutput);
    connect(m_process, &QProcess::readyReadStandardError, this, [this] {
        m_stderrTail += m_process->readAllStandardError();
        if (m_stderrTail.size() > 4096)
            m_stderrTail = m_stderrTail.right(4096);
    });
    connect(m_process, &QProcess::errorOccurred, this, [this, program](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            emit runFailed(QFileInfo(program).isAbsolute()
                               ? tr("Could not start %1: %2").arg(program, m_process->errorString())
                               : tr("Could not start %1: it is neither next to this program (%2) nor on PATH. "
                                    "Install Ridgeline's programs together, or put ridgeline-cli on PATH.")
                                     .arg(program, QCoreApplication::applicationDirPath()));
    });
    connect(m_process, &QProcess::finished, this, &RunController::onFinished);
    emit progressChanged(0, m_expected);
    m_process->start(program, arguments);
}

void RunController::cancel()
{
    if (!isRunning())
        return;
    m_cancelRequested = true;
    m_process->terminate(); // SIGTERM: the CLI forwards it to the ranks and stores "cancelled"
}

void RunController::detach()
{
    if (!isRunning())
        return;
    // QProcess kills its child when destroyed; a run the user wants kept must outlive us, so the
    // object is released on purpose. The CLI ignores SIGPIPE once nobody reads its output.
    m_process->disconnect(this);
    m_process->setParent(nullptr);
    m_process.clear();
}

void RunController::readOutput()
{
    m_buffer += m_process->readAllStandardOutput();
    qsizetype nl;
    while ((nl = m_buffer.indexOf('\n')) >= 0) {
        const QByteArray line = m_buffer.left(nl);
        m_buffer.remove(0, nl + 1);
        handleLine(line);
    }
}

void RunController::handleLine(const QByteArray& line)
{
    const std::string_view text(line.constData(), static_cast<size_t>(line.size()));
    std::optional<wire::StoredLine> stored;
    try {
        stored = wire::parseStoredLine(text);
        if (!stored)
            return;
    } catch (const std::exception&) {
        return; // not a record (launcher chatter); the CLI already passed it to stderr
    }
    const std::int64_t sessionId = stored->sessionId.value_or(m_sessionId);
    const wire::Record* rec = &stored->record;
    if (auto* h = std::get_if<wire::SessionHeader>(rec)) {
        // The CLI repeats the header once the runner said how many points it will measure.
        const auto& params = h->session.params;
        if (params.is_object()) {
            // ridgeline-bench says it under "runner"; the GPU tools' GEMM runs at the top level.
            const auto& runner = params.value("runner", nlohmann::json::object());
            if (runner.is_object() && runner.value("expected_points", 0) > 0)
                m_expected = runner.value("expected_points", 0);
            else if (const auto it = params.find("expected_points");
                     it != params.end() && it->is_number_integer() && it->get<int>() > 0)
                m_expected = it->get<int>();
        }
        if (sessionId == m_sessionId && m_sessionId != 0) {
            emit progressChanged(m_points, std::max(m_expected, m_points));
            return;
        }
        m_sessionId = sessionId;
        emit runStarted(m_sessionId);
    } else if (wire::isSessionData(*rec)) {
        // A point counts toward progress; a derived record (a ceiling) only refreshes its charts.
        const bool point = wire::roleOf(*rec) == wire::RecordRole::Point;
        m_points += point ? 1 : 0;
        switch (wire::familyOf(*rec)) {
        case wire::RecordFamily::Collective: emit pointAvailable(sessionId, std::get<CollectivePoint>(*rec)); break;
        case wire::RecordFamily::Kernel: emit kernelRecordAvailable(sessionId); break;
        case wire::RecordFamily::Storage: emit storedPointAvailable(sessionId); break;
        case wire::RecordFamily::None: break;
        }
        if (point)
            emit progressChanged(m_points, std::max(m_expected, m_points));
    } else if (auto* raw = std::get_if<wire::RawRecord>(rec); raw && !keptRecordKey(raw->record).empty()) {
        // The probe's attention rates and timed steps, kept in the session's params as they come.
        if (keptRecordIsPoint(raw->record)) {
            ++m_points;
            emit progressChanged(m_points, std::max(m_expected, m_points));
        }
        emit keptRecordAvailable(sessionId);
    } else if (auto* e = std::get_if<wire::End>(rec)) {
        m_sawEnd = true;
        emit runFinished(sessionId, QString::fromLatin1(toString(e->status)), QString::fromStdString(e->message));
    }
}

void RunController::onFinished(int exitCode, QProcess::ExitStatus status)
{
    readOutput();
    if (!m_buffer.isEmpty())
        handleLine(std::exchange(m_buffer, {}));
    if (!m_sawEnd) {
        QString msg = status == QProcess::CrashExit ? tr("ridgeline-cli crashed")
                                                    : tr("ridgeline-cli exited with code %1").arg(exitCode);
        if (!m_stderrTail.trimmed().isEmpty())
            msg += QStringLiteral(": ") + QString::fromLocal8Bit(m_stderrTail.trimmed());
        emit runFailed(msg);
    }
    m_process->deleteLater();
    m_process.clear();
}
} // namespace rl
