#include "gui/runs/gputooldialog.h"
#include "gui/runs/formfields.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <stdexcept>

#include "gui/runs/benchmarkconfig.h" // shellJoin
#include "gui/runs/commandpreview.h"
#include "gui/runs/probeoffer.h"
#include "model/modelconfig.h"
#include "settings.h"
#include "tools/gputools.h"
#include "tonelabel.h"

namespace rl {
namespace {
using form::combo;
using form::edit;
using form::spin;

// The collectives nccl-tests has a program for, in the order the CLI lists them.
const QStringList kNcclOps{QStringLiteral("all_reduce"), QStringLiteral("all_gather"), QStringLiteral("reduce_scatter"),
                           QStringLiteral("alltoall"),   QStringLiteral("broadcast"),  QStringLiteral("sendrecv"),
                           QStringLiteral("reduce"),     QStringLiteral("gather"),     QStringLiteral("scatter"),
                           QStringLiteral("alltoallv")};
const QStringList kNcclDtypes{QStringLiteral("float"),  QStringLiteral("half"),    QStringLiteral("bfloat16"),
                              QStringLiteral("double"), QStringLiteral("int8"),    QStringLiteral("uint8"),
                              QStringLiteral("int32"),  QStringLiteral("uint32"),  QStringLiteral("int64"),
                              QStringLiteral("uint64"), QStringLiteral("fp8_e4m3"), QStringLiteral("fp8_e5m2")};
const QStringList kNcclRedops{QStringLiteral("sum"), QStringLiteral("prod"), QStringLiteral("max"),
                              QStringLiteral("min"), QStringLiteral("avg"),  QStringLiteral("all")};
const QStringList kGemmDtypes{QStringLiteral("bf16"), QStringLiteral("fp16"), QStringLiteral("fp8"),
                              QStringLiteral("bf8"),  QStringLiteral("fp32"), QStringLiteral("tf32"),
                              QStringLiteral("int8"), QStringLiteral("fp64")};
} // namespace

GpuToolDialog::GpuToolDialog(const QString& cliProgram, const QString& workspace, Settings* settings, QWidget* parent)
    : QDialog(parent), m_cli(cliProgram), m_workspace(workspace), m_settings(settings)
{
    setObjectName(QStringLiteral("gpuToolDialog"));
    setWindowTitle(tr("New GPU tool benchmark"));

    auto* toolBox = buildToolBox();
    m_pages = new QStackedWidget;
    m_pages->addWidget(buildNcclPage());
    m_pages->addWidget(buildGemmPage());
    auto* common = buildCommonFields();

    m_summary = new QLabel;
    m_summary->setTextFormat(Qt::PlainText); // names tools and paths
    m_summary->setObjectName(QStringLiteral("summary"));
    m_summary->setToolTip(tr("What the run will measure"));
    m_problem = new QLabel;
    m_problem->setTextFormat(Qt::PlainText); // errors quote file, model and session names
    m_problem->setObjectName(QStringLiteral("problem"));
    m_problem->setWordWrap(true);
    setLabelTone(m_problem, LabelTone::Error);
    m_problem->setToolTip(tr("Why Run is disabled"));
    m_preview = new CommandPreview;
    m_preview->setObjectName(QStringLiteral("commandPreview"));
    m_preview->setToolTip(tr("The exact command Run will start"));

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Run"));
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("runButton"));
    m_buttons->button(QDialogButtonBox::Ok)->setToolTip(tr("Start the tool; points appear as it prints them"));
    m_buttons->button(QDialogButtonBox::Cancel)->setToolTip(tr("Close without running"));
    auto* defaults = m_buttons->button(QDialogButtonBox::RestoreDefaults);
    defaults->setObjectName(QStringLiteral("restoreDefaults"));
    defaults->setToolTip(tr("Put every field back to its default (the last run is remembered until the next Run)"));
    connect(defaults, &QPushButton::clicked, this, [this] { setConfig(GpuToolConfig{}); });
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    // Two columns: what the tool measures | how it is launched; the command below both.
    auto* left = new QVBoxLayout;
    left->addWidget(toolBox);
    left->addWidget(m_pages, 1);
    auto* right = new QVBoxLayout;
    right->addWidget(m_launch);
    right->addLayout(common);
    right->addStretch();
    auto* columns = new QHBoxLayout;
    columns->addLayout(left, 1);
    columns->addLayout(right, 1);
    auto* layout = new QVBoxLayout(this);
    m_probe = new ProbeOffer; // first: the probe needs no tool, only the PyTorch the node has
    connect(m_probe, &ProbeOffer::probeRequested, this, [this] { done(ProbeRequested); });
    layout->addWidget(m_probe);
    layout->addLayout(columns);
    layout->addWidget(m_summary);
    layout->addWidget(new QLabel(tr("Command:")));
    layout->addWidget(m_preview);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);

    setConfig(m_settings ? GpuToolConfig::fromJson(m_settings->gpuToolBenchmark()) : GpuToolConfig{});
    // Preferences' launcher wins over the last run's: it is what the user chose for every dialog.
    if (m_settings && !m_settings->defaultLaunch().isEmpty())
        m_launch->setLaunch(LaunchSettings::fromJson(m_settings->defaultLaunch(), m_launch->launch()));

    connect(m_tool, &QComboBox::currentIndexChanged, this, [this] {
        refreshTool();
        updatePreview();
    });
    connect(m_addFolder, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Folder of %1").arg(m_tool->currentText()));
        if (dir.isEmpty())
            return;
        if (const QString error = addToolFolder(dir); !error.isEmpty())
            m_problem->setText(error);
    });
    connect(m_askVersion, &QPushButton::clicked, this, &GpuToolDialog::askVersion);
    for (auto* c : m_ops)
        connect(c, &QCheckBox::toggled, this, &GpuToolDialog::updatePreview);
    for (auto* c : {m_check, m_blocking})
        connect(c, &QCheckBox::toggled, this, &GpuToolDialog::updatePreview);
    for (auto* e : {m_minBytes, m_maxBytes, m_increment, m_shapes, m_squareFrom, m_squareTo, m_parallel, m_extraArgs,
                    m_title})
        connect(e, &QLineEdit::textChanged, this, &GpuToolDialog::updatePreview);
    for (auto* s : {m_factor, m_gpus, m_iters, m_warmup, m_graph, m_cus, m_gemmIters, m_coldIters, m_pointTimeout})
        connect(s, &QSpinBox::valueChanged, this, &GpuToolDialog::updatePreview);
    for (auto* c : {m_stepMode, m_recipe, m_redop})
        connect(c, &QComboBox::currentIndexChanged, this, &GpuToolDialog::updatePreview);
    for (auto* c : {m_dtype, m_gemmDtype, m_modelConfig})
        connect(c, &QComboBox::currentTextChanged, this, &GpuToolDialog::updatePreview);
    connect(m_environment, &QPlainTextEdit::textChanged, this, &GpuToolDialog::updatePreview);
    connect(m_launch, &LauncherWidget::changed, this, &GpuToolDialog::updatePreview);
    refreshTool();
    updatePreview();
}

QGroupBox* GpuToolDialog::buildToolBox()
{
    m_tool = new QComboBox;
    m_tool->setObjectName(QStringLiteral("tool"));
    // The tools this form can set up: a collectives page and a GEMM shapes page (BabelStream and
    // nvbandwidth, which take only their own flags, run from `ridgeline-cli run`).
    for (const auto& k : tools::knownTools())
        if (const auto* run = runs::runKindOfTool(k.id); run && (k.collectives || run->gemmShapes))
            m_tool->addItem(QString::fromStdString(k.name), QString::fromStdString(k.id));
    m_tool->setToolTip(tr("The benchmark program to run; Ridgeline stores each point as it prints it"));
    m_toolLocation = new QLabel;
    m_toolLocation->setObjectName(QStringLiteral("toolLocation"));
    m_toolLocation->setWordWrap(true); // a path has no spaces: refreshTool() adds break points after each /
    m_toolLocation->setToolTip(tr("Where the tool was found (tools.json folders, then PATH, then /opt/rocm/bin) "
                                  "and the version it reported"));
    m_addFolder = new QPushButton(tr("Add folder…"));
    m_addFolder->setObjectName(QStringLiteral("addToolFolder"));
    m_addFolder->setToolTip(tr("Choose the folder holding the tool's programs (e.g. an nccl-tests build/ folder); "
                               "it is remembered in tools.json, shared with `ridgeline-cli tools`"));
    m_askVersion = new QPushButton(tr("Ask version"));
    m_askVersion->setObjectName(QStringLiteral("askToolVersion"));
    m_askVersion->setToolTip(tr("Run the tool once to learn its version (--version, or nccl-tests' header of a "
                                "one-size run) and remember it"));
    auto* toolBox = new QGroupBox(tr("Tool"));
    auto* toolForm = new QFormLayout(toolBox);
    auto* toolRow = new QHBoxLayout;
    toolRow->addWidget(m_tool, 1);
    toolRow->addWidget(m_askVersion);
    toolRow->addWidget(m_addFolder);
    toolForm->addRow(tr("Tool:"), toolRow);
    toolForm->addRow(tr("Found:"), m_toolLocation);
    return toolBox;
}

QWidget* GpuToolDialog::buildNcclPage()
{
    auto* ncclPage = new QWidget;
    auto* opsBox = new QGroupBox(tr("Operations"));
    auto* opsGrid = new QGridLayout(opsBox);
    for (int i = 0; i < kNcclOps.size(); ++i) {
        auto* c = new QCheckBox(kNcclOps[i]);
        c->setObjectName(QStringLiteral("op_") + kNcclOps[i]);
        c->setToolTip(tr("Run %1 (one session per operation)")
                          .arg(QString::fromStdString(tools::ncclTestsProgram(kNcclOps[i].toStdString()))));
        opsGrid->addWidget(c, i / 4, i % 4);
        m_ops << c;
    }
    m_minBytes = edit(QStringLiteral("minBytes"), tr("Smallest message size (-b), e.g. 8, 1K, 256M"));
    m_maxBytes = edit(QStringLiteral("maxBytes"), tr("Largest message size (-e), e.g. 128M, 8G"));
    m_stepMode = combo(QStringLiteral("stepMode"), {tr("× factor (-f)"), tr("+ increment (-i)")},
                       tr("Grow the size by a factor (-f) or by a fixed increment (-i)"));
    m_factor = spin(QStringLiteral("factor"), 2, 1024, QString(), tr("Size multiplier between steps (-f)"));
    m_increment = edit(QStringLiteral("increment"), tr("Size added between steps (-i), e.g. 1M"));
    m_gpus = spin(QStringLiteral("gpus"), 1, 64, tr(" per process"), tr("GPUs per process (-g)"));
    m_iters = spin(QStringLiteral("iters"), 1, 1000000, QString(), tr("Timed iterations per size (-n)"));
    m_warmup = spin(QStringLiteral("warmup"), 0, 1000000, QString(), tr("Warm-up iterations per size (-w)"));
    m_dtype = combo(QStringLiteral("dtype"), kNcclDtypes, tr("Data type (-d); type another name if your build has it"),
                    true);
    m_redop = combo(QStringLiteral("redop"), kNcclRedops, tr("Reduction operation (-o) for reducing collectives"));
    m_check = new QCheckBox(tr("Check results (-c 1)"));
    m_check->setObjectName(QStringLiteral("check"));
    m_check->setToolTip(tr("Verify the results (#wrong); a run with wrong elements ends failed"));
    m_blocking = new QCheckBox(tr("Blocking (-z 1)"));
    m_blocking->setObjectName(QStringLiteral("blocking"));
    m_blocking->setToolTip(tr("Make NCCL collectives blocking (-z): the CPU waits for each to finish"));
    m_graph = spin(QStringLiteral("graph"), 0, 100000, QString(),
                   tr("CUDA/HIP graph launches per iteration (-G); 0: no graphs"));
    m_graph->setSpecialValueText(tr("off"));
    auto* ncclForm = new QFormLayout;
    auto* sizes = new QHBoxLayout;
    sizes->addWidget(m_minBytes);
    sizes->addWidget(new QLabel(tr("to")));
    sizes->addWidget(m_maxBytes);
    ncclForm->addRow(tr("Sizes (-b, -e):"), sizes);
    auto* step = new QHBoxLayout;
    step->addWidget(m_stepMode);
    step->addWidget(m_factor);
    step->addWidget(m_increment);
    ncclForm->addRow(tr("Step:"), step);
    auto* iters = new QHBoxLayout;
    iters->addWidget(m_iters);
    iters->addWidget(new QLabel(tr("warm-up (-w)")));
    iters->addWidget(m_warmup);
    ncclForm->addRow(tr("Iterations (-n):"), iters);
    auto* types = new QHBoxLayout;
    types->addWidget(m_dtype, 1);
    types->addWidget(new QLabel(tr("reduction (-o)")));
    types->addWidget(m_redop, 1);
    ncclForm->addRow(tr("Data type (-d):"), types);
    ncclForm->addRow(tr("GPUs (-g):"), m_gpus);
    auto* flags = new QHBoxLayout;
    flags->addWidget(m_check);
    flags->addWidget(m_blocking);
    flags->addStretch();
    ncclForm->addRow(tr("Options:"), flags);
    ncclForm->addRow(tr("Graphs (-G):"), m_graph);
    auto* ncclLayout = new QVBoxLayout(ncclPage);
    ncclLayout->setContentsMargins(0, 0, 0, 0);
    ncclLayout->addWidget(opsBox);
    ncclLayout->addLayout(ncclForm);
    ncclLayout->addStretch();
    return ncclPage;
}

QWidget* GpuToolDialog::buildGemmPage()
{
    auto* gemmPage = new QWidget;
    m_gemmDtype = combo(QStringLiteral("gemmDtype"), kGemmDtypes,
                        tr("Input type of A and B (and C, D); the bench's type names (bf16_r, ...) work too"), true);
    m_recipe = combo(QStringLiteral("recipe"),
                     {tr("Given shapes"), tr("Square sweep"), tr("Max achievable (AMD's recipe)"),
                      tr("A model's training step")},
                     tr("Where the shapes come from"));
    m_shapes = edit(QStringLiteral("shapes"), tr("MxNxK or MxNxKxTT (transposes of A and B), separated by commas or "
                                                 "spaces, e.g. 4096x4096x4096, 8192x1024x4096xNT"));
    m_squareFrom = edit(QStringLiteral("squareFrom"), tr("Smallest M = N = K of the square sweep (powers of two)"));
    m_squareTo = edit(QStringLiteral("squareTo"), tr("Largest M = N = K of the square sweep"));
    m_cus = spin(QStringLiteral("cus"), 1, 100000, QString(),
                 tr("The GPU's compute units: whole waves of 256x256 tiles over them (MI300X: 304, MI355X: 256)"));
    m_modelConfig = combo(QStringLiteral("modelConfig"), {},
                          tr("The model whose training-step GEMMs are run: a preset, a configuration saved in the "
                             "workspace or a config.json path"),
                          true);
    for (const auto& p : model::presetNames())
        m_modelConfig->addItem(QString::fromStdString(p));
    m_parallel = edit(QStringLiteral("parallel"), tr("Parallel layout of the model's step, e.g. tp=8,pp=1,dp=16"));
    m_gemmIters = spin(QStringLiteral("gemmIters"), 0, 1000000, QString(), tr("Timed iterations (-i); default: the tool's"));
    m_gemmIters->setSpecialValueText(tr("tool default"));
    m_coldIters = spin(QStringLiteral("coldIters"), 0, 1000000, QString(),
                       tr("Warm-up (cold) iterations (-j); default: the tool's"));
    m_coldIters->setSpecialValueText(tr("tool default"));
    auto* gemmForm = new QFormLayout(gemmPage);
    gemmForm->setContentsMargins(0, 0, 0, 0);
    gemmForm->addRow(tr("Data type:"), m_gemmDtype);
    gemmForm->addRow(tr("Shapes from:"), m_recipe);
    gemmForm->addRow(tr("Shapes:"), m_shapes);
    auto* square = new QHBoxLayout;
    square->addWidget(m_squareFrom);
    square->addWidget(new QLabel(tr("to")));
    square->addWidget(m_squareTo);
    gemmForm->addRow(tr("Square M=N=K:"), square);
    gemmForm->addRow(tr("Compute units:"), m_cus);
    gemmForm->addRow(tr("Model:"), m_modelConfig);
    gemmForm->addRow(tr("Layout:"), m_parallel);
    auto* gemmIters = new QHBoxLayout;
    gemmIters->addWidget(m_gemmIters);
    gemmIters->addWidget(new QLabel(tr("warm-up (-j)")));
    gemmIters->addWidget(m_coldIters);
    gemmForm->addRow(tr("Iterations (-i):"), gemmIters);
    return gemmPage;
}

QFormLayout* GpuToolDialog::buildCommonFields()
{
    m_environment = new QPlainTextEdit;
    m_environment->setObjectName(QStringLiteral("environment"));
    m_environment->setToolTip(tr("Environment for the tool, NAME=VALUE per line (e.g. NCCL_ALGO=Ring, "
                                 "NCCL_PROTO=Simple, RCCL_MSCCL_ENABLE=0); kept with the session and forwarded "
                                 "with -x under a hostfile"));
    m_environment->setPlaceholderText(tr("NCCL_ALGO=Ring\nNCCL_DEBUG=WARN"));
    m_environment->setTabChangesFocus(true);
    m_environment->setFixedHeight(m_environment->fontMetrics().lineSpacing() * 4 + 2 * m_environment->frameWidth() + 8);
    m_extraArgs = edit(QStringLiteral("extraArgs"), tr("More flags for the tool itself, passed after --"));
    m_launch = new LauncherWidget({LaunchSettings::Mode::Local, LaunchSettings::Mode::LocalMpirun,
                                   LaunchSettings::Mode::Hostfile, LaunchSettings::Mode::Template},
                                  true, m_settings);
    m_pointTimeout = spin(QStringLiteral("pointTimeout"), 1, 86400, tr(" s"),
                          tr("Seconds without a new output line after which the tool counts as hung and is stopped "
                             "(the session ends failed, its points stay)"));
    m_title = edit(QStringLiteral("title"), tr("Session title (optional; default: the program and its processes)"));
    auto* common = new QFormLayout;
    common->addRow(tr("Environment:"), m_environment);
    common->addRow(tr("Tool flags:"), m_extraArgs);
    common->addRow(tr("Point timeout:"), m_pointTimeout);
    common->addRow(tr("Title:"), m_title);
    return common;
}

GpuToolConfig GpuToolDialog::config() const
{
    GpuToolConfig c;
    c.tool = m_tool->currentData().toString();
    c.ops.clear();
    for (auto* box : m_ops)
        if (box->isChecked())
            c.ops << box->text();
    c.minBytes = m_minBytes->text().trimmed();
    c.maxBytes = m_maxBytes->text().trimmed();
    c.useIncrement = m_stepMode->currentIndex() == 1;
    c.factor = m_factor->value();
    c.increment = m_increment->text().trimmed();
    c.gpus = m_gpus->value();
    c.iters = m_iters->value();
    c.warmup = m_warmup->value();
    c.dtype = m_dtype->currentText().trimmed();
    c.redop = m_redop->currentText();
    c.check = m_check->isChecked();
    c.blocking = m_blocking->isChecked();
    c.graph = m_graph->value();
    c.gemmDtype = m_gemmDtype->currentText().trimmed();
    c.recipe = static_cast<GpuToolConfig::Recipe>(m_recipe->currentIndex());
    c.shapes = m_shapes->text().trimmed();
    c.squareFrom = m_squareFrom->text().trimmed();
    c.squareTo = m_squareTo->text().trimmed();
    c.cus = m_cus->value();
    c.modelConfig = m_modelConfig->currentText().trimmed();
    c.parallel = m_parallel->text().trimmed();
    c.gemmIters = m_gemmIters->value();
    c.coldIters = m_coldIters->value();
    c.environment = m_environment->toPlainText();
    c.extraArgs = m_extraArgs->text().trimmed();
    c.launch = m_launch->launch();
    c.pointTimeout = m_pointTimeout->value();
    c.title = m_title->text().trimmed();
    return c;
}

void GpuToolDialog::setConfig(const GpuToolConfig& c)
{
    m_tool->setCurrentIndex(std::max(0, m_tool->findData(c.tool)));
    for (auto* box : m_ops)
        box->setChecked(c.ops.contains(box->text()));
    m_minBytes->setText(c.minBytes);
    m_maxBytes->setText(c.maxBytes);
    m_stepMode->setCurrentIndex(c.useIncrement ? 1 : 0);
    m_factor->setValue(c.factor);
    m_increment->setText(c.increment);
    m_gpus->setValue(c.gpus);
    m_iters->setValue(c.iters);
    m_warmup->setValue(c.warmup);
    m_dtype->setCurrentText(c.dtype);
    m_redop->setCurrentIndex(std::max(0, m_redop->findText(c.redop)));
    m_check->setChecked(c.check);
    m_blocking->setChecked(c.blocking);
    m_graph->setValue(c.graph);
    m_gemmDtype->setCurrentText(c.gemmDtype);
    m_recipe->setCurrentIndex(static_cast<int>(c.recipe));
    m_shapes->setText(c.shapes);
    m_squareFrom->setText(c.squareFrom);
    m_squareTo->setText(c.squareTo);
    m_cus->setValue(c.cus);
    m_modelConfig->setCurrentText(c.modelConfig);
    m_parallel->setText(c.parallel);
    m_gemmIters->setValue(c.gemmIters);
    m_coldIters->setValue(c.coldIters);
    m_environment->setPlainText(c.environment);
    m_extraArgs->setText(c.extraArgs);
    m_launch->setLaunch(c.launch);
    m_pointTimeout->setValue(c.pointTimeout);
    m_title->setText(c.title);
    refreshTool();
    updatePreview();
}

QString GpuToolDialog::previewText() const { return m_preview->toPlainText(); }
QString GpuToolDialog::problem() const { return m_problem->text(); }

void GpuToolDialog::done(int result)
{
    if (result == QDialog::Accepted && m_settings)
        m_settings->setGpuToolBenchmark(config().toJson());
    QDialog::done(result);
}

QString GpuToolDialog::addToolFolder(const QString& folder)
{
    const QString abs = QDir(folder).absolutePath();
    if (!QFileInfo(abs).isDir())
        return tr("%1 is not a folder.").arg(abs);
    try {
        const std::string path = tools::ToolSettings::defaultPath();
        tools::ToolSettings s = tools::ToolSettings::load(path);
        if (std::find(s.folders.begin(), s.folders.end(), abs.toStdString()) == s.folders.end()) {
            s.folders.push_back(abs.toStdString());
            s.save(path);
        }
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    refreshTool();
    updatePreview();
    return {};
}

void GpuToolDialog::refreshTool()
{
    const std::string id = m_tool->currentData().toString().toStdString();
    const tools::ToolKind* kind = tools::toolKind(id);
    m_toolFound = false;
    m_toolError.clear();
    m_availableOps.clear();
    m_pages->setCurrentIndex(kind && kind->collectives ? 0 : 1);
    if (!kind)
        return;
    try {
        const auto settings = tools::ToolSettings::load(tools::ToolSettings::defaultPath());
        if (const auto found = tools::findTool(*kind, settings)) {
            m_toolFound = true;
            const QString version = !found->version.empty() ? tr("version %1").arg(QString::fromStdString(found->version))
                                    : !found->versionSource.empty()
                                        ? tr("version unknown (%1)").arg(QString::fromStdString(found->versionSource))
                                        : tr("version not asked yet");
            // A long folder wraps after its slashes (zero-width spaces) instead of running off the edge.
            QString folder = QString::fromStdString(found->folder);
            m_toolLocation->setText(tr("%1 — %2").arg(folder.replace(u'/', QStringLiteral("/\u200b")), version));
            m_toolLocation->setToolTip(tr("Found in %1 (tools.json folders, then PATH, then /opt/rocm/bin); %2")
                                           .arg(QString::fromStdString(found->folder), version));
            for (const auto& op : kNcclOps)
                if (found->has(tools::ncclTestsProgram(op.toStdString())))
                    m_availableOps << op;
        } else {
            m_toolLocation->setText(tr("not found — add its folder"));
            m_toolLocation->setToolTip(tr("Searched the folders of tools.json, PATH and /opt/rocm/bin"));
            m_toolError = tr("%1 was not found in the folders of tools.json, on PATH or in /opt/rocm/bin: add its "
                             "folder.")
                              .arg(QString::fromStdString(kind->name));
        }
    } catch (const std::exception& e) {
        m_toolLocation->setText(tr("not found — add its folder"));
        m_toolError = QString::fromStdString(e.what());
    }
    m_askVersion->setEnabled(m_toolFound);
    // Only the collectives the found build has can be chosen (rccl-tests has alltoallv, ...).
    for (auto* box : m_ops) {
        const bool has = !m_toolFound || m_availableOps.contains(box->text());
        box->setEnabled(has);
        if (!has)
            box->setChecked(false);
        box->setToolTip(has ? tr("Run %1 (one session per operation)")
                                  .arg(QString::fromStdString(tools::ncclTestsProgram(box->text().toStdString())))
                            : tr("%1 is not in the tool's folder")
                                  .arg(QString::fromStdString(tools::ncclTestsProgram(box->text().toStdString()))));
    }
}

void GpuToolDialog::askVersion()
{
    const tools::ToolKind* kind = tools::toolKind(m_tool->currentData().toString().toStdString());
    if (!kind)
        return;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    try {
        const std::string path = tools::ToolSettings::defaultPath();
        tools::ToolSettings s = tools::ToolSettings::load(path);
        if (auto found = tools::findTool(*kind, s)) {
            tools::askVersion(*found, s, 20000);
            s.save(path);
        }
    } catch (const std::exception& e) {
        m_problem->setText(QString::fromStdString(e.what()));
    }
    QApplication::restoreOverrideCursor();
    refreshTool();
}

void GpuToolDialog::updatePreview()
{
    const GpuToolConfig c = config();
    const bool nccl = c.isNcclTests();
    m_pages->setCurrentIndex(nccl ? 0 : 1);
    m_factor->setVisible(!c.useIncrement);
    m_increment->setVisible(c.useIncrement);
    using R = GpuToolConfig::Recipe;
    m_shapes->setEnabled(c.recipe == R::Shapes);
    m_squareFrom->setEnabled(c.recipe == R::Square);
    m_squareTo->setEnabled(c.recipe == R::Square);
    m_cus->setEnabled(c.recipe == R::MaxAchievable);
    m_modelConfig->setEnabled(c.recipe == R::Model);
    m_parallel->setEnabled(c.recipe == R::Model);

    QString problem = c.validate();
    if (problem.isEmpty() && !m_toolError.isEmpty())
        problem = m_toolError;
    m_problem->setText(problem);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
    const int points = c.expectedPoints();
    if (!problem.isEmpty())
        m_summary->clear();
    else if (nccl)
        m_summary->setText((c.ops.size() == 1 ? tr("1 operation") : tr("%1 operations").arg(c.ops.size())) +
                           tr(", %1 sizes each, out-of-place and in-place: %2 points").arg(points / std::max<qsizetype>(1, 2 * c.ops.size())).arg(points));
    else if (points > 0)
        m_summary->setText(points == 1 ? tr("1 shape, one run of the tool") : tr("%1 shapes, one run of the tool each").arg(points));
    else
        m_summary->setText(tr("The shapes of the model's step, one run of the tool each"));
    m_preview->setCommand(shellJoin(m_cli, c.cliArguments(m_workspace)));
}
} // namespace rl
