#pragma once
// The named, tooltipped fields the benchmark dialogs are built from (one place, so every dialog's
// fields carry an object name for tests and a tooltip for users).
#include <QString>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLineEdit;
class QSpinBox;
QT_END_NAMESPACE

namespace rl::form {
QSpinBox* spin(const QString& name, int min, int max, const QString& suffix, const QString& tip);
// A count with its noun: the suffix follows the value, "1 rank" but "2 ranks" (a fixed suffix read
// "1 ranks"; Qt's %n plural needs a translation loaded even for English).
QSpinBox* countSpin(const QString& name, int min, int max, const QString& singular, const QString& plural,
                    const QString& tip);
QLineEdit* edit(const QString& name, const QString& tip);
QComboBox* combo(const QString& name, const QStringList& items, const QString& tip, bool editable = false);

// The whitespace-separated words of a one-line field (extra tool flags, mpirun options).
QStringList words(const QString& text);
// The trimmed, non-empty lines of a text box, without the comment lines (#...): NAME=VALUE settings.
QStringList settingLines(const QString& text);
} // namespace rl::form
