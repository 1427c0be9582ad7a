// The result tables' one model and view: model invariants through refills, sorting by the analysis
// value (not the text), tooltips, short rows, and the copied text in the order shown.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QFont>
#include <QHeaderView>
#include <QSignalSpy>

#include "resulttableview.h"

using namespace rl::charts;

namespace {
ResultTable stepTimes(std::vector<std::pair<QString, double>> runs)
{
    ResultTable t{{{QStringLiteral("Run"), {}}, {QStringLiteral("Step (s)"), QStringLiteral("measured step time")}}, {}, {}};
    for (const auto& [name, seconds] : runs)
        t.rows.push_back({textCell(name), numberCell(QString::number(seconds, 'g', 3), seconds)});
    return t;
}
} // namespace

TEST(ResultTable, PassesTheModelTesterThroughRefillsAndNewColumns)
{
    ResultTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    model.setTable(stepTimes({{QStringLiteral("a"), 9.5}, {QStringLiteral("b"), 10.25}}));
    EXPECT_EQ(resets.count(), 1); // new columns: a reset
    EXPECT_EQ(model.rowCount(), 2);
    EXPECT_EQ(model.columnCount(), 2);

    // Same columns: rows replaced without a reset, so the view keeps its header state.
    model.setTable(stepTimes({{QStringLiteral("c"), 1.0}}));
    EXPECT_EQ(resets.count(), 1);
    EXPECT_EQ(model.rowCount(), 1);
    EXPECT_EQ(model.index(0, 0).data().toString(), QStringLiteral("c"));
    model.setTable(stepTimes({}));
    EXPECT_EQ(model.rowCount(), 0);

    ResultTable other{{{QStringLiteral("Only"), {}}}, {{textCell(QStringLiteral("x"))}}, {}};
    model.setTable(other);
    EXPECT_EQ(resets.count(), 2);
    EXPECT_EQ(model.columnCount(), 1);
}

TEST(ResultTable, CellsCarryTheirValueTipAlignmentColourAndWeight)
{
    ResultTableModel model;
    auto t = stepTimes({{QStringLiteral("a"), 9.5}});
    t.rows[0][1].tip = QStringLiteral("9.5 s measured");
    t.rows[0][1].foreground = QColor(0xb0, 0, 0x20);
    t.rows[0][0].bold = true;
    t.rows.push_back({textCell(QStringLiteral("short row"))}); // no step cell
    model.setTable(t);
    EXPECT_DOUBLE_EQ(model.index(0, 1).data(ResultTableModel::ValueRole).toDouble(), 9.5);
    EXPECT_EQ(model.index(0, 1).data(Qt::ToolTipRole).toString(), QStringLiteral("9.5 s measured"));
    EXPECT_EQ(model.index(0, 0).data(Qt::ToolTipRole).toString(), QStringLiteral("a")) << "a cut cell shows in full";
    EXPECT_EQ(model.index(0, 1).data(Qt::TextAlignmentRole).toInt(), int(Qt::AlignRight | Qt::AlignVCenter));
    EXPECT_FALSE(model.index(0, 0).data(Qt::TextAlignmentRole).isValid());
    EXPECT_EQ(model.index(0, 1).data(Qt::ForegroundRole).value<QColor>(), QColor(0xb0, 0, 0x20));
    EXPECT_FALSE(model.index(0, 0).data(Qt::ForegroundRole).isValid());
    EXPECT_TRUE(model.index(0, 0).data(Qt::FontRole).value<QFont>().bold());
    EXPECT_FALSE(model.index(0, 1).data(Qt::FontRole).isValid()) << "the view's own font";
    EXPECT_EQ(model.index(1, 1).data().toString(), QString());
    EXPECT_EQ(model.index(1, 1).data(ResultTableModel::ValueRole).toString(), QString());
    EXPECT_EQ(model.headerData(1, Qt::Horizontal, Qt::ToolTipRole).toString(), QStringLiteral("measured step time"));
    EXPECT_EQ(model.cell(1, 1), nullptr);
    EXPECT_EQ(model.cell(5, 0), nullptr);
}

// Sorting by text would put "10.4" before "9.5"; the view sorts by the value, and copies as shown.
TEST(ResultTable, TheViewSortsByValueAndCopiesInTheOrderShown)
{
    ResultTableView view;
    view.setTable(stepTimes({{QStringLiteral("slow"), 10.4}, {QStringLiteral("fast"), 9.5}, {QStringLiteral("mid"), 9.75}}));
    EXPECT_TRUE(view.text().startsWith(QStringLiteral("Run\tStep (s)\nslow\t10.4\n"))) << "the analysis' order first";
    view.sortByColumn(1, Qt::AscendingOrder);
    EXPECT_EQ(view.text(), QStringLiteral("Run\tStep (s)\nfast\t9.5\nmid\t9.75\nslow\t10.4\n"));
    view.sortByColumn(1, Qt::DescendingOrder);
    EXPECT_TRUE(view.text().startsWith(QStringLiteral("Run\tStep (s)\nslow\t"))) << view.text().toStdString();

    view.copy();
    EXPECT_EQ(QApplication::clipboard()->text(), view.text());
    // Ctrl+C on the table is the same copy.
    bool hasCopy = false;
    for (auto* action : view.actions())
        hasCopy = hasCopy || action->shortcut() == QKeySequence(QKeySequence::Copy);
    EXPECT_TRUE(hasCopy);
}
