#include "gui/runs/formfields.h"

#include <QComboBox>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>

namespace rl::form {

QSpinBox* spin(const QString& name, int min, int max, const QString& suffix, const QString& tip)
{
    auto* s = new QSpinBox;
    s->setObjectName(name);
    s->setRange(min, max);
    s->setSuffix(suffix);
    s->setToolTip(tip);
    return s;
}

QSpinBox* countSpin(const QString& name, int min, int max, const QString& singular, const QString& plural,
                    const QString& tip)
{
    auto* s = spin(name, min, max, plural, tip);
    auto follow = [s, singular, plural](int value) { s->setSuffix(value == 1 ? singular : plural); };
    QObject::connect(s, &QSpinBox::valueChanged, s, follow);
    follow(s->value());
    return s;
}

QLineEdit* edit(const QString& name, const QString& tip)
{
    auto* e = new QLineEdit;
    e->setObjectName(name);
    e->setToolTip(tip);
    return e;
}

QComboBox* combo(const QString& name, const QStringList& items, const QString& tip, bool editable)
{
    auto* c = new QComboBox;
    c->setObjectName(name);
    c->addItems(items);
    c->setEditable(editable);
    c->setToolTip(tip);
    return c;
}

QStringList words(const QString& text)
{
    static const QRegularExpression space(QStringLiteral("\\s+"));
    return text.split(space, Qt::SkipEmptyParts);
}

QStringList settingLines(const QString& text)
{
    QStringList out;
    for (const auto& line : text.split(u'\n'))
        if (const QString t = line.trimmed(); !t.isEmpty() && !t.startsWith(u'#'))
            out << t;
    return out;
}
} // namespace rl::form
