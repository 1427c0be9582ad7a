#include "manualdialog.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QHBoxLayout>
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
    connect(m_find, &QLineEdit::returnPressed, this, [this] { find(false); });
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
