#pragma once
// A dark window palette, as a dark desktop theme gives one: the charts and labels must read on it.
#include <QPalette>

namespace rl::testing {
inline QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x30));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
    p.setColor(QPalette::Text, QColor(0xdf, 0xe1, 0xe5));
    p.setColor(QPalette::WindowText, QColor(0xdf, 0xe1, 0xe5));
    return p;
}
} // namespace rl::testing
