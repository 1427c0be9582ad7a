#include "gui/sizing/denseaxesfields.h"

#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>

#include "textconv.h"

namespace rl {
namespace {
QString joined(const std::vector<int>& values)
{
    QStringList items;
    for (int v : values)
        items << QString::number(v);
    return items.join(QLatin1Char(','));
}
} // namespace

DenseAxesFields::DenseAxesFields(QWidget* parent) : QWidget(parent)
{
    const auto field = [this](const char* name, const QString& tip) {
        auto* e = new QLineEdit(this);
        e->setObjectName(QLatin1String(name));
        e->setToolTip(tip);
        return e;
    };
    m_hidden = field("moeHidden", tr("Hidden sizes (d_model): a list (2048,3072,4096) or ranges start:stop:step. Heads "
                                     "keep the base's head dim and grow with the hidden size"));
    m_ffnMult = field("moeFfnMult", tr("FFN widths as multiples of the hidden size (2.67,3.5,4), rounded to 64; the "
                                       "layer count is solved for the held quantity"));
    m_ffnMult->setText(QStringLiteral("2,2.67,3.5,4"));
    m_ffnWidths = field("moeFfnWidths", tr("FFN widths as typed (8192,14336) or ranges start:stop:step, in place of "
                                           "FFN ×; the layer count is solved for the held quantity"));
    m_ffnWidths->setPlaceholderText(tr("blank: FFN ×"));
    connect(m_ffnWidths, &QLineEdit::textChanged, this,
            [this](const QString& text) { m_ffnMult->setEnabled(text.trimmed().isEmpty()); });
    m_layers = field("moeLayers", tr("Layer counts: given, the FFN width is solved for the held quantity instead of "
                                     "the layer count (FFN × is then not used); holding nothing, a third axis"));
    m_layers->setPlaceholderText(tr("solved"));
    // Two by two as the MoE axes are, so the form keeps its width.
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    const std::pair<QString, QLineEdit*> fields[] = {
        {tr("hidden"), m_hidden}, {tr("FFN ×"), m_ffnMult}, {tr("FFN widths"), m_ffnWidths}, {tr("layers"), m_layers}};
    for (int i = 0; i < 4; ++i) {
        grid->addWidget(new QLabel(fields[i].first, this), i / 2, 2 * (i % 2));
        grid->addWidget(fields[i].second, i / 2, 2 * (i % 2) + 1);
    }
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(3, 1);
}

void DenseAxesFields::setBase(const model::ModelConfig& base)
{
    m_hidden->setText(joined(model::defaultDenseHidden(base)));
    m_hidden->setPlaceholderText(tr("multiples of %1").arg(model::denseHiddenStep(base)));
}

std::optional<model::DenseSweepSpec> DenseAxesFields::axes(model::SweepHold hold, QString* error) const
{
    model::DenseSweepSpec spec;
    spec.hold = hold == model::SweepHold::ActiveParams ? model::SweepHold::TotalParams : hold;
    try {
        spec.hidden = model::parseSweepValues(m_hidden->text().toStdString(), "hidden");
        const QString layers = m_layers->text().trimmed(), ffn = m_ffnMult->text().trimmed(),
                      widths = m_ffnWidths->text().trimmed();
        if (!layers.isEmpty())
            spec.layers = model::parseSweepValues(layers.toStdString(), "layers");
        // Layers given under a held quantity: the FFN width is what is solved, whatever FFN × says.
        if (layers.isEmpty() || hold == model::SweepHold::None) {
            if (!widths.isEmpty())
                spec.ffnWidths = model::parseSweepValues(widths.toStdString(), "FFN widths");
            else
                spec.ffnMultiples = model::parseSweepMultiples(ffn.toStdString(), "FFN ×");
        }
    } catch (const std::exception& e) {
        *error = qs(e.what());
        return std::nullopt;
    }
    return spec;
}
} // namespace rl
