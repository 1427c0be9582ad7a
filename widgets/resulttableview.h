#pragma once
// The view every result table is shown in: a read-only ResultTableModel behind a proxy that sorts
// by the analysis value (click a header), whole-row selection, columns sized to their contents, and
// Copy (Ctrl+C or the context menu) putting the rows on the clipboard as tab-separated text.
#include <QTableView>

#include "resulttablemodel.h"

class QSortFilterProxyModel;

namespace rl::charts {

class ResultTableView : public QTableView
{
    Q_OBJECT
public:
    explicit ResultTableView(QWidget* parent = nullptr);

    ResultTableModel* resultModel() const { return m_model; }
    void setTable(ResultTable table) { m_model->setTable(std::move(table)); }
    // The rows as shown (sorted as the header says) with the header line, tab-separated.
    QString text() const;
    void copy() const;

private:
    ResultTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
};
} // namespace rl::charts
