#pragma once
// A table view whose columns, sized to their contents, fit rows from all over the model: Qt measures
// only the rows on screen and those next to them (QHeaderView::resizeContentsPrecision), so a table
// of 77,760 points sorted by size was as wide as its smallest sizes needed and later rows' figures
// were elided, units first. Here every n-th row is measured too, a fixed number in all.
#include <QTableView>

namespace rl::charts {

class SampledTableView : public QTableView
{
    Q_OBJECT
public:
    explicit SampledTableView(QWidget* parent = nullptr);

    // Qt's hint (the rows near the view) widened to the evenly spread rows'.
    int sizeHintForColumn(int column) const override;

    static constexpr int kSpreadRows = 128; // measured besides the ones near the view
};
} // namespace rl::charts
