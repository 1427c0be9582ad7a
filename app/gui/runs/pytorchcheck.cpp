#include "gui/runs/pytorchcheck.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include "gui/runs/probedialog.h" // findProbe

namespace rl {

PytorchCheck::PytorchCheck(QObject* parent)
    : QObject(parent), m_text(tr("Looking for PyTorch…"))
{
}

PytorchCheck::~PytorchCheck()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(1000);
    }
}

void PytorchCheck::start()
{
    if (m_process || m_done)
        return;
    m_process = new QProcess(this);
    connect(m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        const QByteArray out = m_process->readAllStandardOutput();
        const QByteArray err = m_process->readAllStandardError().trimmed();
        const QJsonObject info = QJsonDocument::fromJson(out).object();
        if (status != QProcess::NormalExit || code != 0 || info.isEmpty()) {
            finish(tr("Not found here (%1). A launcher can still run the probe on nodes that have it.")
                       .arg(err.isEmpty() ? tr("ridgeline-probe info exited with code %1").arg(code)
                                          : QString::fromUtf8(err.split('\n').last())),
                   false);
            return;
        }
        const QString device = info.value(QStringLiteral("device")).toString();
        QString text = tr("PyTorch %1 (Python %2), %3: %4")
                           .arg(info.value(QStringLiteral("pytorch")).toString(),
                                info.value(QStringLiteral("python")).toString(), device,
                                info.value(QStringLiteral("device_name")).toString());
        if (device == QLatin1String("cpu"))
            text += tr(" - no GPU: the figures will be this CPU's");
        if (!info.value(QStringLiteral("sdpa")).toBool(true))
            text += tr("; no scaled_dot_product_attention (PyTorch before 2.0): attention is skipped");
        finish(text, true);
    });
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            finish(tr("ridgeline-probe could not start (%1).").arg(m_process->errorString()), false);
    });
    m_process->start(ProbeDialog::findProbe(), {QStringLiteral("info")});
}

void PytorchCheck::finish(const QString& text, bool found)
{
    m_text = text;
    m_found = found;
    m_done = true;
    m_process->deleteLater();
    m_process = nullptr;
    emit checked();
}
} // namespace rl
