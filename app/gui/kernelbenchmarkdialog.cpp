#include "kernelbenchmarkdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QVBoxLayout>

#include "benchmarkconfig.h"

namespace rl {

QString KernelBenchmarkDialog::defaultArguments(const QString& kind)
{
    // Short runs that still say something: a minute or less on a laptop.
    if (kind == QLatin1String("membw"))
        return QStringLiteral("--steps-per-octave 1 --repeats 5");
    if (kind == QLatin1String("gemm"))
        return QStringLiteral("-m 256:2048:256 --dtypes float64,float32 --repeats 3");
    return QStringLiteral("--seconds 0.3 --repeats 3");
}

KernelBenchmarkDialog::KernelBenchmarkDialog(const QString& cliProgram, const QString& workspace, QWidget* parent)
    : QDialog(parent), m_cli(cliProgram), m_workspace(workspace), m_kind(new QComboBox), m_args(new QLineEdit),
      m_preview(new QLabel)
{
    setWindowTitle(tr("New kernel benchmark"));
    m_kind->setObjectName(QStringLiteral("kernelKind"));
    m_kind->addItem(tr("Peak FLOP/s (FMA loops per dtype and thread count)"), QStringLiteral("peakflops"));
    m_kind->addItem(tr("Memory bandwidth (STREAM over working-set sizes)"), QStringLiteral("membw"));
    m_kind->addItem(tr("GEMM sweep (Eigen on OpenBLAS)"), QStringLiteral("gemm"));
    m_kind->setToolTip(tr("What ridgeline-bench measures; each run becomes a session of that kind"));
    m_args->setObjectName(QStringLiteral("kernelArgs"));
    m_args->setToolTip(tr("Arguments of ridgeline-bench for this benchmark (see `ridgeline-bench KIND --help`), "
                          "e.g. -m 1024:8192:1024 for GEMM sizes or --threads 1,2"));
    m_preview->setObjectName(QStringLiteral("kernelPreview"));
    m_preview->setWordWrap(true);
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* form = new QFormLayout;
    form->addRow(tr("Benchmark:"), m_kind);
    form->addRow(tr("Arguments:"), m_args);
    form->addRow(tr("Command:"), m_preview);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Run"));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] { m_args->setText(defaultArguments(benchmark())); });
    connect(m_args, &QLineEdit::textChanged, this, &KernelBenchmarkDialog::updatePreview);
    m_args->setText(defaultArguments(benchmark()));
    updatePreview();
}

QString KernelBenchmarkDialog::benchmark() const { return m_kind->currentData().toString(); }

void KernelBenchmarkDialog::setBenchmark(const QString& kind)
{
    m_kind->setCurrentIndex(std::max(0, m_kind->findData(kind)));
    m_args->setText(defaultArguments(benchmark()));
}

QString KernelBenchmarkDialog::runnerArguments() const { return m_args->text(); }

void KernelBenchmarkDialog::setRunnerArguments(const QString& args) { m_args->setText(args); }

QStringList KernelBenchmarkDialog::cliArguments() const
{
    QStringList args{QStringLiteral("--db"), m_workspace, QStringLiteral("run"), benchmark(), QStringLiteral("--")};
    return args + QProcess::splitCommand(m_args->text());
}

QString KernelBenchmarkDialog::previewText() const { return m_preview->text(); }

void KernelBenchmarkDialog::updatePreview()
{
    m_preview->setText(shellJoin(m_cli, cliArguments()));
}
} // namespace rl
