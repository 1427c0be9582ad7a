#pragma once
// Two config editors side by side (A and B) to compare configurations: the same questions about
// two models, two layouts or two devices, answered next to each other.
#include <QWidget>

namespace rl {
class ConfigEditor;

class SizingWindow : public QWidget
{
    Q_OBJECT
public:
    explicit SizingWindow(QWidget* parent = nullptr);
    ConfigEditor* editorA() const { return m_a; }
    ConfigEditor* editorB() const { return m_b; }

private:
    ConfigEditor* m_a;
    ConfigEditor* m_b;
};
} // namespace rl
