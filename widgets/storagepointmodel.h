#pragma once
// The points of storage sessions as a table: what was measured (op, access, ranks, file and block
// size, fsync, O_DIRECT) and what came out (aggregate and per-rank GB/s, the slowest rank, time,
// time to first byte). Numbers sort by SortRole, not by their display text; "–" where the tool
// did not report a value (fio and IOR name no slowest rank).
#include <vector>

#include <QAbstractTableModel>

#include "storagechart.h"

namespace rl::charts {

class StoragePointModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        SessionColumn, OpColumn, AccessColumn, RanksColumn, FileColumn, BlockColumn, OptionsColumn,
        AggregateColumn, MeanRankColumn, MinRankColumn, MaxRankColumn, SlowestRankColumn, TimeColumn,
        FirstByteColumn, ColumnCount
    };
    enum Role { SortRole = Qt::UserRole };

    explicit StoragePointModel(QObject* parent = nullptr);

    void setResults(const std::vector<StorageSessionData>& sessions);
    void clear();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        std::int64_t session;
        StoragePoint point;
    };
    std::vector<Row> m_rows;
};
} // namespace rl::charts
