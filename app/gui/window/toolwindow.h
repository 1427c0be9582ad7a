#pragma once
// A widget shown as its own top-level tool window (Sizing, MoE explorer, Hardware profiles):
// title, first size, and Esc / Ctrl+W to close it like a dialog.
#include <QSize>
#include <QString>

class QWidget;

namespace rl {
void makeToolWindow(QWidget* widget, const QString& title, QSize size);
} // namespace rl
