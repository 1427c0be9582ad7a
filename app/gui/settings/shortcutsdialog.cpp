#include "gui/settings/shortcutsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSet>
#include <QVBoxLayout>

#include "resulttableview.h"

namespace rl {
namespace {
QString plain(QString text)
{
    text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
    text.replace(QStringLiteral("&&"), QStringLiteral("&"));
    if (text.endsWith(QStringLiteral("…")))
        text.chop(1);
    return text;
}

QString keysOf(const QAction* a)
{
    QStringList keys;
    for (const auto& k : a->shortcuts())
        keys << k.toString(QKeySequence::NativeText);
    return keys.join(QStringLiteral(", "));
}

void collect(QMenu* menu, const QString& path, QSet<const QAction*>& seen, QList<ShortcutEntry>& out)
{
    for (QAction* a : menu->actions()) {
        if (a->isSeparator())
            continue;
        if (a->menu()) {
            collect(a->menu(), path + QStringLiteral(" › ") + plain(a->text()), seen, out);
            continue;
        }
        if (a->shortcuts().isEmpty() || seen.contains(a))
            continue;
        seen.insert(a);
        out.push_back({path + QStringLiteral(" › ") + plain(a->text()), keysOf(a), a->statusTip()});
    }
}
} // namespace

QList<ShortcutEntry> shortcutEntries(QMenuBar* bar, const QList<QAction*>& extra)
{
    QList<ShortcutEntry> out;
    QSet<const QAction*> seen;
    for (QAction* top : bar->actions())
        if (top->menu())
            collect(top->menu(), plain(top->text()), seen, out);
    for (QAction* a : extra) {
        if (a->shortcuts().isEmpty() || seen.contains(a))
            continue;
        seen.insert(a);
        out.push_back({plain(a->text()), keysOf(a), a->statusTip()});
    }
    return out;
}

ShortcutsDialog::ShortcutsDialog(const QList<ShortcutEntry>& entries, QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard Shortcuts — Ridgeline"));
    charts::ResultTable shown{{{tr("Action"), tr("The menu and the action in it")},
                               {tr("Shortcut"), tr("The keys, as this platform writes them")},
                               {tr("What it does"), tr("The action's status tip")}},
                              {},
                              {}};
    for (const auto& e : entries)
        shown.rows.push_back({charts::textCell(e.where), charts::textCell(e.keys), charts::textCell(e.tip)});
    auto* table = new charts::ResultTableView;
    table->setObjectName(QStringLiteral("shortcutsTable"));
    table->setTable(std::move(shown));
    // Sized to the contents once, the description capped so the dialog stays within a laptop's width.
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table->resizeColumnsToContents();
    table->setColumnWidth(2, std::min(table->columnWidth(2), 660));
    table->horizontalHeader()->setStretchLastSection(true);

    auto* note = new QLabel(tr("Keys of the session list (F2, Del, Ctrl+C) act while the list has the focus; "
                               "Esc and Ctrl+W close the Sizing, MoE explorer and Hardware profiles windows."));
    note->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(table);
    layout->addWidget(note);
    layout->addWidget(buttons);
    resize(1040, 600);
}
} // namespace rl
