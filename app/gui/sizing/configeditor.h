#pragma once
// The sizing model's config editor: a model (preset, config.json or edited by hand), a hardware
// profile and a parallel layout in; parameters, FLOPs, memory per GPU, step time, MFU, prefill and
// decode latency, and the sizing-rule findings out, recomputed on every edit (closed-form, well
// under a millisecond, so it runs on the GUI thread without blocking it). The device and what is
// measured come from a Calibration picker (its store reads run in a worker); the results say the
// basis of the collectives, GEMM efficiency and max-achievable rate they used.
#include <memory>
#include <optional>
#include <vector>

#include <QWidget>

#include "model/modelconfig.h"
#include "model/parallelconfig.h"
#include "model/calibration.h"
#include "model/sizingreport.h"
#include "model/storedruncalibration.h"

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTimer;

namespace rl {
class CalibrationPicker;
class RecipeFields;
namespace charts {
class ResultTableView;
}

class ConfigEditor : public QWidget
{
    Q_OBJECT
public:
    explicit ConfigEditor(QWidget* parent = nullptr);

    // Fills the form; fields the form does not show (MLA ranks, sliding windows, ...) are kept.
    void loadConfig(const model::ModelConfig& config);
    model::ModelConfig config() const;
    void setHardware(const QString& id);
    CalibrationPicker* calibrationPicker() const { return m_calibration; }
    // The workspace whose saved configurations the preset list offers and "Save in workspace"
    // writes to (read and written off the GUI thread).
    void setWorkspace(const QString& path);
    void saveToWorkspace(const QString& name);
    void setParallel(const QString& spec);
    // The training recipe fields of `recipe` (micro-batch, ZeRO, micro-batches, dtype, recompute,
    // SP, EP overlap, dispatcher); the degrees are setParallel's, the sequence length the config's.
    void setRecipe(const model::ParallelConfig& recipe);
    // A configuration sized elsewhere (the MoE explorer's clicked point, a Plan window row), set up as
    // it was sized: device, attention kernel, layout and recipe, then the model. The recipe fields the
    // form has no control for (stage split, DP and TP overlap, flash attention, dropout, gradient
    // accumulation fusion) are kept from `recipe` until the next loadSized, so the editor shows the
    // step the other window showed. The measured sessions of this editor's Calibration picker stay.
    void loadSized(const model::ModelConfig& config, const model::ParallelConfig& recipe, const QString& parallel,
                   const QString& hardware, const QString& attention);

    // The last evaluation, or none when the inputs do not make a valid configuration.
    const std::optional<model::SizingReport>& report() const { return m_report; }
    QString problem() const; // why there is no report, empty otherwise
    // The value shown for a result row ("Total parameters", "MFU", ...), for tests and copy.
    QString resultText(const QString& quantity) const;
    int findingCount(model::RuleSeverity severity) const;
    // MLP widths (expert widths for a MoE model) near the current one, best predicted GEMM
    // efficiency first (wave quantisation on the chosen device and layout).
    std::vector<model::WidthCandidate> fastWidths() const;

Q_SIGNALS:
    void reportChanged();
    void savedConfigsLoaded(const QStringList& names);
    void configSaved(const QString& name, const QString& error);

private:
    void recompute();
    void scheduleRecompute();
    void showReport();
    QSpinBox* addSpin(const QString& name, const QString& label, int max, const QString& tip);
    model::RuleOptions ruleOptions() const;

    model::ModelConfig m_base;
    // loadSized's recipe: the fields the form does not show come from it (see loadSized).
    model::ParallelConfig m_sizedRecipe;
    QComboBox* m_preset;
    QLabel* m_name;
    QSpinBox *m_layers, *m_dModel, *m_heads, *m_kvHeads, *m_headDim, *m_mlpWidth, *m_vocab, *m_seqLen;
    QSpinBox *m_experts, *m_topK, *m_expertWidth, *m_shared;
    QSpinBox* m_decodeBatch;
    // The training recipe, as ridgeline-cli size's --micro-batch, --zero, --dtype, --micro-batches,
    // --recompute, --sp, --ep-overlap and --ep-dispatcher: without them a GUI user could not size the
    // runs `validate` checks.
    RecipeFields* m_recipe;
    CalibrationPicker* m_calibration;
    std::shared_ptr<const model::Calibration> m_usedCalibration; // the one m_report was computed with
    std::vector<model::FigureBasis> m_bases;                    // of m_report's figures
    QString m_maxAchievable;                                    // "794 TFLOP/s (datasheet)"
    QString m_attentionBasis;   // how the step timed its attention, with the citation (the tooltip)
    QString m_attentionSummary; // the same without it (the cell)
    QLineEdit* m_parallel;
    QLabel* m_problem;
    charts::ResultTableView* m_results;
    charts::ResultTableView* m_findings;
    QTimer* m_recompute;
    class JobTracker* m_job;
    QString m_workspace;
    int m_presetCount = 0; // the first m_presetCount entries are presets, then saved configurations
    std::optional<model::SizingReport> m_report;
    // The calibration picker's measured run, applied to m_report's step (nullopt: none, or why not
    // in m_runProblem); the step before it.
    std::optional<model::StoredRunCalibration> m_runCalibration;
    QString m_runProblem;
    double m_uncalibratedStep = 0;
    QString m_problemText;
    double m_hbmBytes = 0;
    QFormLayout* m_form = nullptr;
    bool m_loading = false;
};
} // namespace rl
