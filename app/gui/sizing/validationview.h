#pragma once
// Tools ▸ Model validation: the sizing model over the bundled tables of published measured
// training runs, as `ridgeline-cli validate` runs it (model::runValidation, in a worker): per run
// the source, device, measured and predicted step time, the error and the band the model states;
// the median and maximum error and the refused rows; a chart of predicted against measured. The
// table copies (Ctrl+C, tab-separated) and exports to CSV like the chart.
#include <QWidget>

#include "model/validation.h"

class QComboBox;
class QLabel;
class QPushButton;

namespace rl {
class JobTracker;
class Settings;
namespace charts {
class ResultTableView;
class ValidationChart;
}

class ValidationView : public QWidget
{
    Q_OBJECT
public:
    enum Column { RunColumn, SourceColumn, HardwareColumn, GpusColumn, MeasuredColumn, PredictedColumn, ErrorColumn,
                  BandColumn, ColumnCount };
    enum Table { PublishedRuns, HoldoutRuns };

    explicit ValidationView(QWidget* parent = nullptr);
    void setSettings(Settings* settings);

    // Runs the chosen table in the background; validationFinished or validationFailed follows.
    void run(Table table = PublishedRuns);
    bool isRunning() const;
    const model::ValidationSummary& summary() const { return m_summary; }
    charts::ResultTableView* table() const { return m_table; }
    charts::ValidationChart* chart() const { return m_chart; }
    QString summaryText() const;
    // The table as tab-separated text with its header (what Copy puts on the clipboard).
    QString tableText() const;
    // The chart's export by suffix: the rows as CSV, or the chart as PNG/SVG/PDF; the error, or empty.
    QString exportTo(const QString& fileName) const;

Q_SIGNALS:
    void validationFinished(int rows);
    void validationFailed(const QString& message);

private:
    void showSummary();

    QComboBox* m_tableChoice;
    QPushButton* m_run;
    QLabel* m_status;
    QLabel* m_summaryLabel;
    QLabel* m_refused;
    charts::ResultTableView* m_table;
    charts::ValidationChart* m_chart;
    JobTracker* m_job;
    Settings* m_settings = nullptr;
    model::ValidationSummary m_summary;
    QString m_tablePath;
};
} // namespace rl
