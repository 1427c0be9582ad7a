#include "gui/settings/manualdialog.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace rl {

QString ManualDialog::text()
{
    QFile file(QStringLiteral(":/help/manual.md"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

ManualDialog::ManualDialog(QWidget* parent) : QDialog(parent), m_find(new QLineEdit), m_browser(new QTextBrowser)
{
    setObjectName(QStringLiteral("manualDialog"));
    setWindowTitle(tr("Ridgeline manual"));
    m_browser->setObjectName(QStringLiteral("manualText"));
    m_browser->setOpenExternalLinks(false);
    m_browser->setMarkdown(text());
    m_find->setObjectName(QStringLiteral("manualFind"));
    m_find->setPlaceholderText(tr("Find in the manual…"));
    m_find->setClearButtonEnabled(true);
    m_find->setToolTip(tr("Enter finds the next match, Shift+Enter the previous one"));
    m_find->installEventFilter(this); // Enter and Shift+Enter (returnPressed does not tell them apart)
    connect(m_find, &QLineEdit::textEdited, this, [this] {
        m_browser->moveCursor(QTextCursor::Start); // a new word: from the top
        find(false);
    });

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Find:")));
    bar->addWidget(m_find, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_browser, 1);
    layout->addWidget(buttons);
    resize(760, 680);
}

bool ManualDialog::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_find && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            find(key->modifiers().testFlag(Qt::ShiftModifier));
            return true; // not the dialog's default button
        }
    }
    return QDialog::eventFilter(watched, event);
}

void ManualDialog::find(bool backwards)
{
    const QString word = m_find->text();
    if (word.isEmpty())
        return;
    const auto flags = backwards ? QTextDocument::FindBackward : QTextDocument::FindFlags();
    if (!m_browser->find(word, flags)) { // wrap around once
        m_browser->moveCursor(backwards ? QTextCursor::End : QTextCursor::Start);
        m_browser->find(word, flags);
    }
}
} // namespace rl
