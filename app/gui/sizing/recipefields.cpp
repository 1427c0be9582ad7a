#include "gui/sizing/recipefields.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QSpinBox>

#include <initializer_list>

#include "gui/sizing/frameworkcombo.h"
#include "model/modelcounts.h"
#include "textconv.h"

namespace rl {
namespace {
const auto kMicroBatch = QStringLiteral("microBatch");
const auto kZero = QStringLiteral("zero");
const auto kMicroBatches = QStringLiteral("microBatches");
const auto kDtype = QStringLiteral("dtype");
const auto kRecompute = QStringLiteral("recompute");
const auto kSequenceParallel = QStringLiteral("sequenceParallel");
const auto kEpOverlap = QStringLiteral("epOverlap");
const auto kFlexDispatch = QStringLiteral("flexDispatch");
const auto kFramework = QStringLiteral("framework");
const auto kGradDtype = QStringLiteral("gradDtype");

QString nameOf(const QString& prefix, const QString& field)
{
    return prefix.isEmpty() ? field : prefix + field.left(1).toUpper() + field.mid(1);
}
} // namespace

RecipeFields::RecipeFields(QFormLayout* form, const QString& prefix, QObject* parent) : QObject(parent)
{
    auto spin = [&](const QString& field, const QString& label, int min, int max, const QString& tip) {
        auto* s = new QSpinBox;
        s->setObjectName(nameOf(prefix, field));
        s->setRange(min, max);
        s->setToolTip(tip);
        s->setKeyboardTracking(false); // recompute on Enter or focus change, not on every digit
        connect(s, &QSpinBox::valueChanged, this, &RecipeFields::changed);
        form->addRow(label, s);
        return s;
    };
    auto choice = [&](const QString& field, const QString& label, const QStringList& items, const QString& tip) {
        auto* box = new QComboBox;
        box->setObjectName(nameOf(prefix, field));
        box->addItems(items);
        box->setToolTip(tip);
        connect(box, &QComboBox::currentIndexChanged, this, &RecipeFields::changed);
        form->addRow(label, box);
        return box;
    };
    auto toggle = [&](const QString& field, const QString& text, const QString& tip) {
        auto* box = new QCheckBox(text);
        box->setObjectName(nameOf(prefix, field));
        box->setToolTip(tip);
        connect(box, &QCheckBox::toggled, this, &RecipeFields::changed);
        form->addRow(QString(), box);
        return box;
    };
    m_microBatch = spin(kMicroBatch, tr("Micro-batch:"), 1, 4096, tr("Sequences per micro-batch"));
    m_zero = spin(kZero, tr("ZeRO stage:"), 0, 3, tr("0 none, 1 optimizer, 2 + gradients, 3 + weights"));
    m_microBatches = spin(kMicroBatches, tr("Micro-batches per step:"), 0, 1 << 20,
                          tr("Micro-batches per data-parallel rank per step (gradient accumulation steps); "
                             "auto: 1, or 4 x pp with pipeline parallelism"));
    m_microBatches->setSpecialValueText(tr("auto"));
    m_dtype = choice(kDtype, tr("GEMM dtype:"), qs(model::gemmDtypes()),
                     tr("Dtype of the linear layers' GEMMs. FP8 keeps attention, the router and the LM head in "
                        "BF16 and casts the GEMM inputs (Transformer Engine's recipe)"));
    connect(m_dtype, &QComboBox::currentTextChanged, this, &RecipeFields::dtypeChanged);
    m_recompute = choice(kRecompute, tr("Activation recompute:"),
                         {QLatin1String(model::toString(model::Recompute::None)),
                          QLatin1String(model::toString(model::Recompute::Selective)),
                          QLatin1String(model::toString(model::Recompute::Full))},
                         tr("none: keep every activation; selective: recompute the attention scores "
                            "(Korthikanti et al. 2022); full: recompute each layer's forward in the backward"));
    m_sequenceParallel = toggle(kSequenceParallel, tr("Sequence parallel"),
                                tr("Split norms, dropout and residuals over the tensor-parallel ranks "
                                   "(all-gather / reduce-scatter instead of all-reduce)"));
    m_epOverlap = toggle(kEpOverlap, tr("Overlap expert all-to-all"),
                         tr("The MoE all_to_all runs under another micro-batch's compute (Megatron-Core "
                            "overlap_moe_expert_parallel_comm; needs 2+ micro-batches); off: on the critical path"));
    m_flexDispatch = toggle(kFlexDispatch, tr("DeepEP / HybridEP dispatch"),
                            tr("A token crosses to another node once, however many of its experts live there "
                               "(Megatron-Core moe_token_dispatcher_type flex); off: the all-to-all dispatcher, one "
                               "copy per expert"));
    m_framework = newFrameworkCombo(nameOf(prefix, kFramework));
    connect(m_framework, &QComboBox::currentIndexChanged, this, &RecipeFields::changed);
    form->addRow(tr("Framework:"), m_framework);
    // ridgeline-cli size --grad-dtype: the item's data is the flag's value, empty for the default.
    m_gradDtype = choice(kGradDtype, tr("Gradient dtype:"), {tr("framework's default")},
                         tr("The type gradients accumulate in and are reduced in over data parallelism. Default: "
                            "the framework's (Megatron-Core in bf16 or FP8 keeps fp32 main grads, "
                            "--accumulate-allreduce-grads-in-fp32; DeepSpeed's BF16 optimizer an fp32 buffer); "
                            "bf16 as NeMo's and Megatron-Bridge's performance recipes reduce (--grad-reduce-in-bf16)"));
    m_gradDtype->setItemData(0, QString());
    for (const char* d : {"fp32", "bf16", "fp16"})
        m_gradDtype->addItem(QLatin1String(d), QLatin1String(d));
    // ridgeline-cli size's defaults.
    m_microBatch->setValue(1);
    m_zero->setValue(1);
}

void RecipeFields::applyTo(model::ParallelConfig& p) const
{
    p.microBatch = m_microBatch->value();
    p.microBatches = m_microBatches->value();
    p.zeroStage = m_zero->value();
    p.dtype = m_dtype->currentText().toStdString();
    p.recompute = model::recomputeFromString(m_recompute->currentText().toStdString());
    p.sequenceParallel = m_sequenceParallel->isChecked();
    p.epOverlap = m_epOverlap->isChecked();
    p.flexDispatch = m_flexDispatch->isChecked();
    p.framework = framework();
    p.gradDtype = m_gradDtype->currentData().toString().toStdString();
}

void RecipeFields::setSearched(bool searched)
{
    for (QWidget* w : std::initializer_list<QWidget*>{m_microBatch, m_zero, m_microBatches, m_recompute,
                                                      m_sequenceParallel, m_epOverlap, m_flexDispatch, m_gradDtype})
        w->setEnabled(!searched);
}

void RecipeFields::set(const model::ParallelConfig& p)
{
    m_microBatch->setValue(p.microBatch);
    m_microBatches->setValue(p.microBatches);
    m_zero->setValue(p.zeroStage);
    m_dtype->setCurrentText(qs(p.dtype));
    m_recompute->setCurrentText(QLatin1String(model::toString(p.recompute)));
    m_sequenceParallel->setChecked(p.sequenceParallel);
    m_epOverlap->setChecked(p.epOverlap);
    m_flexDispatch->setChecked(p.flexDispatch);
    setFramework(m_framework, p.framework);
    setGradDtype(qs(p.gradDtype));
}

QJsonObject RecipeFields::toJson() const
{
    return {{kMicroBatch, m_microBatch->value()},
            {kMicroBatches, m_microBatches->value()},
            {kZero, m_zero->value()},
            {kDtype, m_dtype->currentText()},
            {kRecompute, m_recompute->currentText()},
            {kSequenceParallel, m_sequenceParallel->isChecked()},
            {kEpOverlap, m_epOverlap->isChecked()},
            {kFlexDispatch, m_flexDispatch->isChecked()},
            {kFramework, m_framework->currentData().toString()},
            {kGradDtype, m_gradDtype->currentData().toString()}};
}

void RecipeFields::fromJson(const QJsonObject& o)
{
    m_microBatch->setValue(o.value(kMicroBatch).toInt(m_microBatch->value()));
    m_microBatches->setValue(o.value(kMicroBatches).toInt(m_microBatches->value()));
    m_zero->setValue(o.value(kZero).toInt(m_zero->value()));
    m_dtype->setCurrentText(o.value(kDtype).toString(m_dtype->currentText()));
    m_recompute->setCurrentText(o.value(kRecompute).toString(m_recompute->currentText()));
    m_sequenceParallel->setChecked(o.value(kSequenceParallel).toBool(m_sequenceParallel->isChecked()));
    m_epOverlap->setChecked(o.value(kEpOverlap).toBool(m_epOverlap->isChecked()));
    m_flexDispatch->setChecked(o.value(kFlexDispatch).toBool(m_flexDispatch->isChecked()));
    // An unknown name (a settings file from elsewhere) keeps the current stack.
    if (const auto f = model::parseFramework(o.value(kFramework).toString().toStdString()))
        setFramework(m_framework, *f);
    if (o.contains(kGradDtype))
        setGradDtype(o.value(kGradDtype).toString());
}

void RecipeFields::setGradDtype(const QString& dtype)
{
    // A type the model does not take (a settings file from elsewhere) is the framework's default.
    const int i = m_gradDtype->findData(dtype);
    m_gradDtype->setCurrentIndex(i >= 0 ? i : 0);
}

int RecipeFields::microBatch() const { return m_microBatch->value(); }
QString RecipeFields::dtype() const { return m_dtype->currentText(); }
model::Framework RecipeFields::framework() const { return frameworkOf(m_framework); }
} // namespace rl
