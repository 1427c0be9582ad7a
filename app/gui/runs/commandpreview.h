#pragma once
// The read-only command line shown by the benchmark dialogs. A command is one long line with
// paths that have no spaces, so a QLabel (breaks only at spaces) or a fixed-height text box cuts
// it off; this box wraps anywhere and grows to show every line, and the text stays selectable
// for copying into a terminal.
#include <QPlainTextEdit>

namespace rl {

class CommandPreview : public QPlainTextEdit
{
public: // no Q_OBJECT: no signals, slots or tr() of its own
    explicit CommandPreview(QWidget* parent = nullptr);

    void setCommand(const QString& command);
    // Height that shows every wrapped line at the current width (no scrolling needed).
    int fittingHeight() const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitHeight();
    int m_height = 0; // the fitting height the layout was last told about
};
} // namespace rl
