#pragma once
// The line at the top of the GPU tool dialog that offers the PyTorch probe first: every GPU training
// node has PyTorch, while nccl-tests, the BLAS benches and the rest have to be built or found. It
// says which PyTorch and device the probe finds here (PytorchCheck), or that it finds none, and its
// button asks for the probe dialog.
#include <QWidget>

class QLabel;
class QPushButton;

namespace rl {
class PytorchCheck;

class ProbeOffer : public QWidget
{
    Q_OBJECT
public:
    explicit ProbeOffer(QWidget* parent = nullptr); // starts the check
    QString text() const;
    PytorchCheck* check() const { return m_check; }

signals:
    void probeRequested(); // "Measure with the PyTorch probe…"

private:
    void showCheck();

    PytorchCheck* m_check;
    QLabel* m_text;
    QPushButton* m_open;
};
} // namespace rl
