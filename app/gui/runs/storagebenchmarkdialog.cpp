#include "gui/runs/storagebenchmarkdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "gui/runs/benchmarkconfig.h"
#include "runs/runrequest.h"
#include "gui/runs/commandpreview.h"
#include "gui/runs/formfields.h"

namespace rl {

StorageBenchmarkDialog::StorageBenchmarkDialog(const QString& cliProgram, const QString& workspace, QWidget* parent)
    : QDialog(parent), m_cli(cliProgram), m_workspace(workspace),
      m_np(form::spin(QStringLiteral("ioRanks"), 1, 4096, QString(),
                      tr("MPI ranks (mpirun -np); the run measures 1, 2, 4 ... ranks up to this many at once"))),
      m_folder(form::edit(QStringLiteral("ioFolder"),
                          tr("Folder for the files, on the file system to measure; they are removed afterwards"))),
      m_sizes(form::edit(QStringLiteral("ioSizes"), tr("Bytes each rank writes and reads, a list (K/M/G binary)"))),
      m_blocks(form::edit(QStringLiteral("ioBlocks"), tr("Bytes per write or read call, a list (K/M/G binary)"))),
      m_access(form::combo(QStringLiteral("ioAccess"),
                           {QStringLiteral("fpp"), QStringLiteral("shared"), QStringLiteral("both")},
                           tr("fpp: each rank its own file (a sharded checkpoint); shared: disjoint ranges of one "
                              "file; both"))),
      m_fsync(new QCheckBox(tr("fsync before close (inside the timed span)"))),
      m_direct(new QCheckBox(tr("O_DIRECT (sizes and blocks multiples of 4 KiB)"))),
      m_mpirun(form::edit(QStringLiteral("ioMpirunOptions"),
                          tr("Extra mpirun arguments, whitespace separated, e.g. --oversubscribe"))),
      m_preview(new CommandPreview)
{
    setObjectName(QStringLiteral("storageBenchmarkDialog"));
    setWindowTitle(tr("New storage benchmark"));
    m_np->setValue(2);
    m_folder->setText(QDir::tempPath());
    m_sizes->setText(QStringLiteral("16M,64M"));
    m_blocks->setText(QStringLiteral("1M"));
    m_fsync->setObjectName(QStringLiteral("ioFsync"));
    m_direct->setObjectName(QStringLiteral("ioDirect"));
    m_preview->setObjectName(QStringLiteral("ioPreview"));
    m_preview->setToolTip(tr("The exact command Run will start"));
    auto* browse = new QPushButton(tr("Browse…"));
    browse->setToolTip(tr("Choose the folder on the file system to measure"));
    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(browse);
    auto* formLayout = new QFormLayout;
    formLayout->addRow(tr("Ranks:"), m_np);
    formLayout->addRow(tr("Folder:"), folderRow);
    formLayout->addRow(tr("File size per rank:"), m_sizes);
    formLayout->addRow(tr("Block size:"), m_blocks);
    formLayout->addRow(tr("Access:"), m_access);
    formLayout->addRow(QString(), m_fsync);
    formLayout->addRow(QString(), m_direct);
    formLayout->addRow(tr("mpirun options:"), m_mpirun);
    formLayout->addRow(tr("Command:"), m_preview);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Run"));
    buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("runButton"));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(formLayout);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Folder to measure"), m_folder->text());
        if (!dir.isEmpty())
            m_folder->setText(dir);
    });
    for (auto* edit : {m_folder, m_sizes, m_blocks, m_mpirun})
        connect(edit, &QLineEdit::textChanged, this, &StorageBenchmarkDialog::updatePreview);
    connect(m_np, &QSpinBox::valueChanged, this, &StorageBenchmarkDialog::updatePreview);
    connect(m_access, &QComboBox::currentIndexChanged, this, &StorageBenchmarkDialog::updatePreview);
    connect(m_fsync, &QCheckBox::toggled, this, &StorageBenchmarkDialog::updatePreview);
    connect(m_direct, &QCheckBox::toggled, this, &StorageBenchmarkDialog::updatePreview);
    // Run stays off while the folder is missing: the bench would fail on the first open.
    connect(m_folder, &QLineEdit::textChanged, this, [this, buttons] {
        buttons->button(QDialogButtonBox::Ok)->setEnabled(QDir(m_folder->text()).exists());
    });
    updatePreview();
}

void StorageBenchmarkDialog::setFolder(const QString& folder) { m_folder->setText(folder); }
void StorageBenchmarkDialog::setSizes(const QString& sizes) { m_sizes->setText(sizes); }
void StorageBenchmarkDialog::setBlocks(const QString& blocks) { m_blocks->setText(blocks); }
void StorageBenchmarkDialog::setRanks(int np) { m_np->setValue(np); }
void StorageBenchmarkDialog::setMpirunOptions(const QString& options) { m_mpirun->setText(options); }

QStringList StorageBenchmarkDialog::cliArguments() const
{
    if (!QDir(m_folder->text()).exists())
        return {};
    runs::RunRequest r = runs::RunRequest::defaults(runs::RunKind::Io);
    r.launch.np = m_np->value();
    for (const QString& a : QProcess::splitCommand(m_mpirun->text()))
        r.launch.mpirunArgs.push_back(a.toStdString());
    QStringList runner{QStringLiteral("--dir"), m_folder->text(), QStringLiteral("--sizes"),
                       m_sizes->text().simplified().remove(u' '), QStringLiteral("--blocks"),
                       m_blocks->text().simplified().remove(u' '), QStringLiteral("--access"), m_access->currentText()};
    if (m_fsync->isChecked())
        runner << QStringLiteral("--fsync");
    if (m_direct->isChecked())
        runner << QStringLiteral("--direct");
    for (const auto& a : runner)
        r.args.push_back(a.toStdString());
    return rl::cliArguments(m_workspace, r);
}

QString StorageBenchmarkDialog::previewText() const { return m_preview->toPlainText(); }

void StorageBenchmarkDialog::updatePreview()
{
    const QStringList args = cliArguments();
    m_preview->setCommand(args.isEmpty() ? tr("(the folder does not exist)") : shellJoin(m_cli, args));
}
} // namespace rl
