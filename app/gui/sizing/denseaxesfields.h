#pragma once
// The MoE explorer's axes for a dense base (model/densesweep.h): hidden sizes, FFN widths as
// multiples of the hidden size or as typed widths (typed ones replace the multiples, whose field is
// then disabled), and layer counts (given: the FFN width is solved for the held quantity instead of
// the layer count), as ridgeline-cli moe-sweep --best-layout's --hidden, --ffn-mult, --ffn and
// --layers take them.
#include <QWidget>

#include <optional>

#include "model/densesweep.h"

class QLineEdit;

namespace rl {

class DenseAxesFields : public QWidget
{
    Q_OBJECT
public:
    explicit DenseAxesFields(QWidget* parent = nullptr);

    // Offers the base's default hidden sizes (model::defaultDenseHidden) and says its head step.
    void setBase(const model::ModelConfig& base);
    // The typed axes for `hold` (no base: the worker loads it); the bad field's error otherwise.
    std::optional<model::DenseSweepSpec> axes(model::SweepHold hold, QString* error) const;

private:
    QLineEdit* m_hidden;
    QLineEdit* m_ffnMult;
    QLineEdit* m_ffnWidths;
    QLineEdit* m_layers;
};
} // namespace rl
