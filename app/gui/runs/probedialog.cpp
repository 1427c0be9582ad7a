#include "gui/runs/probedialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "gui/runs/benchmarkconfig.h" // cliArguments, shellJoin
#include "gui/runs/commandpreview.h"
#include "gui/runs/formfields.h"
#include "gui/runs/launcherwidget.h"
#include "gui/runs/pytorchcheck.h"
#include "gui/runs/runcontroller.h"
#include "settings.h"

namespace rl {
namespace {
QString what(const QString& probe)
{
    if (probe == QLatin1String("gemm"))
        return ProbeDialog::tr("GEMM rates over shapes and data types (torch.matmul, device events)");
    if (probe == QLatin1String("membw"))
        return ProbeDialog::tr("Memory bandwidth: STREAM copy/scale/add/triad from cache to HBM");
    if (probe == QLatin1String("attention"))
        return ProbeDialog::tr("scaled_dot_product_attention per backend, forward and backward (PyTorch 2.0+)");
    if (probe == QLatin1String("collectives"))
        return ProbeDialog::tr("torch.distributed collectives (NCCL/RCCL; gloo on the CPU), checked, nccl-tests busbw");
    return ProbeDialog::tr("A real training step of a model config, timed, with its profiler trace imported");
}
} // namespace

QString ProbeDialog::findProbe()
{
    if (const QString given = qEnvironmentVariable("RIDGELINE_PROBE"); !given.isEmpty())
        return given; // another build or install of the probe
    return RunController::findProgram(QStringLiteral("ridgeline-probe"), QStringLiteral("probe"));
}

QString ProbeDialog::defaultOptions(const QString& probe)
{
    if (probe == QLatin1String("gemm"))
        return QStringLiteral("--square 1024:8192 --dtypes bf16,fp16");
    if (probe == QLatin1String("attention"))
        return QStringLiteral("--seq 512:8192 --head-dims 64,128");
    if (probe == QLatin1String("collectives"))
        return QStringLiteral("-b 8 -e 1G -f 2");
    if (probe == QLatin1String("step"))
        return QStringLiteral("--model llama-3-8b --layers 4 --seq 2048");
    return {};
}

ProbeDialog::ProbeDialog(const QString& cliProgram, const QString& workspace, Settings* settings, QWidget* parent)
    : QDialog(parent), m_cli(cliProgram), m_workspace(workspace), m_settings(settings)
{
    setObjectName(QStringLiteral("probeDialog"));
    setWindowTitle(tr("New PyTorch probe run"));
    QStringList probes;
    for (const auto& p : runs::probeSubcommands())
        probes << QString::fromStdString(p);
    m_what = form::combo(QStringLiteral("probe"), probes, tr("What ridgeline-probe measures"));
    for (int i = 0; i < m_what->count(); ++i)
        m_what->setItemData(i, what(m_what->itemText(i)), Qt::ToolTipRole);
    m_options = form::edit(QStringLiteral("probeOptions"),
                           tr("The probe subcommand's own options (ridgeline-probe SUBCOMMAND --help lists them)"));
    m_device = form::combo(QStringLiteral("probeDevice"), {QStringLiteral("auto"), QStringLiteral("cuda"), QStringLiteral("cpu")},
                           tr("auto: the first GPU (CUDA or ROCm), else the CPU"));
    m_torch = new QLabel(tr("Looking for PyTorch…"));
    m_torch->setObjectName(QStringLiteral("pytorchStatus"));
    m_torch->setTextFormat(Qt::PlainText);
    m_torch->setWordWrap(true);
    m_torch->setToolTip(tr("What `ridgeline-probe info` found on this machine; a launcher runs it where its "
                           "processes start"));
    m_launch = new LauncherWidget({LaunchSettings::Mode::Local, LaunchSettings::Mode::LocalMpirun,
                                   LaunchSettings::Mode::Hostfile, LaunchSettings::Mode::Template},
                                  true, m_settings);
    m_environment = new QPlainTextEdit;
    m_environment->setObjectName(QStringLiteral("probeEnvironment"));
    m_environment->setToolTip(tr("NAME=VALUE per line, set for the probe and kept with the session, e.g. "
                                 "CUDA_VISIBLE_DEVICES=0 or NCCL_DEBUG=WARN"));
    m_environment->setTabChangesFocus(true);
    m_environment->setFixedHeight(m_environment->fontMetrics().lineSpacing() * 3 + 2 * m_environment->frameWidth() + 8);
    m_pointTimeout = form::spin(QStringLiteral("probePointTimeout"), 1, 86400, tr(" s"),
                                tr("Seconds one point may take before the probe ends the session failed"));
    m_title = form::edit(QStringLiteral("title"), tr("Session title (optional)"));
    m_problem = new QLabel;
    m_problem->setObjectName(QStringLiteral("problem"));
    m_problem->setTextFormat(Qt::PlainText);
    m_preview = new CommandPreview;
    m_preview->setObjectName(QStringLiteral("commandPreview"));
    m_preview->setToolTip(tr("The exact command Run will start"));
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Run"));
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("runButton"));

    auto* form = new QFormLayout;
    form->addRow(tr("Measure:"), m_what);
    form->addRow(tr("Options:"), m_options);
    form->addRow(tr("Device:"), m_device);
    form->addRow(tr("PyTorch here:"), m_torch);
    form->addRow(tr("Environment:"), m_environment);
    form->addRow(tr("Point timeout:"), m_pointTimeout);
    form->addRow(tr("Title:"), m_title);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_launch);
    layout->addWidget(new QLabel(tr("Command:")));
    layout->addWidget(m_preview);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);
    // Wide enough that PyTorch's description and the command take two lines, not four: at its
    // narrow hint the dialog needed more height than a 1280x720 screen has and squeezed the
    // #SBATCH field under the job folder row.
    setMinimumWidth(720);

    runs::RunRequest initial = runs::RunRequest::defaults(runs::RunKind::Probe);
    initial.probe = "gemm";
    if (m_settings && !m_settings->probeRun().isEmpty()) {
        try {
            const QByteArray json = QJsonDocument(m_settings->probeRun()).toJson(QJsonDocument::Compact);
            initial = runs::runRequestFromJson(nlohmann::json::parse(json.toStdString()));
        } catch (const std::exception&) {
            // an unreadable remembered request: the defaults
        }
    }
    setRequest(initial);
    if (initial.args.empty())
        m_options->setText(defaultOptions(m_what->currentText()));
    m_lastDefault = defaultOptions(m_what->currentText());

    connect(m_what, &QComboBox::currentTextChanged, this, [this](const QString& probe) {
        // A new choice fills in its own options unless the user wrote some.
        if (m_options->text().trimmed() == m_lastDefault.trimmed())
            m_options->setText(defaultOptions(probe));
        m_lastDefault = defaultOptions(probe);
        updatePreview();
    });
    for (auto* e : {m_options, m_title})
        connect(e, &QLineEdit::textChanged, this, &ProbeDialog::updatePreview);
    connect(m_device, &QComboBox::currentTextChanged, this, &ProbeDialog::updatePreview);
    connect(m_environment, &QPlainTextEdit::textChanged, this, &ProbeDialog::updatePreview);
    connect(m_pointTimeout, &QSpinBox::valueChanged, this, &ProbeDialog::updatePreview);
    connect(m_launch, &LauncherWidget::changed, this, &ProbeDialog::updatePreview);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    updatePreview();
    checkPytorch();
}

ProbeDialog::~ProbeDialog() = default;

runs::RunRequest ProbeDialog::request() const
{
    runs::RunRequest r = runs::RunRequest::defaults(runs::RunKind::Probe);
    r.probe = m_what->currentText().toStdString();
    for (const auto& w : form::words(m_options->text()))
        r.args.push_back(w.toStdString());
    if (m_device->currentText() != QLatin1String("auto"))
        r.args.insert(r.args.end(), {"--device", m_device->currentText().toStdString()});
    r.launch = m_launch->launch().toLaunch();
    for (const auto& e : form::settingLines(m_environment->toPlainText()))
        r.env.push_back(e.toStdString());
    r.pointTimeoutS = m_pointTimeout->value();
    r.title = m_title->text().trimmed().toStdString();
    return r;
}

void ProbeDialog::setRequest(const runs::RunRequest& r)
{
    m_what->setCurrentText(QString::fromStdString(r.probe.empty() ? std::string("gemm") : r.probe));
    QStringList options;
    QString device = QStringLiteral("auto");
    for (std::size_t i = 0; i < r.args.size(); ++i) {
        if (r.args[i] == "--device" && i + 1 < r.args.size()) {
            device = QString::fromStdString(r.args[++i]);
            continue;
        }
        options << QString::fromStdString(r.args[i]);
    }
    m_options->setText(options.join(u' '));
    m_device->setCurrentText(device);
    const LaunchSettings l = LaunchSettings::fromLaunch(r.launch, m_launch->launch());
    m_launch->setLaunch(l);
    QStringList env;
    for (const auto& e : r.env)
        env << QString::fromStdString(e);
    m_environment->setPlainText(env.join(u'\n'));
    m_pointTimeout->setValue(static_cast<int>(r.pointTimeout()));
    m_title->setText(QString::fromStdString(r.title));
}

void ProbeDialog::setLaunch(const LaunchSettings& launch) { m_launch->setLaunch(launch); }

QStringList ProbeDialog::cliArguments() const { return rl::cliArguments(m_workspace, request()); }
QString ProbeDialog::previewText() const { return m_preview->toPlainText(); }
QString ProbeDialog::problem() const { return m_problem->text(); }
QString ProbeDialog::pytorchStatus() const { return m_torch->text(); }

void ProbeDialog::done(int result)
{
    if (result == QDialog::Accepted && m_settings) {
        const std::string json = runs::toJson(request()).dump();
        m_settings->setProbeRun(QJsonDocument::fromJson(QByteArray::fromStdString(json)).object());
    }
    QDialog::done(result);
}

void ProbeDialog::checkPytorch()
{
    auto* check = new PytorchCheck(this);
    connect(check, &PytorchCheck::checked, this, [this, check] {
        m_torch->setText(check->text());
        emit pytorchChecked();
    });
    check->start();
}

void ProbeDialog::updatePreview()
{
    const runs::RunRequest r = request();
    const QString problem = sentence(r.validate());
    m_problem->setText(problem);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
    m_what->setToolTip(what(m_what->currentText()));
    m_preview->setCommand(shellJoin(m_cli, cliArguments()));
}
} // namespace rl
