#include "gui/runs/commandpreview.h"

#include <QFontDatabase>
#include <QTextBlock>
#include <QTextLayout>

#include <algorithm>

namespace rl {

CommandPreview::CommandPreview(QWidget* parent) : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    // Paths and quoted templates are long words: break inside them rather than hide their end.
    setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Exactly as tall as the wrapped command: sizeHint() follows the text and the width.
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void CommandPreview::setCommand(const QString& command)
{
    if (command == toPlainText())
        return;
    setPlainText(command);
    fitHeight();
}

int CommandPreview::fittingHeight() const
{
    // QPlainTextDocumentLayout counts the document height in lines, laid out at the viewport width.
    int lines = 0;
    for (QTextBlock b = document()->begin(); b.isValid(); b = b.next())
        lines += std::max(1, b.layout() ? b.layout()->lineCount() : 1);
    const int margins = static_cast<int>(2 * document()->documentMargin()) + 2 * frameWidth() +
                        contentsMargins().top() + contentsMargins().bottom();
    return lines * fontMetrics().lineSpacing() + margins + 2;
}

QSize CommandPreview::sizeHint() const { return {QPlainTextEdit::sizeHint().width(), fittingHeight()}; }
QSize CommandPreview::minimumSizeHint() const { return {QPlainTextEdit::minimumSizeHint().width(), fittingHeight()}; }

void CommandPreview::fitHeight()
{
    const int h = fittingHeight();
    if (h != m_height) {
        m_height = h;
        updateGeometry(); // the dialog's layout grows (or shrinks) to the new line count
    }
}

void CommandPreview::resizeEvent(QResizeEvent* event)
{
    QPlainTextEdit::resizeEvent(event); // relays the text out at the new width first
    fitHeight();
}
} // namespace rl
