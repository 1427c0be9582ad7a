#include "gui/settings/preferencesdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "gui/runs/formfields.h"
#include "gui/runs/launcherwidget.h"
#include "settings.h"
#include "tools/gputools.h"
#include "tonelabel.h"

namespace rl {
namespace {
// Preferences choose how processes start, not where a batch job runs: those stay per dialog.
QJsonObject launcherAndMpi(const LaunchSettings& l)
{
    QJsonObject json = l.toJson();
    for (const char* perRun : {"sbatch", "sbatchOptions", "sbatchDir"})
        json.remove(QLatin1String(perRun));
    return json;
}
} // namespace

PreferencesDialog::PreferencesDialog(Settings* settings, QWidget* parent) : QDialog(parent), m_settings(settings)
{
    setObjectName(QStringLiteral("preferencesDialog"));
    setWindowTitle(tr("Preferences — Ridgeline"));

    m_launch = new LauncherWidget({LaunchSettings::Mode::LocalMpirun, LaunchSettings::Mode::Hostfile,
                                   LaunchSettings::Mode::Template, LaunchSettings::Mode::Local},
                                  false, m_settings);
    m_launch->setTitle(tr("Benchmark launch (pre-filled in the benchmark dialogs)"));

    auto* tools = new QGroupBox(tr("GPU tool folders (searched before PATH and /opt/rocm/bin)"));
    m_folders = new QListWidget;
    m_folders->setObjectName(QStringLiteral("toolFolders"));
    m_folders->setToolTip(tr("Folders holding nccl-tests / rccl-tests, hipblaslt-bench, rocblas-bench, cutlass_profiler, "
                             "BabelStream or nvbandwidth, searched in this order; stored in %1, which ridgeline-cli "
                             "tools reads too")
                              .arg(QString::fromStdString(tools::ToolSettings::defaultPath())));
    m_folders->setMaximumHeight(m_folders->fontMetrics().lineSpacing() * 5 + 8);
    auto* add = new QPushButton(tr("Add…"));
    add->setObjectName(QStringLiteral("addToolFolder"));
    add->setToolTip(tr("Add a folder to search"));
    auto* remove = new QPushButton(tr("Remove"));
    remove->setObjectName(QStringLiteral("removeToolFolder"));
    remove->setToolTip(tr("Stop searching the selected folder (the folder stays on disk)"));
    auto* toolButtons = new QVBoxLayout;
    toolButtons->addWidget(add);
    toolButtons->addWidget(remove);
    toolButtons->addStretch();
    auto* toolRow = new QHBoxLayout(tools);
    toolRow->addWidget(m_folders, 1);
    toolRow->addLayout(toolButtons);

    auto* display = new QGroupBox(tr("Display"));
    m_unit = form::combo(QStringLiteral("bandwidthUnit"), {tr("GB/s (10⁹ B/s, as the tools print it)"),
                                                           tr("GiB/s (2³⁰ B/s)")},
                         tr("The unit of bandwidth figures in tables, fits and hover text; the measurements stay "
                            "stored in GB/s"));
    m_theme = form::combo(QStringLiteral("theme"), {tr("Follow the system"), tr("Light"), tr("Dark")},
                          tr("Colours of the windows"));
    m_exportWidth = form::spin(QStringLiteral("exportWidth"), 200, 10000, tr(" px"), tr("Width of exported charts"));
    m_exportHeight = form::spin(QStringLiteral("exportHeight"), 200, 10000, tr(" px"), tr("Height of exported charts"));
    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(m_exportWidth);
    sizeRow->addWidget(new QLabel(QStringLiteral("×")));
    sizeRow->addWidget(m_exportHeight);
    sizeRow->addStretch();
    auto* displayForm = new QFormLayout(display);
    displayForm->addRow(tr("Bandwidth unit:"), m_unit);
    displayForm->addRow(tr("Theme:"), m_theme);
    displayForm->addRow(tr("Chart export size:"), sizeRow);

    m_problem = new QLabel;
    m_problem->setTextFormat(Qt::PlainText); // errors quote file, model and session names
    m_problem->setObjectName(QStringLiteral("preferencesProblem"));
    m_problem->setWordWrap(true);
    setLabelTone(m_problem, LabelTone::Error);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::Apply);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_launch);
    layout->addWidget(tools);
    layout->addWidget(display);
    layout->addWidget(m_problem);
    layout->addStretch();
    layout->addWidget(m_buttons);

    connect(add, &QPushButton::clicked, this, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Folder with GPU benchmark tools"));
        if (!d.isEmpty())
            addToolFolder(d);
    });
    connect(remove, &QPushButton::clicked, this, [this] { delete m_folders->currentItem(); });
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] { finish(true); });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this, [this] { finish(false); });
    load();
}

void PreferencesDialog::load()
{
    LaunchSettings l = LaunchSettings::fromJson(m_settings->defaultLaunch());
    m_launch->setLaunch(l);
    m_folders->clear();
    try {
        for (const auto& f : tools::ToolSettings::load(tools::ToolSettings::defaultPath()).folders)
            m_folders->addItem(QString::fromStdString(f));
    } catch (const std::exception& e) {
        m_problem->setText(QString::fromStdString(e.what()));
    }
    m_unit->setCurrentIndex(m_settings->bandwidthUnit() == units::BandwidthUnit::GiBps ? 1 : 0);
    m_theme->setCurrentIndex(static_cast<int>(m_settings->theme()));
    m_exportWidth->setValue(m_settings->exportSize().width());
    m_exportHeight->setValue(m_settings->exportSize().height());
}

bool PreferencesDialog::addToolFolder(const QString& folder)
{
    const QString abs = QDir::cleanPath(QDir(folder).absolutePath());
    if (!QFileInfo(abs).isDir()) {
        m_problem->setText(tr("%1 is not a folder.").arg(abs));
        return false;
    }
    if (!toolFolders().contains(abs))
        m_folders->addItem(abs);
    return true;
}

QStringList PreferencesDialog::toolFolders() const
{
    QStringList out;
    for (int i = 0; i < m_folders->count(); ++i)
        out << m_folders->item(i)->text();
    return out;
}

QString PreferencesDialog::apply()
{
    const LaunchSettings l = m_launch->launch();
    if (const QString problem = l.validate(); !problem.isEmpty() && l.mode != LaunchSettings::Mode::Hostfile)
        return problem; // a hostfile may be left to choose per run
    m_settings->setDefaultLaunch(launcherAndMpi(l));
    m_settings->setBandwidthUnit(m_unit->currentIndex() == 1 ? units::BandwidthUnit::GiBps
                                                             : units::BandwidthUnit::GBps);
    m_settings->setTheme(static_cast<Settings::Theme>(m_theme->currentIndex()));
    m_settings->setExportSize(QSize(m_exportWidth->value(), m_exportHeight->value()));
    // The same file and code the GPU tool dialog's "Add folder" and ridgeline-cli tools use; the
    // versions remembered for programs stay.
    try {
        const std::string path = tools::ToolSettings::defaultPath();
        tools::ToolSettings s = tools::ToolSettings::load(path);
        std::vector<std::string> folders;
        for (const auto& f : toolFolders())
            folders.push_back(f.toStdString());
        if (folders != s.folders) {
            s.folders = std::move(folders);
            s.save(path);
        }
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    m_settings->sync();
    emit applied();
    return {};
}

void PreferencesDialog::finish(bool close)
{
    const QString error = apply();
    m_problem->setText(error);
    if (error.isEmpty() && close)
        accept();
}
} // namespace rl
