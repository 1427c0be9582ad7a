#pragma once
// The "Resilience" tool window (issue 14): a model and layout, a storage source (a stored storage
// session or typed GB/s), an MTBF source (typed, a published failure-rate row, or an imported
// training log) in; checkpoint size and save/load times, job MTBF, the Young/Daly interval and
// the expected goodput out, each with its unit and basis, the two goodput charts, and the reshape
// of the checkpoint into another layout. Computed on a worker (resiliencejob.h) after each edit;
// a wrong input is named next to its field.
#include <QWidget>

#include <optional>

#include "gui/resilience/resiliencejob.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTabWidget;
class QTimer;
class QTreeWidget;

namespace rl {
class JobTracker;
class Settings;
namespace charts {
class GoodputChart;
class ResultTableView;
}

class ResilienceView : public QWidget
{
    Q_OBJECT
public:
    explicit ResilienceView(QWidget* parent = nullptr);

    // The workspace whose storage and training-log sessions (and saved configs) are offered.
    void setWorkspace(const QString& path);
    void setSettings(Settings* settings);
    // The request the form describes now (what the next computation will use).
    ResilienceRequest request() const;
    const std::optional<ResilienceOutcome>& outcome() const { return m_outcome; }
    bool isComputing() const;
    charts::GoodputChart* intervalChart() const { return m_intervalChart; }
    charts::GoodputChart* nodesChart() const { return m_nodesChart; }
    // The value shown for a quantity in the results table ("Job MTBF", ...), for tests and copy.
    QString resultText(const QString& quantity) const;
    QString basisText(const QString& quantity) const;

Q_SIGNALS:
    void planShown();          // a computation's result is on screen (plan or errors)
    void sourcesLoaded();      // the workspace's storage and training-log sessions are in the lists

private:
    void buildForm(QWidget* form);
    void scheduleRecompute();
    void recompute();
    void showOutcome(ResilienceOutcome outcome);
    void showSources(const ResilienceSources& sources);
    void updateEnabled();

    QComboBox* m_model;
    int m_presetCount = 0;
    QLineEdit* m_parallel;
    QSpinBox* m_zero;
    QSpinBox* m_gpusPerNode;
    QCheckBox *m_gradients, *m_optimizer, *m_spread;
    QComboBox* m_storage;
    QLineEdit* m_rates;
    QLineEdit* m_perRank;
    QComboBox* m_mtbf;
    QLineEdit* m_mtbfHours;
    QSpinBox* m_logNodes;
    QDoubleSpinBox* m_relaunch;
    QCheckBox* m_relaunchFromLog;
    QCheckBox* m_async;
    QDoubleSpinBox* m_snapshot;
    QLineEdit* m_reshapeTo;
    QSpinBox* m_reshapeZero;
    QDoubleSpinBox* m_network;
    QLabel *m_modelError, *m_layoutError, *m_storageError, *m_mtbfError, *m_reshapeError;
    QLabel* m_status;
    QTabWidget* m_tabs;
    charts::ResultTableView* m_results;
    charts::GoodputChart* m_intervalChart;
    charts::GoodputChart* m_nodesChart;
    QLabel* m_reshapeSummary;
    QTreeWidget* m_reshape;
    QTimer* m_recompute;
    JobTracker* m_job;
    JobTracker* m_sourcesJob;
    JobTracker* m_savedJob;
    QString m_workspace;
    std::optional<ResilienceOutcome> m_outcome;
};
} // namespace rl
