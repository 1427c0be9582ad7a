#include "gui/window/toolwindow.h"

#include <QAction>
#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

namespace rl {

QSize sizeOnScreen(QSize wanted, const QWidget* widget)
{
    const QScreen* screen = widget ? widget->screen() : nullptr;
    if (!screen)
        screen = QGuiApplication::primaryScreen();
    // Room for the frame and title bar the window manager adds around the client area.
    return screen ? wanted.boundedTo(screen->availableGeometry().size() - QSize(16, 48)) : wanted;
}

void makeToolWindow(QWidget* widget, const QString& title, QSize size)
{
    widget->setWindowFlag(Qt::Window);
    widget->setWindowTitle(title);
    widget->resize(sizeOnScreen(size, widget));
    auto* close = new QAction(QObject::tr("Close Window"), widget);
    close->setObjectName(QStringLiteral("closeWindowAction"));
    close->setShortcuts({QKeySequence(Qt::Key_Escape), QKeySequence(Qt::CTRL | Qt::Key_W)});
    close->setShortcutContext(Qt::WindowShortcut);
    close->setToolTip(QObject::tr("Close this window (its state stays for the next time it is opened)"));
    close->setStatusTip(close->toolTip());
    QObject::connect(close, &QAction::triggered, widget, &QWidget::close);
    widget->addAction(close);
}
} // namespace rl
