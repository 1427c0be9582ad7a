#pragma once
// The conversions the chart and panel files all need: std::string to QString for display, and
// text from users or files (session titles, host, model and file names) made safe for the places
// Qt reads as rich text.
#include <QString>
#include <QStringList>
#include <QTextDocument>

#include <string>
#include <vector>

namespace rl {
inline QString qs(const std::string& s) { return QString::fromStdString(s); }
inline QStringList qs(const std::vector<std::string>& list)
{
    QStringList out;
    for (const auto& s : list)
        out << qs(s);
    return out;
}

// QtCharts draws chart titles, axis titles, category labels and legend entries as HTML, always
// (QGraphicsTextItem::setHtml; there is no plain-text switch): every such text that is not a
// literal of ours goes through chartText, so "<b>" in a session title is shown, not obeyed.
inline QString chartText(const QString& s) { return s.toHtmlEscaped(); }
inline QString chartText(const std::string& s) { return chartText(qs(s)); }
// The text a chartText shows, for what draws plain text (hover callouts, file metadata).
inline QString chartPlainText(const QString& html)
{
    QTextDocument doc;
    doc.setHtml(html);
    return doc.toPlainText();
}

// Tooltips, item tooltips and QMessageBox's static functions take rich text whenever
// Qt::mightBeRichText says so: plain text that would pass for rich text ("<b>x</b>" in a title)
// is given as the rich text of itself; other text is left as it is. QLabels showing such text are
// set to Qt::PlainText instead.
inline QString plainInAutoText(const QString& s)
{
    return Qt::mightBeRichText(s) ? Qt::convertFromPlainText(s, Qt::WhiteSpaceNormal) : s;
}
} // namespace rl
