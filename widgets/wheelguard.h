#pragma once
// Spin boxes and combo boxes in a scrolled form take the mouse wheel only once clicked or tabbed
// into. Qt's default gives the wheel to whichever one passes under the cursor while the user
// scrolls the form, which silently switched a device from mi300x to mi355x and a step time from
// 354 to 160 ms. An unfocused one hands the wheel on to the form (which scrolls) instead.
class QWidget;

namespace rl {
// Guards every QAbstractSpinBox and QComboBox below `form` that exists now.
void guardWheel(QWidget* form);
} // namespace rl
