#pragma once
// The training recipe's controls, as ridgeline-cli size and report take them (--micro-batch, --zero,
// --micro-batches, --dtype, --recompute, --sp, --ep-overlap, --ep-dispatcher, --framework, --grad-dtype), added as rows of a
// host's form: one set of controls, names and tooltips for the Sizing window's config editor and
// the Report options dialog. The degrees and the sequence length stay with the host.
#include <QJsonObject>
#include <QObject>
#include <QString>

#include "model/parallelconfig.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QSpinBox;

namespace rl {

class RecipeFields : public QObject
{
    Q_OBJECT
public:
    // Adds the rows to `form`. Object names are `prefix` + the field ("microBatch", "dtype", ... with
    // no prefix; "reportMicroBatch", "reportDtype", ... with prefix "report"), for tests.
    RecipeFields(QFormLayout* form, const QString& prefix, QObject* parent);

    // Sets the recipe fields of `into`; its degrees and sequence length are left as they are.
    void applyTo(model::ParallelConfig& into) const;
    void set(const model::ParallelConfig& p);
    // For Settings: the fields by name; missing keys keep the current value.
    QJsonObject toJson() const;
    void fromJson(const QJsonObject& o);

    // While a layout search varies them (the MoE explorer's best-per-shape mode), every field but the
    // GEMM dtype is disabled; the dtype still times what is not searched (decode).
    void setSearched(bool searched);

    int microBatch() const;
    QString dtype() const;
    model::Framework framework() const;

Q_SIGNALS:
    void changed();
    void dtypeChanged(const QString& dtype);

private:
    void setGradDtype(const QString& dtype); // "" (the framework's default), "fp32", "bf16", "fp16"

    QSpinBox *m_microBatch, *m_zero, *m_microBatches;
    QComboBox *m_dtype, *m_recompute, *m_framework, *m_gradDtype;
    QCheckBox *m_sequenceParallel, *m_epOverlap, *m_flexDispatch;
};
} // namespace rl
