#include "gui/sizing/sizingwindow.h"

#include <QGroupBox>
#include <QSplitter>
#include <QVBoxLayout>

#include "gui/sizing/configeditor.h"

namespace rl {

SizingWindow::SizingWindow(QWidget* parent) : QWidget(parent), m_a(new ConfigEditor), m_b(new ConfigEditor)
{
    m_a->setObjectName(QStringLiteral("editorA"));
    m_b->setObjectName(QStringLiteral("editorB"));
    auto* splitter = new QSplitter(Qt::Horizontal);
    for (auto [editor, title] : {std::pair{m_a, tr("Configuration A")}, std::pair{m_b, tr("Configuration B")}}) {
        auto* box = new QGroupBox(title);
        auto* l = new QVBoxLayout(box);
        l->setContentsMargins(4, 4, 4, 4);
        l->addWidget(editor);
        splitter->addWidget(box);
    }
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter);
    // Two editors, each a form next to its results: below ~1400 px the results wrap into slivers.
    resize(1500, 900);
}
} // namespace rl
