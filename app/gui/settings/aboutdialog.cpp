#include "gui/settings/aboutdialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "io/libraryversions.h"
#include "resulttableview.h"

namespace rl {
namespace {
QList<QPair<QString, QString>> versions()
{
    QList<QPair<QString, QString>> out;
    out.append({QStringLiteral("Ridgeline"), QStringLiteral(RIDGELINE_VERSION)});
    const QString qt = QString::fromLatin1(qVersion());
    out.append({QStringLiteral("Qt"), qt == QStringLiteral(QT_VERSION_STR)
                                          ? qt
                                          : QObject::tr("%1 (built with %2)").arg(qt, QStringLiteral(QT_VERSION_STR))});
    for (const auto& [name, version] : io::libraryVersions())
        out.append({QString::fromStdString(name), QString::fromStdString(version)});
    return out;
}
} // namespace

QString AboutDialog::versionsText()
{
    QStringList lines;
    for (const auto& [name, version] : versions())
        lines << name + u' ' + version;
    return lines.join(u'\n');
}

AboutDialog::AboutDialog(const QString& workspacePath, QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("aboutDialog"));
    setWindowTitle(tr("About Ridgeline"));
    auto* text = new QLabel(tr("<h3>Ridgeline %1</h3><p>Benchmark, import, model and chart large-model training "
                               "clusters (AMD MI300X, NVIDIA H100).</p><p>Workspace: %2</p>"
                               "<p>Licensed under the Apache License, Version 2.0 "
                               "(<a href=\"https://www.apache.org/licenses/LICENSE-2.0\">Apache-2.0</a>).</p>")
                                .arg(QStringLiteral(RIDGELINE_VERSION), workspacePath.toHtmlEscaped()));
    text->setObjectName(QStringLiteral("aboutText"));
    text->setWordWrap(true);
    text->setTextInteractionFlags(Qt::TextBrowserInteraction);
    text->setOpenExternalLinks(true);

    const auto list = versions();
    charts::ResultTable shown{{{tr("Library"), tr("A library or tool Ridgeline is built with or runs")},
                               {tr("Version"), tr("The version this build runs with (Qt: with the one it was "
                                                   "built with when they differ)")}},
                              {},
                              {}};
    for (const auto& [library, version] : list)
        shown.rows.push_back({charts::textCell(library), charts::textCell(version)});
    auto* table = new charts::ResultTableView;
    table->setObjectName(QStringLiteral("aboutVersions"));
    table->setTable(std::move(shown));
    table->setToolTip(tr("The libraries this build of Ridgeline runs with"));
    table->horizontalHeader()->setStretchLastSection(true);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    auto* copy = buttons->addButton(tr("&Copy Versions"), QDialogButtonBox::ActionRole);
    copy->setObjectName(QStringLiteral("copyVersions"));
    copy->setToolTip(tr("Copy the versions to the clipboard, e.g. for a bug report"));
    connect(copy, &QPushButton::clicked, this, [] { QApplication::clipboard()->setText(versionsText()); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(text);
    layout->addWidget(table);
    layout->addWidget(buttons);
    resize(480, 400);
}
} // namespace rl
