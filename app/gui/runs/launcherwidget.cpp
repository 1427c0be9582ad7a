#include "gui/runs/launcherwidget.h"
#include "gui/runs/formfields.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFontMetrics>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>

#include "filedialogs.h"
#include "settings.h"

namespace rl {

namespace {
using form::combo;
using form::countSpin;
using form::edit;
using form::spin;

QString modeLabel(LaunchSettings::Mode mode)
{
    switch (mode) {
    case LaunchSettings::Mode::Local: return LauncherWidget::tr("One process here (no MPI)");
    case LaunchSettings::Mode::LocalMpirun: return LauncherWidget::tr("Local mpirun");
    case LaunchSettings::Mode::Hostfile: return LauncherWidget::tr("mpirun with a hostfile");
    case LaunchSettings::Mode::Template: return LauncherWidget::tr("Command template (e.g. srun)");
    }
    return {};
}

} // namespace

LauncherWidget::LauncherWidget(const QList<LaunchSettings::Mode>& modes, bool sbatch, Settings* settings,
                               QWidget* parent)
    : QGroupBox(tr("Launch"), parent), m_settings(settings), m_modes(modes)
{
    setObjectName(QStringLiteral("launcherWidget"));
    m_launcher = new QComboBox;
    m_launcher->setObjectName(QStringLiteral("launcher"));
    for (auto m : m_modes)
        m_launcher->addItem(modeLabel(m));
    m_launcher->setToolTip(tr("How the processes are started"));
    m_np = countSpin(QStringLiteral("np"), 1, 1000000, tr(" rank"), tr(" ranks"), tr("Total MPI ranks (-np)"));
    m_hostfile = edit(QStringLiteral("hostfile"), tr("mpirun hostfile listing the nodes and slots"));
    auto* browse = new QPushButton(tr("Browse…"));
    browse->setObjectName(QStringLiteral("browseHostfile"));
    browse->setToolTip(tr("Choose the hostfile"));
    m_browse = browse;
    m_mpirun = edit(QStringLiteral("mpirun"), tr("The mpirun program: a full path picks one MPI of several "
                                                 "(Open MPI, MPICH); empty: mpirun on PATH"));
    m_mpirun->setPlaceholderText(QStringLiteral("mpirun"));
    m_mpirunOptions = edit(QStringLiteral("mpirunOptions"),
                           tr("Extra mpirun arguments, e.g. --oversubscribe or --mca btl self,vader"));
    m_template = edit(QStringLiteral("launchTemplate"),
                      tr("Launcher command; {nodes}, {ppn} and {bench} are replaced, e.g. "
                         "srun -N {nodes} --ntasks-per-node {ppn} {bench}"));
    m_nodes = countSpin(QStringLiteral("nodes"), 1, 100000, tr(" node"), tr(" nodes"), tr("Number of nodes ({nodes})"));
    m_ppn = countSpin(QStringLiteral("ppn"), 1, 1024, tr(" rank/node"), tr(" ranks/node"), tr("Ranks per node ({ppn})"));

    auto* form = new QFormLayout(this);
    auto* launcherRow = new QHBoxLayout;
    launcherRow->addWidget(m_launcher, 1);
    launcherRow->addWidget(m_np);
    form->addRow(tr("Launcher:"), launcherRow);
    auto* hostRow = new QHBoxLayout;
    hostRow->addWidget(m_hostfile);
    hostRow->addWidget(browse);
    form->addRow(tr("Hostfile:"), hostRow);
    form->addRow(tr("mpirun:"), m_mpirun);
    form->addRow(tr("mpirun options:"), m_mpirunOptions);
    form->addRow(tr("Template:"), m_template);
    auto* nodesRow = new QHBoxLayout;
    nodesRow->addWidget(m_nodes);
    nodesRow->addWidget(m_ppn);
    nodesRow->addStretch();
    form->addRow(tr("Nodes:"), nodesRow);

    connect(browse, &QPushButton::clicked, this, [this] {
        const QString f = filedialogs::openFile(this, m_settings, filedialogs::Purpose::Hostfile, tr("Hostfile"));
        if (!f.isEmpty())
            m_hostfile->setText(f);
    });

    if (sbatch) {
        m_sbatch = new QCheckBox(tr("Submit as a Slurm batch job (sbatch)"));
        m_sbatch->setObjectName(QStringLiteral("sbatch"));
        m_sbatch->setToolTip(tr("Run the launch command above inside a batch job: the job script is written and "
                                "kept with the session, the job's output is stored as it grows, Cancel runs "
                                "scancel"));
        m_sbatchOptions = new QPlainTextEdit;
        m_sbatchOptions->setObjectName(QStringLiteral("sbatchOptions"));
        m_sbatchOptions->setToolTip(tr("#SBATCH options, one per line, e.g. --partition=gpu, --time=00:30:00, "
                                       "--nodes=2, --gpus-per-node=8 (without them the job asks for one task per "
                                       "rank)"));
        m_sbatchOptions->setPlaceholderText(tr("--partition=gpu\n--time=00:30:00"));
        m_sbatchOptions->setTabChangesFocus(true);
        // Three lines, giving way to two when the dialog is as tall as a 720 px screen allows: a
        // fixed height made the rows below overlap it there.
        const int chrome = 2 * m_sbatchOptions->frameWidth() + 8;
        m_sbatchOptions->setMaximumHeight(m_sbatchOptions->fontMetrics().lineSpacing() * 3 + chrome);
        m_sbatchOptions->setMinimumHeight(m_sbatchOptions->fontMetrics().lineSpacing() * 2 + chrome);
        m_sbatchDir = edit(QStringLiteral("sbatchDir"),
                           tr("Folder for the job script and its output, visible to the nodes (default: the "
                              "current folder)"));
        m_sbatchDir->setPlaceholderText(tr("current folder"));
        auto* browseDir = new QPushButton(tr("Browse…"));
        browseDir->setObjectName(QStringLiteral("browseSbatchDir"));
        browseDir->setToolTip(tr("Choose the folder for the job script and output"));
        m_browseSbatchDir = browseDir;
        auto* dirRow = new QHBoxLayout;
        dirRow->addWidget(m_sbatchDir);
        dirRow->addWidget(browseDir);
        form->addRow(QString(), m_sbatch);
        form->addRow(tr("#SBATCH options:"), m_sbatchOptions);
        form->addRow(tr("Job folder:"), dirRow);
        connect(browseDir, &QPushButton::clicked, this, [this] {
            const QString d = QFileDialog::getExistingDirectory(this, tr("Folder for the job script and output"),
                                                                m_sbatchDir->text());
            if (!d.isEmpty())
                m_sbatchDir->setText(d);
        });
        connect(m_sbatch, &QCheckBox::toggled, this, &LauncherWidget::changed);
        connect(m_sbatchOptions, &QPlainTextEdit::textChanged, this, &LauncherWidget::changed);
        connect(m_sbatchDir, &QLineEdit::textChanged, this, &LauncherWidget::changed);
    }

    for (auto* e : {m_hostfile, m_mpirun, m_mpirunOptions, m_template})
        connect(e, &QLineEdit::textChanged, this, &LauncherWidget::changed);
    for (auto* s : {m_np, m_nodes, m_ppn})
        connect(s, &QSpinBox::valueChanged, this, &LauncherWidget::changed);
    connect(m_launcher, &QComboBox::currentIndexChanged, this, &LauncherWidget::changed);
    connect(this, &LauncherWidget::changed, this, &LauncherWidget::updateEnabled);
    setLaunch(LaunchSettings{});
}

LaunchSettings LauncherWidget::launch() const
{
    LaunchSettings l;
    l.mode = m_modes.value(m_launcher->currentIndex(), m_modes.value(0));
    l.np = m_np->value();
    l.hostfile = m_hostfile->text().trimmed();
    l.mpirun = m_mpirun->text().trimmed();
    l.mpirunOptions = m_mpirunOptions->text().trimmed();
    l.launchTemplate = m_template->text().trimmed();
    l.nodes = m_nodes->value();
    l.ppn = m_ppn->value();
    if (m_sbatch) {
        l.sbatch = m_sbatch->isChecked();
        l.sbatchOptions = m_sbatchOptions->toPlainText();
        l.sbatchDir = m_sbatchDir->text().trimmed();
    }
    return l;
}

void LauncherWidget::setLaunch(const LaunchSettings& l)
{
    const qsizetype index = m_modes.indexOf(l.mode);
    m_launcher->setCurrentIndex(index >= 0 ? int(index) : 0);
    m_np->setValue(l.np);
    m_hostfile->setText(l.hostfile);
    m_mpirun->setText(l.mpirun);
    m_mpirunOptions->setText(l.mpirunOptions);
    m_template->setText(l.launchTemplate);
    m_nodes->setValue(l.nodes);
    m_ppn->setValue(l.ppn);
    if (m_sbatch) {
        m_sbatch->setChecked(l.sbatch);
        m_sbatchOptions->setPlainText(l.sbatchOptions);
        m_sbatchDir->setText(l.sbatchDir);
    }
    updateEnabled();
}

void LauncherWidget::updateEnabled()
{
    const auto mode = m_modes.value(m_launcher->currentIndex(), m_modes.value(0));
    m_np->setEnabled(mode != LaunchSettings::Mode::Local);
    m_hostfile->setEnabled(mode == LaunchSettings::Mode::Hostfile);
    m_browse->setEnabled(mode == LaunchSettings::Mode::Hostfile);
    m_mpirunOptions->setEnabled(mode == LaunchSettings::Mode::LocalMpirun || mode == LaunchSettings::Mode::Hostfile);
    m_mpirun->setEnabled(m_mpirunOptions->isEnabled());
    m_template->setEnabled(mode == LaunchSettings::Mode::Template);
    m_nodes->setEnabled(mode == LaunchSettings::Mode::Template);
    m_ppn->setEnabled(mode == LaunchSettings::Mode::Template);
    if (m_sbatch) {
        m_sbatchOptions->setEnabled(m_sbatch->isChecked());
        m_sbatchDir->setEnabled(m_sbatch->isChecked());
        m_browseSbatchDir->setEnabled(m_sbatch->isChecked());
    }
}
} // namespace rl
