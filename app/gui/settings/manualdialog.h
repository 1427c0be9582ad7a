#pragma once
// Help > Ridgeline manual: the short manual (resources/help/manual.md, compiled into the program,
// so it is there offline and in every build) with a find field. Non-modal: it stays open beside
// the window it explains.
#include <QDialog>

class QLineEdit;
class QTextBrowser;

namespace rl {

class ManualDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ManualDialog(QWidget* parent = nullptr);
    QTextBrowser* browser() const { return m_browser; }
    // The manual's Markdown text (empty when the resource is missing, which a test catches).
    static QString text();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void find(bool backwards); // the next match (or previous), from the cursor, wrapping once

    QLineEdit* m_find;
    QTextBrowser* m_browser;
};
} // namespace rl
