#include "gui/runs/probeoffer.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

#include "gui/runs/pytorchcheck.h"

namespace rl {

ProbeOffer::ProbeOffer(QWidget* parent)
    : QWidget(parent), m_check(new PytorchCheck(this)), m_text(new QLabel), m_open(new QPushButton)
{
    setObjectName(QStringLiteral("probeOffer"));
    m_text->setObjectName(QStringLiteral("probeOfferText"));
    m_text->setTextFormat(Qt::PlainText); // names paths and devices
    m_text->setWordWrap(true);
    m_text->setToolTip(tr("What `ridgeline-probe info` found on this machine: GEMM, memory bandwidth, attention, "
                          "collectives and a training step measured through PyTorch, no tool to build"));
    m_open->setObjectName(QStringLiteral("openProbeDialog"));
    m_open->setText(tr("Measure with the PyTorch probe…"));
    m_open->setToolTip(tr("Close this dialog and open the PyTorch probe's, with the launcher chosen here"));
    connect(m_open, &QPushButton::clicked, this, &ProbeOffer::probeRequested);
    connect(m_check, &PytorchCheck::checked, this, &ProbeOffer::showCheck);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_open);
    showCheck();
    m_check->start();
}

QString ProbeOffer::text() const { return m_text->text(); }

void ProbeOffer::showCheck()
{
    // Without PyTorch here the button stays: a launcher can run the probe on nodes that have it.
    m_text->setText(m_check->found() ? tr("PyTorch probe, no tool to build: %1").arg(m_check->text())
                                     : tr("PyTorch probe: %1").arg(m_check->text()));
    QFont font = m_open->font();
    font.setBold(m_check->found()); // offered first when it can run here
    m_open->setFont(font);
}
} // namespace rl
