#pragma once
// The MoE trade-off explorer: pick a base MoE model, a hardware profile, what to hold constant and
// the parallel layout; the sweep (analysis/model/moesweep.h) runs in a worker with progress and
// cancel, and the scatter shows throughput against decode latency with the Pareto front. A click
// on a point shows that configuration; the whole sweep exports to CSV. A Calibration picker chooses
// the device and the measured sessions the sweep is timed with; changing it re-runs a shown sweep.
// Layout "best per shape on a cluster" sizes every shape at its own best layout instead
// (plan/shapesearch.h, as `ridgeline-cli moe-sweep --best-layout`) and says where the base shape
// stands against the Pareto front. A dense base model sweeps its hidden and FFN widths instead
// (DenseAxesFields, model/densesweep.h), always each shape at its best layout.
#include <QWidget>

#include <optional>
#include <string>

#include "model/modelconfig.h"
#include "model/moesweep.h"
#include "model/parallelconfig.h"
#include "plan/shapesearch.h"

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace rl {
class CalibrationPicker;
class DenseAxesFields;
class JobTracker;
class RecipeFields;
namespace charts {
class MoeScatterChart;
}

class MoeExplorer : public QWidget
{
    Q_OBJECT
public:
    explicit MoeExplorer(QWidget* parent = nullptr);

    enum class LayoutMode { Fixed, BestPerShape };
    void setLayoutMode(LayoutMode mode);
    LayoutMode layoutMode() const;

    // The workspace whose measured sessions the Calibration picker offers.
    void setWorkspace(const QString& path);
    CalibrationPicker* calibrationPicker() const { return m_calibration; }
    QString statusText() const;

    void runSweep();
    void cancel();
    bool isRunning() const;
    charts::MoeScatterChart* chart() const { return m_chart; }
    const model::MoeSweepResult& result() const { return m_result; }
    // The shown shape search (best per shape), base shape first; nullopt when a fixed-layout sweep
    // or nothing is shown.
    const std::optional<plan::ShapeSearchResult>& shapeResult() const { return m_shapes; }
    // plan::placeBase of the shown shape search; empty otherwise.
    QString baseVerdict() const;
    // The chart's export (charts::ChartFrame): PNG/SVG/PDF at the export size, or the sweep as
    // model::toCsv writes it, by suffix; the error, or empty.
    QString exportTo(const QString& fileName) const;
    QString selectedText() const;

Q_SIGNALS:
    void sweepFinished(int configurations);
    // The clicked configuration as a full model (base preset with the swept fields replaced), with
    // what it was sized with: the layout and training recipe, the hardware profile and the
    // attention kernel ("" = by shape), so the sizing model shows the figures the point showed.
    void configChosen(const rl::model::ModelConfig& config, const rl::model::ParallelConfig& recipe,
                      const QString& parallel, const QString& hardware, const QString& attention);
    void sweepFailed(const QString& message);

private:
    void showResult(model::MoeSweepResult result);
    // A dense base shows the dense axes and searches best per shape; a MoE base the MoE axes.
    void updateModelKind();
    // Best per shape (moeexplorerbestlayout.cpp).
    void buildBestLayoutFields(QFormLayout* form);
    void updateLayoutMode();
    bool checkFix(); // shows why the Fix text does not parse; false then
    void runShapeSearch();
    // The sweep axes typed in the form (experts, top-k, shared, and widths when holding nothing); a
    // bad field is said in the status line (sweepFailed) and gives nullopt. Both layout modes read them.
    std::optional<model::MoeSweepSpec> sweepAxes(model::SweepHold hold);
    void showShapes(plan::ShapeSearchResult result);
    void selectShape(const model::MoeSweepRow& row);
    // The swept preset with the row's experts, top-k, shared experts and expert width (a dense row:
    // its hidden size, FFN width, layers and heads); `renamed` adds them to its name. Throws as
    // model::loadPreset does.
    model::ModelConfig sweptModel(const model::MoeSweepRow& row, bool renamed) const;
    void openShape();

    QFormLayout* m_form;
    QComboBox* m_model;
    QComboBox* m_layoutMode;
    CalibrationPicker* m_calibration;
    QComboBox* m_hardware; // the picker's profile combo
    QComboBox* m_hold;
    QComboBox* m_metric;
    QLineEdit* m_parallel;
    // Best per shape: the cluster, the global batch and the --fix narrowing of every shape's space.
    QSpinBox* m_gpus;
    QSpinBox* m_gpusPerNode; // 0: the profile's
    QSpinBox* m_globalBatch;
    QLineEdit* m_fix;
    QLabel* m_fixError;
    QWidget* m_fixRow;
    RecipeFields* m_recipe; // the training recipe (GEMM dtype, recompute, micro-batches, ...)
    QLineEdit* m_experts;
    QLineEdit* m_topK;
    QLineEdit* m_shared;
    QLineEdit* m_widths; // only with "hold nothing": the expert widths are then a swept axis
    QLayout* m_moeAxes;      // the four fields above, one form row
    DenseAxesFields* m_dense; // a dense base's axes, in their place
    bool m_denseBase = false;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QPushButton* m_open;
    std::optional<model::MoeSweepRow> m_chosen;
    std::string m_sweptPreset;
    // What the shown sweep was sized with, for "Open in sizing model".
    model::ParallelConfig m_sweptRecipe;
    QString m_sweptParallel, m_sweptHardware, m_sweptAttention;
    QString m_sweptBasis; // the calibration's bases the shown sweep was timed with
    QProgressBar* m_progress;
    QLabel* m_status;
    QLabel* m_verdict; // best per shape: where the base shape stands
    QLabel* m_selected;
    charts::MoeScatterChart* m_chart;
    JobTracker* m_job;
    model::MoeSweepResult m_result;
    std::optional<plan::ShapeSearchResult> m_shapes;
    int m_shapeGpus = 0, m_shapeGpusPerNode = 0, m_shapeGlobalBatch = 0; // what the shown search was for
};
} // namespace rl
