#pragma once
// Error and warning labels in a colour that reads on the current theme. A style-sheet colour is
// fixed (#b00020 on a dark window is barely legible) and freezes the label's palette; this sets the
// label's text colour from its palette instead, and again whenever the palette changes (a theme
// switch at run time).
class QLabel;

namespace rl {

enum class LabelTone { Normal, Error, Warning };

// The tone stays with the label through theme changes until it is set again (Normal: the
// window's own text colour).
void setLabelTone(QLabel* label, LabelTone tone);
} // namespace rl
