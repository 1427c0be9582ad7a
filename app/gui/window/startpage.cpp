#include "gui/window/startpage.h"

#include <QAction>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include "settings.h"

namespace rl {

StartPage::StartPage(Settings* settings, const QString& sampleData, QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("startPage"));
    auto* heading = new QLabel(tr("<h2>Ridgeline</h2><p>Select sessions on the left to chart them, or start "
                                  "here.</p>"));
    heading->setObjectName(QStringLiteral("startHeading"));

    auto* recentBox = new QGroupBox(tr("Recent workspaces"));
    m_recent = new QListWidget;
    m_recent->setObjectName(QStringLiteral("recentWorkspaces"));
    m_recent->setToolTip(tr("Workspaces opened before; click one to open it"));
    auto* sample = new QPushButton(tr("Open the sample data"));
    sample->setObjectName(QStringLiteral("openSampleData"));
    sample->setEnabled(!sampleData.isEmpty());
    sample->setToolTip(sampleData.isEmpty()
                           ? tr("The sample data was not found next to the program")
                           : tr("A workspace of its own with the bundled samples (%1): collectives, kernels, traces")
                                 .arg(sampleData));
    auto* recentLayout = new QVBoxLayout(recentBox);
    recentLayout->addWidget(m_recent, 1);
    recentLayout->addWidget(sample, 0, Qt::AlignLeft);

    auto* tasksBox = new QGroupBox(tr("Common tasks"));
    m_tasks = new QVBoxLayout(tasksBox);
    m_tasks->addStretch();

    auto* drop = new QLabel(tr("Drop benchmark output, traces, training logs or whole folders anywhere on this "
                               "window to import them (nccl-tests, rccl-tests, OSU, IMB, STREAM, GEMM benches, "
                               "Kineto traces, ...)."));
    drop->setObjectName(QStringLiteral("dropHint"));
    drop->setWordWrap(true);
    drop->setAlignment(Qt::AlignCenter);
    drop->setFrameShape(QFrame::StyledPanel);
    drop->setFrameShadow(QFrame::Sunken);
    drop->setMinimumHeight(70);
    drop->setContentsMargins(12, 12, 12, 12);

    auto* columns = new QHBoxLayout;
    columns->addWidget(recentBox, 3);
    columns->addWidget(tasksBox, 2);
    auto* inner = new QVBoxLayout;
    inner->addWidget(heading);
    inner->addLayout(columns, 1);
    inner->addWidget(drop);
    auto* centred = new QWidget;
    centred->setLayout(inner);
    centred->setMaximumWidth(900);
    auto* outer = new QHBoxLayout(this);
    outer->addStretch(1);
    outer->addWidget(centred, 4);
    outer->addStretch(1);

    connect(m_recent, &QListWidget::itemClicked, this,
            [this](QListWidgetItem* item) { emit openWorkspaceRequested(item->data(Qt::UserRole).toString()); });
    connect(sample, &QPushButton::clicked, this, &StartPage::sampleDataRequested);
    connect(settings, &Settings::recentWorkspacesChanged, this, &StartPage::showRecent);
    showRecent(settings->recentWorkspaces());
}

void StartPage::addTask(QAction* action, const QString& label, const QString& objectName)
{
    auto* button = new QPushButton(label);
    button->setObjectName(objectName);
    const QString key = action->shortcut().toString(QKeySequence::NativeText);
    button->setToolTip(key.isEmpty() ? action->statusTip() : tr("%1 (%2)").arg(action->statusTip(), key));
    connect(button, &QPushButton::clicked, action, &QAction::trigger);
    m_tasks->insertWidget(m_tasks->count() - 1, button);
}

void StartPage::showRecent(const QStringList& recent)
{
    m_recent->clear();
    for (const auto& path : recent) {
        // The file name to find it by, the folder to tell apart two of the same name.
        auto* item = new QListWidgetItem(tr("%1 — %2").arg(QFileInfo(path).fileName(), QFileInfo(path).absolutePath()));
        item->setData(Qt::UserRole, path);
        item->setToolTip(QFileInfo::exists(path) ? tr("Open %1").arg(path) : tr("%1 (no longer there)").arg(path));
        m_recent->addItem(item);
    }
    if (recent.isEmpty()) {
        auto* none = new QListWidgetItem(tr("No workspace opened before"));
        none->setFlags(Qt::NoItemFlags);
        m_recent->addItem(none);
    }
}
} // namespace rl
