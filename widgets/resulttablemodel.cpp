#include "resulttablemodel.h"

#include <algorithm>

#include <QFont>

namespace rl::charts {

ResultTableModel::ResultTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ResultTableModel::setTable(ResultTable table)
{
    const bool sameColumns = table.rowTitles == m_table.rowTitles && std::equal(table.columns.begin(), table.columns.end(), m_table.columns.begin(),
                                        m_table.columns.end(), [](const ResultColumn& a, const ResultColumn& b) {
                                            return a.title == b.title && a.tip == b.tip;
                                        });
    if (!sameColumns) {
        beginResetModel();
        m_table = std::move(table);
        endResetModel();
        return;
    }
    // Same columns: replace the rows only, so header state (widths, sort indicator) is kept.
    if (!m_table.rows.empty()) {
        beginRemoveRows({}, 0, int(m_table.rows.size()) - 1);
        m_table.rows.clear();
        endRemoveRows();
    }
    if (!table.rows.empty()) {
        beginInsertRows({}, 0, int(table.rows.size()) - 1);
        m_table.rows = std::move(table.rows);
        endInsertRows();
    }
}

const ResultCell* ResultTableModel::cell(int row, int column) const
{
    if (row < 0 || column < 0 || row >= rowCount() || column >= columnCount())
        return nullptr;
    const auto& cells = m_table.rows[std::size_t(row)];
    return std::size_t(column) < cells.size() ? &cells[std::size_t(column)] : nullptr;
}

int ResultTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_table.rows.size());
}

int ResultTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_table.columns.size());
}

QVariant ResultTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const ResultCell* c = cell(index.row(), index.column());
    if (!c)
        return role == ValueRole ? QVariant(QString()) : QVariant();
    switch (role) {
    case Qt::DisplayRole:
        return c->text;
    case Qt::ToolTipRole:
        return c->tip.isEmpty() ? c->text : c->tip;
    case Qt::TextAlignmentRole:
        return c->number ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    case Qt::ForegroundRole:
        return c->foreground.isValid() ? QVariant(c->foreground) : QVariant();
    case Qt::FontRole: {
        if (!c->bold)
            return {};
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    case ValueRole:
        return c->value.isValid() ? c->value : QVariant(c->text);
    default:
        return {};
    }
}

QVariant ResultTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Vertical && section >= 0 && std::size_t(section) < m_table.rowTitles.size())
        return role == Qt::DisplayRole ? QVariant(m_table.rowTitles[std::size_t(section)]) : QVariant();
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    const auto& column = m_table.columns[std::size_t(section)];
    if (role == Qt::DisplayRole)
        return column.title;
    if (role == Qt::ToolTipRole && !column.tip.isEmpty())
        return column.tip;
    return {};
}

QString tabSeparated(const QAbstractItemModel& model)
{
    QStringList lines;
    QStringList header;
    for (int c = 0; c < model.columnCount(); ++c)
        header << model.headerData(c, Qt::Horizontal).toString();
    lines << header.join(QLatin1Char('\t'));
    for (int r = 0; r < model.rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < model.columnCount(); ++c)
            cells << model.index(r, c).data().toString().replace(QLatin1Char('\t'), QLatin1Char(' '));
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}
} // namespace rl::charts
