// main() for widget tests: offscreen platform, fixed DPI and font, so geometry and rendered
// text are the same on every machine and no display is needed.
#include <gtest/gtest.h>

#include <QApplication>
#include <QFont>
#include <QThreadPool>

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("QT_FONT_DPI", "96");
    qputenv("QT_ENABLE_HIGHDPI_SCALING", "0");
    QApplication app(argc, argv);
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSize(9);
    QApplication::setFont(font);
    ::testing::InitGoogleTest(&argc, argv);
    const int rc = RUN_ALL_TESTS();
    // Join the pool's threads before the atexit handlers run: OpenSSL's cleanup frees every thread's
    // state, and a worker that touched libcrypto (the store's hashes) and exited after it freed its
    // own again (a double free ASan reported at exit of a passing test).
    QThreadPool::globalInstance()->waitForDone(30000);
    return rc;
}
