#pragma once
// The ranked layouts of a layout search (plan::PlanResult::top) as a table: one row per layout, best
// first, every figure with its unit as ridgeline-cli plan prints it. Sorting goes through SortRole
// (numbers, not their text); the chart and the detail pane read rows through rowAt().
#include <QAbstractTableModel>

#include <vector>

#include "plan/plansearch.h"

namespace rl {

class PlanResultModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        RankColumn, TieColumn, StepColumn, TokensColumn, MfuColumn, MemoryColumn, LayoutColumn, MicroBatchColumn,
        RecomputeColumn, SpColumn, ZeroColumn, DtypeColumn, AttentionColumn, OverlapColumn, GapColumn, ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole, // the number behind the cell (seconds, bytes, fraction), text otherwise
        StepSecondsRole,         // any column: the row's step time in seconds
        MemoryBytesRole,         // any column: memory per GPU in bytes
        RankRole,                // any column: the 1-based rank
        LayoutSpecRole,          // any column: the layout in --fix syntax (plan::toSpec)
    };

    explicit PlanResultModel(QObject* parent = nullptr);

    // The ranked rows, best first (PlanResult::top).
    void setResults(std::vector<plan::PlanRow> rows);
    void clear();
    const plan::PlanRow* rowAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const plan::PlanRow& r, int column) const;
    QVariant sortValue(const plan::PlanRow& r, int column) const;
    QVariant toolTip(const plan::PlanRow& r, int column) const;

    std::vector<plan::PlanRow> m_rows;
};
} // namespace rl
