#pragma once
// Which PyTorch and device the probe finds here: `ridgeline-probe info`, asked in the background.
// The probe dialog says it next to its form; the GPU tool dialog offers the probe with it.
#include <QObject>
#include <QString>

class QProcess;

namespace rl {

class PytorchCheck : public QObject
{
    Q_OBJECT
public:
    explicit PytorchCheck(QObject* parent = nullptr);
    ~PytorchCheck() override; // a check still running is killed

    void start(); // once; the answer comes with checked()
    bool isDone() const { return m_done; }
    bool found() const { return m_found; } // the probe ran and reported PyTorch
    // "PyTorch 2.11.0 (Python 3.12.3), cuda: NVIDIA H200", or why not ("Not found here (...)").
    QString text() const { return m_text; }

signals:
    void checked(); // text() and found() are final

private:
    void finish(const QString& text, bool found);

    QProcess* m_process = nullptr;
    QString m_text;
    bool m_found = false;
    bool m_done = false;
};
} // namespace rl
