#include "wheelguard.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QWheelEvent>

namespace rl {
namespace {
class WheelGuard : public QObject
{
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() != QEvent::Wheel)
            return false;
        auto* w = qobject_cast<QWidget*>(watched);
        if (!w || w->hasFocus() || !w->parentWidget())
            return false;
        // To the parent, as if this control were not there: QApplication::notify carries the
        // wheel up to the scroll area, mapping its position on the way.
        const auto* we = static_cast<QWheelEvent*>(event);
        QWheelEvent onParent(w->mapToParent(we->position()), we->globalPosition(), we->pixelDelta(), we->angleDelta(),
                             we->buttons(), we->modifiers(), we->phase(), we->inverted(), we->source());
        QApplication::sendEvent(w->parentWidget(), &onParent);
        return true;
    }
};
} // namespace

void guardWheel(QWidget* form)
{
    auto* guard = new WheelGuard(form);
    const auto guardOne = [guard](QWidget* w) {
        // The wheel needs focus, and a click or Tab gives it; plain hovering no longer does.
        w->setFocusPolicy(Qt::StrongFocus);
        w->installEventFilter(guard);
    };
    for (auto* s : form->findChildren<QAbstractSpinBox*>())
        guardOne(s);
    for (auto* c : form->findChildren<QComboBox*>())
        guardOne(c);
}
} // namespace rl
