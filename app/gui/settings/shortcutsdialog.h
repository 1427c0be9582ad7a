#pragma once
// Help > Keyboard Shortcuts (F1): every action of the menu bar and of the windows' own widgets
// that has a shortcut, read from the QActions themselves so the list cannot drift from the code.
#include <QDialog>
#include <QList>

class QAction;
class QMenuBar;

namespace rl {

struct ShortcutEntry
{
    QString where;    // "Edit › Delete Sessions" (menu path), or the widget's title
    QString keys;     // "Del", "Esc, Ctrl+W"
    QString tip;      // the status tip
};

// The entries of the menu bar's actions (recursively through submenus) and of `extra` actions
// not in any menu, in menu order, without duplicates.
QList<ShortcutEntry> shortcutEntries(QMenuBar* bar, const QList<QAction*>& extra = {});

class ShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    ShortcutsDialog(const QList<ShortcutEntry>& entries, QWidget* parent = nullptr);
};
} // namespace rl
