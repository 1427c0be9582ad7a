#pragma once
// What the main window shows for nvbandwidth (`copybw`) sessions: each directed copy matrix the tool
// printed - host to device, device to device, by copy engine or SM, or a latency test - as a table
// with the source in rows and the destination in columns, in the tool's own unit, with its SUM. A
// matrix is directed (row -> column differs from column -> row), so the pairs heatmap of unordered
// rank pairs does not fit it.
#include <QWidget>

#include <vector>

#include "records/session.h"

class QLabel;
class QVBoxLayout;

namespace rl {
namespace charts {
class ResultTableView;
}

class CopyBandwidthView : public QWidget
{
    Q_OBJECT
public:
    explicit CopyBandwidthView(QWidget* parent = nullptr);

    void setSessions(const std::vector<Session>& sessions);
    // The matrices' tables, in the order shown (for tests and the chart area's export).
    std::vector<charts::ResultTableView*> tables() const { return m_tables; }
    QString summaryText() const;

private:
    QLabel* m_title;
    QLabel* m_summary;
    QVBoxLayout* m_matrices; // inside the scroll area: a caption and a table per matrix
    std::vector<charts::ResultTableView*> m_tables;
};
} // namespace rl
