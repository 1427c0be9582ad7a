#pragma once
// A widget shown as its own top-level tool window (Sizing, MoE explorer, Hardware profiles):
// title, first size, and Esc / Ctrl+W to close it like a dialog.
#include <QSize>
#include <QString>

class QWidget;

namespace rl {
// The wanted first size, or what the widget's screen has room for with the window frame: a 1500 px
// tool window ran past a 1280x720 screen's right and bottom edges.
QSize sizeOnScreen(QSize wanted, const QWidget* widget);
// `size` is a first size, bounded by sizeOnScreen.
void makeToolWindow(QWidget* widget, const QString& title, QSize size);
} // namespace rl
