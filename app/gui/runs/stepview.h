#pragma once
// What the main window shows for a PyTorch probe `step` session: its step summary (median time,
// tokens/s, model TFLOP/s, the profiler's counts) and its timed steps as a table, from what the
// session keeps in its params (views/stepsessiondata.h), and, when the run imported the step's
// profiler trace as a session of its own, a button that shows that trace. The step session's own
// figures first: the trace is another session, with its own view.
#include <QWidget>

#include <cstdint>
#include <optional>
#include <vector>

#include "records/session.h"

class QLabel;
class QPushButton;
class QStandardItemModel;
class QTableView;

namespace rl {

class StepView : public QWidget
{
    Q_OBJECT
public:
    enum Column { SessionColumn, StepColumn, TimeColumn, TokensColumn, TflopsColumn, ColumnCount };

    explicit StepView(QWidget* parent = nullptr);

    void setSessions(const std::vector<Session>& sessions);
    QString summaryText() const;
    QStandardItemModel* steps() const { return m_model; }
    std::optional<std::int64_t> traceSession() const { return m_trace; }

signals:
    void traceRequested(std::int64_t sessionId); // the button: show this trace session

private:
    QLabel* m_title;
    QLabel* m_summary;
    QPushButton* m_showTrace;
    QStandardItemModel* m_model;
    QTableView* m_table;
    std::optional<std::int64_t> m_trace; // the first session's trace session
};
} // namespace rl
