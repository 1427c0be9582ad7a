// SampledTableView: a column sized to its contents fits rows far from the view too (a table sorted
// by size had its largest sizes elided), where Qt's QTableView measures only rows near the view.
#include <QApplication>
#include <QHeaderView>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

#include "sampledtableview.h"

namespace {
// 5,000 rows: the first 4,000 short ("8 B"), the rest wide, as a table sorted by size is.
void fill(QStandardItemModel& m, const QString& wide)
{
    m.setRowCount(5000);
    m.setColumnCount(2);
    for (int r = 0; r < 5000; ++r) {
        m.setItem(r, 0, new QStandardItem(r < 4000 ? QStringLiteral("8 B") : wide));
        m.setItem(r, 1, new QStandardItem(QString::number(r)));
    }
}

int fittedWidth(QTableView& view)
{
    view.horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view.resize(600, 300);
    view.show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(&view));
    QApplication::processEvents();
    return view.columnWidth(0);
}
} // namespace

TEST(SampledTableView, AColumnFitsRowsFarFromTheViewWhereQtsDoesNot)
{
    const QString wide = QStringLiteral("512.00 MiB of a wide cell");
    QStandardItemModel m;
    fill(m, wide);
    rl::charts::SampledTableView sampled;
    sampled.setModel(&m);
    const int text = sampled.fontMetrics().horizontalAdvance(wide);
    EXPECT_GT(fittedWidth(sampled), text) << "the wide rows, 4,000 below the view, are measured";

    QTableView plain; // what the results table was: Qt measures the rows near the view
    plain.setModel(&m);
    plain.horizontalHeader()->setResizeContentsPrecision(32);
    EXPECT_LT(fittedWidth(plain), text);

    // A short table is measured whole, as Qt does.
    QStandardItemModel small(10, 1);
    for (int r = 0; r < 10; ++r)
        small.setItem(r, 0, new QStandardItem(r == 9 ? wide : QStringLiteral("8 B")));
    rl::charts::SampledTableView shortView;
    shortView.setModel(&small);
    EXPECT_GT(fittedWidth(shortView), text);
}
