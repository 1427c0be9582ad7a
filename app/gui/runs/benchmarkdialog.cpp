#include "gui/runs/benchmarkdialog.h"
#include "gui/runs/formfields.h"

#include "collectives/collectivesweep.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "gui/runs/commandpreview.h"
#include "gui/runs/launcherwidget.h"
#include "settings.h"
#include "units/units.h"
#include "tonelabel.h"

namespace rl {
namespace {
using form::combo;
using form::countSpin;
using form::edit;
using form::spin;

// The runner's vocabulary, so every choice here is one ridgeline-bench accepts.
QStringList opNames()
{
    QStringList names;
    for (auto op : rl::benchmarkedOps())
        names << QString::fromUtf8(rl::toString(op));
    return names;
}
const QStringList kOps = opNames();
const QStringList kDtypes{QString::fromUtf8(rl::toString(rl::DataType::Float32)),
                          QString::fromUtf8(rl::toString(rl::DataType::Float64)),
                          QString::fromUtf8(rl::toString(rl::DataType::Int32))};
const QStringList kRedops{QString::fromUtf8(rl::toString(rl::ReduceOp::Sum)),
                          QString::fromUtf8(rl::toString(rl::ReduceOp::Max)),
                          QString::fromUtf8(rl::toString(rl::ReduceOp::Min))};
} // namespace

BenchmarkDialog::BenchmarkDialog(const QString& cliProgram, const QString& workspace, Settings* settings,
                                 QWidget* parent)
    : QDialog(parent), m_cli(cliProgram), m_workspace(workspace), m_settings(settings)
{
    setObjectName(QStringLiteral("benchmarkDialog"));
    setWindowTitle(tr("New collective benchmark"));

    auto* opsBox = new QGroupBox(tr("Operations"));
    auto* opsLayout = new QHBoxLayout(opsBox);
    for (const auto& op : kOps) {
        auto* c = new QCheckBox(op);
        c->setObjectName(QStringLiteral("op_") + op);
        c->setToolTip(tr("Measure %1").arg(op));
        opsLayout->addWidget(c);
        m_ops << c;
    }
    auto* dtypeBox = new QGroupBox(tr("Data types"));
    auto* dtypeLayout = new QHBoxLayout(dtypeBox);
    for (const auto& d : kDtypes) {
        auto* c = new QCheckBox(d);
        c->setObjectName(QStringLiteral("dtype_") + d);
        c->setToolTip(tr("Measure with %1 elements").arg(d));
        dtypeLayout->addWidget(c);
        m_dtypes << c;
    }

    m_minBytes = edit(QStringLiteral("minBytes"), tr("Smallest message size (-b), e.g. 8, 1K, 256M (binary units)"));
    m_maxBytes = edit(QStringLiteral("maxBytes"), tr("Largest message size (-e), e.g. 128M, 1G (binary units)"));
    m_factor = spin(QStringLiteral("factor"), 2, 1024, QStringLiteral(" ×"), tr("Size multiplier between steps (-f)"));
    m_redop = new QComboBox;
    m_redop->setObjectName(QStringLiteral("redop"));
    m_redop->addItems(kRedops);
    m_redop->setToolTip(tr("Reduction operation for all_reduce and reduce_scatter"));
    m_inPlace = new QCheckBox(tr("Also in-place"));
    m_inPlace->setObjectName(QStringLiteral("inPlace"));
    m_inPlace->setToolTip(tr("Measure the in-place variant (MPI_IN_PLACE) as well as out-of-place (--inplace both)"));
    m_iterations = countSpin(QStringLiteral("iterations"), 0, 100000, tr(" iteration"), tr(" iterations"),
                        tr("Timed iterations per size (-n); auto: as many as fit the time budget per size (like IMB: "
                           "many for small messages, few for large)"));
    m_iterations->setSpecialValueText(tr("auto (time budget)"));
    m_warmup = countSpin(QStringLiteral("warmup"), -1, 100000, tr(" iteration"), tr(" iterations"),
                    tr("Untimed warm-up iterations per size (-w); auto: in proportion to the timed ones"));
    m_warmup->setSpecialValueText(tr("auto"));
    m_launch = new LauncherWidget({LaunchSettings::Mode::LocalMpirun, LaunchSettings::Mode::Hostfile,
                                   LaunchSettings::Mode::Template},
                                  true, m_settings);
    m_title = edit(QStringLiteral("title"), tr("Session title (optional)"));

    m_sweep = new QLabel;
    m_sweep->setObjectName(QStringLiteral("sweepSummary"));
    m_sweep->setToolTip(tr("Sizes and points the sweep will measure"));
    m_problem = new QLabel;
    m_problem->setTextFormat(Qt::PlainText); // errors quote file, model and session names
    m_problem->setObjectName(QStringLiteral("problem"));
    setLabelTone(m_problem, LabelTone::Error);
    m_preview = new CommandPreview;
    m_preview->setObjectName(QStringLiteral("commandPreview"));
    m_preview->setToolTip(tr("The exact command Run will start"));

    auto* form = new QFormLayout;
    auto* sizes = new QHBoxLayout;
    sizes->addWidget(m_minBytes);
    sizes->addWidget(new QLabel(tr("to")));
    sizes->addWidget(m_maxBytes);
    sizes->addWidget(new QLabel(tr("step")));
    sizes->addWidget(m_factor);
    form->addRow(tr("Sizes:"), sizes);
    form->addRow(tr("Reduction:"), m_redop);
    form->addRow(QString(), m_inPlace);
    form->addRow(tr("Iterations:"), m_iterations);
    form->addRow(tr("Warm-up:"), m_warmup);
    form->addRow(tr("Title:"), m_title);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Run"));
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("runButton"));
    m_buttons->button(QDialogButtonBox::Ok)->setToolTip(tr("Start the benchmark; points appear as they are measured"));
    m_buttons->button(QDialogButtonBox::Cancel)->setToolTip(tr("Close without running"));
    auto* defaults = m_buttons->button(QDialogButtonBox::RestoreDefaults);
    defaults->setObjectName(QStringLiteral("restoreDefaults"));
    defaults->setToolTip(tr("Put every field back to its default (the last run is remembered until the next Run)"));
    connect(defaults, &QPushButton::clicked, this, [this] { setConfig(BenchmarkConfig{}); });
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(opsBox);
    layout->addWidget(dtypeBox);
    layout->addLayout(form);
    layout->addWidget(m_launch);
    layout->addWidget(m_sweep);
    layout->addWidget(new QLabel(tr("Command:")));
    layout->addWidget(m_preview);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);

    setConfig(m_settings ? BenchmarkConfig::fromJson(m_settings->collectiveBenchmark()) : BenchmarkConfig{});
    // Preferences' launcher wins over the last run's: it is what the user chose for every dialog.
    if (m_settings && !m_settings->defaultLaunch().isEmpty())
        m_launch->setLaunch(LaunchSettings::fromJson(m_settings->defaultLaunch(), m_launch->launch()));

    for (auto* c : m_ops + m_dtypes)
        connect(c, &QCheckBox::toggled, this, &BenchmarkDialog::updatePreview);
    for (auto* e : {m_minBytes, m_maxBytes, m_title})
        connect(e, &QLineEdit::textChanged, this, &BenchmarkDialog::updatePreview);
    for (auto* s : {m_factor, m_iterations, m_warmup})
        connect(s, &QSpinBox::valueChanged, this, &BenchmarkDialog::updatePreview);
    connect(m_redop, &QComboBox::currentTextChanged, this, &BenchmarkDialog::updatePreview);
    connect(m_inPlace, &QCheckBox::toggled, this, &BenchmarkDialog::updatePreview);
    connect(m_launch, &LauncherWidget::changed, this, &BenchmarkDialog::updatePreview);
    updatePreview();
}

BenchmarkConfig BenchmarkDialog::config() const
{
    BenchmarkConfig c;
    c.ops.clear();
    for (auto* box : m_ops)
        if (box->isChecked())
            c.ops << box->text();
    c.dtypes.clear();
    for (auto* box : m_dtypes)
        if (box->isChecked())
            c.dtypes << box->text();
    c.minBytes = m_minBytes->text().trimmed();
    c.maxBytes = m_maxBytes->text().trimmed();
    c.factor = m_factor->value();
    c.redop = m_redop->currentText();
    c.inPlace = m_inPlace->isChecked();
    c.iterations = m_iterations->value();
    c.warmup = m_warmup->value();
    c.launch = m_launch->launch();
    c.title = m_title->text().trimmed();
    return c;
}

void BenchmarkDialog::setConfig(const BenchmarkConfig& c)
{
    for (auto* box : m_ops)
        box->setChecked(c.ops.contains(box->text()));
    for (auto* box : m_dtypes)
        box->setChecked(c.dtypes.contains(box->text()));
    m_minBytes->setText(c.minBytes);
    m_maxBytes->setText(c.maxBytes);
    m_factor->setValue(c.factor);
    m_redop->setCurrentText(c.redop);
    m_inPlace->setChecked(c.inPlace);
    m_iterations->setValue(c.iterations);
    m_warmup->setValue(c.warmup);
    m_launch->setLaunch(c.launch);
    m_title->setText(c.title);
}

QString BenchmarkDialog::previewText() const { return m_preview->toPlainText(); }

void BenchmarkDialog::done(int result)
{
    if (result == QDialog::Accepted && m_settings)
        m_settings->setCollectiveBenchmark(config().toJson());
    QDialog::done(result);
}

void BenchmarkDialog::updatePreview()
{
    const BenchmarkConfig c = config();
    const QString problem = c.validate();
    m_problem->setText(problem);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
    const auto sizes = c.sizes();
    if (!sizes.empty())
        m_sweep->setText(tr("%1 sizes from %2 to %3, %4 points")
                             .arg(sizes.size())
                             .arg(QString::fromStdString(units::formatBytes(static_cast<double>(sizes.front()))),
                                  QString::fromStdString(units::formatBytes(static_cast<double>(sizes.back()))))
                             .arg(c.expectedPoints()));
    else
        m_sweep->clear();
    m_preview->setCommand(shellJoin(m_cli, c.cliArguments(m_workspace)));
}
} // namespace rl
