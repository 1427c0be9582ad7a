#pragma once
// Helpers for the GUI tests (the QApplication comes from widgettestmain.cpp).
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

namespace rl::testing {
// Processes events until pred() holds or timeoutMs passes (QTRY_* for GoogleTest).
template <typename Pred>
bool waitFor(Pred pred, int timeoutMs = 15000)
{
    return QTest::qWaitFor(pred, timeoutMs);
}

inline QString guiData(const char* rel)
{
    return QStringLiteral(RIDGELINE_TEST_DATA "/gui/") + QString::fromLatin1(rel);
}
} // namespace rl::testing
