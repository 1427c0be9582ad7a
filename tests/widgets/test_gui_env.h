#pragma once
// Helpers for the GUI tests (the QApplication comes from widgettestmain.cpp).
#include <QTest>
#include <QWidget>

#include <gtest/gtest.h>

namespace rl::testing {
// Processes events until pred() holds or timeoutMs passes (QTRY_* for GoogleTest).
template <typename Pred>
bool waitFor(Pred pred, int timeoutMs = 15000)
{
    return QTest::qWaitFor(pred, timeoutMs);
}

// Saves the widget as NAME under $RIDGELINE_TEST_SCREENSHOT_DIR when set (to look at it by eye).
inline void shoot(QWidget* w, const char* name)
{
    if (const QByteArray d = qgetenv("RIDGELINE_TEST_SCREENSHOT_DIR"); !d.isEmpty())
        w->grab().save(QString::fromLocal8Bit(d) + u'/' + QString::fromLatin1(name));
}

inline QString guiData(const char* rel)
{
    return QStringLiteral(RIDGELINE_TEST_DATA "/gui/") + QString::fromLatin1(rel);
}
} // namespace rl::testing
