#include "gui/settings/appearance.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace rl {
namespace {
// Qt 6.4 has no QStyleHints::setColorScheme: a dark look is Fusion with a dark palette.
QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xdf, 0xe1, 0xe5);
    const QColor disabled(0x7f, 0x84, 0x8e), highlight(0x3d, 0x7e, 0xd6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Light, window.lighter(150));
    p.setColor(QPalette::Midlight, window.lighter(120));
    p.setColor(QPalette::Mid, window.darker(120));
    p.setColor(QPalette::Dark, window.darker(150));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, highlight.lighter(130));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}
} // namespace

void applyTheme(Settings::Theme theme)
{
    // The system's style as the program started, captured before the first change.
    static const QString systemStyle = QApplication::style()->name();
    switch (theme) {
    case Settings::Theme::System:
        QApplication::setStyle(QStyleFactory::create(systemStyle));
        // A palette with no role of its own, not a copy of the one the program started with: Qt
        // resolves it against the platform theme's palette now and again whenever the system's
        // colours change (Qt 6.4 has no QStyleHints::colorSchemeChanged; the widgets get
        // ApplicationPaletteChange, and the charts follow in ChartFrame).
        QApplication::setPalette(QPalette());
        break;
    case Settings::Theme::Light:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    case Settings::Theme::Dark:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
        break;
    }
}

void followDisplaySettings(Settings* settings)
{
    units::setDisplayBandwidthUnit(settings->bandwidthUnit());
    // At start-up only a chosen theme is applied: the system's look needs no change.
    if (settings->theme() != Settings::Theme::System)
        applyTheme(settings->theme());
    QObject::connect(settings, &Settings::bandwidthUnitChanged, settings, &units::setDisplayBandwidthUnit);
    QObject::connect(settings, &Settings::themeChanged, settings, &applyTheme);
}
} // namespace rl
