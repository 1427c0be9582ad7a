// Error and warning labels read on both themes, including after a switch at run time (issue 24:
// the style-sheet reds were barely legible on the dark theme and never followed a switch).
#include <gtest/gtest.h>

#include <QApplication>
#include <QLabel>

#include "darkpalette.h"
#include "tonelabel.h"

namespace {
// Lightness difference between a label's text and its window, 0..255.
int contrast(const QLabel& label)
{
    return std::abs(label.palette().color(QPalette::WindowText).lightness() - label.palette().color(QPalette::Window).lightness());
}

struct RestorePalette
{
    QPalette saved = QApplication::palette();
    ~RestorePalette() { QApplication::setPalette(saved); }
};
} // namespace

TEST(ToneLabel, ErrorsAndWarningsFollowAThemeSwitch)
{
    RestorePalette restore;
    QLabel error(QStringLiteral("Layout dp=3 does not divide 8 GPUs"));
    QLabel warning(QStringLiteral("Rank counts differ"));
    rl::setLabelTone(&error, rl::LabelTone::Error);
    rl::setLabelTone(&warning, rl::LabelTone::Warning);
    const QColor lightError = error.palette().color(QPalette::WindowText);
    EXPECT_GT(lightError.red(), 2 * lightError.green()) << "an error reads as red";
    EXPECT_GE(contrast(error), 100);

    QApplication::setPalette(rl::testing::darkPalette());
    QCoreApplication::sendPostedEvents();
    EXPECT_LT(error.palette().color(QPalette::Window).lightness(), 128) << "the label follows the dark window";
    const QColor darkError = error.palette().color(QPalette::WindowText);
    EXPECT_NE(darkError, lightError) << "the light theme's dark red stays on a dark window";
    EXPECT_GT(darkError.red(), darkError.green());
    EXPECT_GE(contrast(error), 100) << darkError.name().toStdString();
    EXPECT_GE(contrast(warning), 100) << warning.palette().color(QPalette::WindowText).name().toStdString();

    // Back to the normal colour when the problem is gone.
    rl::setLabelTone(&error, rl::LabelTone::Normal);
    EXPECT_EQ(error.palette().color(QPalette::WindowText), QApplication::palette().color(QPalette::WindowText));
    QApplication::setPalette(restore.saved);
    QCoreApplication::sendPostedEvents();
    EXPECT_EQ(error.palette().color(QPalette::WindowText), QApplication::palette().color(QPalette::WindowText));
    EXPECT_EQ(warning.palette().color(QPalette::WindowText), QColor(0xa0, 0x5a, 0x00));
}
