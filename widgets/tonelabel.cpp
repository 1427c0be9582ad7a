#include "tonelabel.h"

#include <QEvent>
#include <QLabel>

namespace rl {
namespace {
QColor toneColor(LabelTone tone, bool dark)
{
    if (tone == LabelTone::Error)
        return dark ? QColor(0xff, 0x7b, 0x7b) : QColor(0xb0, 0x00, 0x20);
    return dark ? QColor(0xf0, 0xb4, 0x50) : QColor(0xa0, 0x5a, 0x00);
}

class ToneFollower : public QObject
{
public:
    ToneFollower(QLabel* label, LabelTone tone) : QObject(label), m_label(label), m_tone(tone) { apply(); }
    void setTone(LabelTone tone)
    {
        m_tone = tone;
        apply();
    }

    bool eventFilter(QObject* watched, QEvent* event) override
    {
        // PaletteChange, not ApplicationPaletteChange: the label has taken the new window colour
        // by then (a filter sees the application's event before the label resolves it).
        if (watched == m_label && event->type() == QEvent::PaletteChange && !m_applying)
            apply();
        return false;
    }

private:
    void apply()
    {
        m_applying = true;
        if (m_tone == LabelTone::Normal) {
            m_label->setPalette(QPalette()); // inherit the window's text colour again
            m_applying = false;
            return;
        }
        QPalette p = m_label->palette();
        const bool dark = p.color(QPalette::Window).lightness() < 128;
        p.setColor(QPalette::WindowText, toneColor(m_tone, dark));
        m_label->setPalette(p);
        m_applying = false;
    }

    QLabel* m_label;
    LabelTone m_tone;
    bool m_applying = false;
};
} // namespace

void setLabelTone(QLabel* label, LabelTone tone)
{
    for (auto* child : label->children())
        if (auto* follower = dynamic_cast<ToneFollower*>(child)) {
            follower->setTone(tone);
            return;
        }
    label->installEventFilter(new ToneFollower(label, tone));
}
} // namespace rl
