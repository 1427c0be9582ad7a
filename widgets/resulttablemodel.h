#pragma once
// The small result tables of the sizing, validation, plan, trace and resilience views, the
// calibration picker and the help dialogs (a row per run, per reason, per class, per figure) as one
// read-only model with roles, instead of QTableWidget items filled by hand in each view: a view
// builds a ResultTable from its analysis result and sets it; the table shows text, sorts and copies
// by the analysis value, and names every figure in its tooltip.
#include <utility>
#include <vector>

#include <QAbstractTableModel>
#include <QColor>
#include <QString>
#include <QStringList>
#include <QVariant>

namespace rl::charts {

struct ResultCell
{
    QString text;
    QVariant value;       // the analysis value behind the text (seconds, a fraction); sorts the column
    QString tip;          // empty: the text itself (cells are often cut)
    bool number = false;  // right-aligned
    QColor foreground;    // invalid: the palette's text colour
    bool bold = false;    // a section title, or a row that must stand out (a measured figure)
};

inline ResultCell textCell(QString text)
{
    ResultCell c;
    c.text = std::move(text);
    return c;
}
inline ResultCell numberCell(QString text, QVariant value)
{
    ResultCell c;
    c.text = std::move(text);
    c.value = std::move(value);
    c.number = true;
    return c;
}

struct ResultColumn
{
    QString title;
    QString tip;
};

struct ResultTable
{
    std::vector<ResultColumn> columns;
    std::vector<std::vector<ResultCell>> rows; // a row shorter than columns leaves the rest empty
    std::vector<QString> rowTitles;            // the vertical header of a transposed table; empty: none
};

class ResultTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    // ValueRole: the cell's analysis value, falling back to its text (so sorting by it always works).
    enum Role { ValueRole = Qt::UserRole };

    explicit ResultTableModel(QObject* parent = nullptr);
    // Keeps the columns when they are unchanged, so a view's header sizes and sort survive a refill.
    void setTable(ResultTable table);
    const ResultTable& table() const { return m_table; }
    const ResultCell* cell(int row, int column) const; // null outside the table or past a short row

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    ResultTable m_table;
};

// A table's rows as tab-separated text with a header line, in the view's order when the model is
// behind a proxy: what Copy puts on the clipboard.
QString tabSeparated(const QAbstractItemModel& model);
} // namespace rl::charts
