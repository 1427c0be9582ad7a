#pragma once
// The trace view's "Predicted vs measured" tab: the sizing model's step for a chosen model config,
// hardware profile and parallel layout next to what the shown trace or training log measured, as
// `ridgeline-cli vs-measured` prints it, with the largest gaps named. Closed-form (microseconds),
// so it recomputes on the GUI thread on every edit; the workspace's saved configs and the
// Calibration picker's measured sessions are read in the background.
#include <optional>

#include <QWidget>

#include "model/measuredrun.h"
#include "model/predictedvsmeasured.h"
#include "views/tracechartdata.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTimer;

namespace rl {

class CalibrationPicker;
class JobTracker;
namespace charts {
class ResultTableView;
}

class PredictedVsMeasuredPanel : public QWidget
{
    Q_OBJECT
public:
    // Rows of the table (columns are the quantities, with their units in the headers).
    enum Row { PredictedRow, MeasuredRow, GapRow, RatioRow, RowCount };

    explicit PredictedVsMeasuredPanel(QWidget* parent = nullptr);

    // The session to compare against (a trace or a training log); an empty one clears the panel.
    void setSession(const charts::TraceChartData& data);
    // Offers the configurations saved in this workspace next to the presets.
    void setWorkspace(const QString& path);

    // Inputs, for the trace view's callers and tests.
    void setModelConfig(const QString& name); // a preset or a saved configuration
    void setHardware(const QString& id);
    void setParallel(const QString& spec);
    void setMicroBatch(int sequences);
    void setSequenceLength(int tokens);

    // The model inputs last evaluated, and the result; none when the inputs are invalid.
    const std::optional<model::PredictionComparison>& comparison() const { return m_comparison; }
    QString problem() const { return m_problemText; }
    charts::ResultTableView* table() const { return m_table; }
    CalibrationPicker* calibrationPicker() const { return m_calibration; }
    // The inputs last evaluated: which were read from the measured session and which were assumed.
    const model::RunInputs& inputs() const { return m_inputs; }

signals:
    void comparisonChanged();
    void savedConfigsLoaded(const QStringList& names);

private:
    void scheduleRecompute();
    void recompute();
    void showComparison();
    model::ModelConfig chosenConfig() const;
    model::UserSet userSet() const;
    void applyRun(); // the session's own layout, batch, length and device into the unedited fields

    QComboBox* m_config;
    CalibrationPicker* m_calibration;
    QComboBox* m_hardware; // the picker's profile combo
    QLineEdit* m_parallel;
    QSpinBox* m_microBatch;
    QSpinBox* m_seqLen;
    QSpinBox* m_zero;
    QLabel* m_source;
    QLabel* m_inputsLabel; // "From the measurement: ... · Assumed: ..."
    QLabel* m_problem;
    charts::ResultTableView* m_table;
    QLabel* m_gaps;
    QTimer* m_recompute;
    JobTracker* m_savedJob;
    int m_presetCount = 0; // the first entries are presets, then saved configurations
    charts::TraceChartData m_data;
    std::optional<model::MeasuredStep> m_measured;
    model::MeasuredRun m_run;
    // The fields as the panel opens (as ridgeline-cli vs-measured defaults them): what a session
    // does not state is assumed from these, not from the session viewed before.
    struct Defaults
    {
        QString parallel;
        int microBatch = 1;
        int seqLen = 4096;
        QString hardware;
    } m_defaults;
    model::RunInputs m_inputs;
    bool m_applyingRun = false; // fields set from the session, not edited by the user
    std::optional<model::PredictionComparison> m_comparison;
    QString m_problemText;
};
} // namespace rl
