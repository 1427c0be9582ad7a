#include "gui/runs/kernelbenchmarkdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QJsonObject>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QVBoxLayout>

#include "gui/runs/benchmarkconfig.h"
#include "runs/runrequest.h"
#include "gui/runs/commandpreview.h"
#include "settings.h"

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

KernelBenchmarkDialog::KernelBenchmarkDialog(const QString& cliProgram, const QString& workspace, Settings* settings,
                                             QWidget* parent)
    : QDialog(parent), m_cli(cliProgram), m_workspace(workspace), m_settings(settings), m_kind(new QComboBox),
      m_args(new QLineEdit), m_preview(new CommandPreview)
{
    setObjectName(QStringLiteral("kernelBenchmarkDialog"));
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
    m_preview->setToolTip(tr("The exact command Run will start"));
    auto* form = new QFormLayout;
    form->addRow(tr("Benchmark:"), m_kind);
    form->addRow(tr("Arguments:"), m_args);
    form->addRow(tr("Command:"), m_preview);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Run"));
    buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("runButton"));
    auto* defaults = buttons->button(QDialogButtonBox::RestoreDefaults);
    defaults->setObjectName(QStringLiteral("restoreDefaults"));
    defaults->setToolTip(tr("The first benchmark with its default arguments (the last run is remembered until the "
                            "next Run)"));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] { m_args->setText(argumentsFor(benchmark())); });
    connect(m_args, &QLineEdit::textChanged, this, &KernelBenchmarkDialog::updatePreview);
    connect(defaults, &QPushButton::clicked, this, [this] {
        m_lastArgs.clear();
        m_kind->setCurrentIndex(0);
        m_args->setText(defaultArguments(benchmark()));
    });

    const QJsonObject saved = m_settings ? m_settings->kernelBenchmark() : QJsonObject{};
    if (saved.value(QStringLiteral("version")).toInt() == kJsonVersion) {
        const QJsonObject args = saved.value(QStringLiteral("arguments")).toObject();
        for (auto it = args.begin(); it != args.end(); ++it)
            if (m_kind->findData(it.key()) >= 0 && it.value().isString())
                m_lastArgs.insert(it.key(), it.value().toString());
        m_kind->setCurrentIndex(std::max(0, m_kind->findData(saved.value(QStringLiteral("kind")).toString())));
    }
    m_args->setText(argumentsFor(benchmark()));
    updatePreview();
}

QString KernelBenchmarkDialog::argumentsFor(const QString& kind) const
{
    return m_lastArgs.value(kind, defaultArguments(kind));
}

void KernelBenchmarkDialog::done(int result)
{
    if (result == QDialog::Accepted && m_settings) {
        m_lastArgs.insert(benchmark(), runnerArguments());
        QJsonObject args;
        for (auto it = m_lastArgs.cbegin(); it != m_lastArgs.cend(); ++it)
            args.insert(it.key(), it.value());
        m_settings->setKernelBenchmark(QJsonObject{{QStringLiteral("version"), kJsonVersion},
                                                   {QStringLiteral("kind"), benchmark()},
                                                   {QStringLiteral("arguments"), args}});
    }
    QDialog::done(result);
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
    const auto* kind = runs::runKindNamed(benchmark().toStdString());
    runs::RunRequest r = runs::RunRequest::defaults(kind ? kind->kind : runs::RunKind::PeakFlops);
    for (const auto& a : QProcess::splitCommand(m_args->text()))
        r.args.push_back(a.toStdString());
    return rl::cliArguments(m_workspace, r);
}

QString KernelBenchmarkDialog::previewText() const { return m_preview->toPlainText(); }

void KernelBenchmarkDialog::updatePreview()
{
    m_preview->setCommand(shellJoin(m_cli, cliArguments()));
}
} // namespace rl
