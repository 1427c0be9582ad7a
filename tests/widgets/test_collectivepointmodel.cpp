// The results table model: shape, unit-carrying display text, numeric sorting, model invariants.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>

#include "chartfixtures.h"
#include "collectivepointmodel.h"
#include "units/units.h"

using namespace rl;
using charts::SessionCurves;

namespace {
// The data set as its owner (ChartArea) holds it: mutable, shared with the model as const.
std::shared_ptr<std::vector<SessionCurves>> dataSet(std::vector<SessionCurves> sessions)
{
    return std::make_shared<std::vector<SessionCurves>>(std::move(sessions));
}

SessionCurves sessionOf(std::int64_t id, const char* host, const char* title, std::vector<CollectivePoint> points)
{
    SessionCurves s;
    s.session.id = id;
    s.session.host = host;
    s.session.title = title;
    s.points = std::move(points);
    return s;
}
} // namespace

TEST(CollectivePointModel, PassesTheModelTesterThroughResetsAndClear)
{
    test::ChartWorkspace w;
    CollectivePointModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    model.setSessions(dataSet(charts::loadSessionCurves(w.ws, {w.h100})));
    EXPECT_EQ(model.rowCount(), 32 * 2 + 21);
    EXPECT_EQ(model.columnCount(), CollectivePointModel::ColumnCount);
    model.setSessions(dataSet(charts::loadSessionCurves(w.ws, {w.mi300})));
    EXPECT_EQ(model.rowCount(), 32);
    model.clear();
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_EQ(resets.count(), 3);
    EXPECT_EQ(model.rowCount(model.index(0, 0)), 0);
}

TEST(CollectivePointModel, DisplayCarriesUnitsAndSortRoleIsNumeric)
{
    CollectivePointModel model;
    auto big = test::modelPoint("all_reduce", 8, std::int64_t{1} << 30, 25.0, 150.0);
    auto small = test::modelPoint("all_reduce", 8, 1024, 25.0, 150.0);
    auto mid = test::modelPoint("all_reduce", 8, 256 << 10, 25.0, 150.0, true);
    mid.wrong = -1;
    model.setSessions(dataSet({sessionOf(1, "node01", "sweep", {big, small, mid})}));
    auto text = [&](int row, int col) { return model.index(row, col).data().toString(); };
    EXPECT_EQ(text(0, CollectivePointModel::Size), QStringLiteral("1 GiB"));
    EXPECT_EQ(text(1, CollectivePointModel::Size), QStringLiteral("1 KiB"));
    EXPECT_EQ(text(0, CollectivePointModel::BusBw), QString::fromStdString(units::formatBandwidth(big.busbwGBs)));
    EXPECT_TRUE(text(0, CollectivePointModel::BusBw).endsWith(QStringLiteral(" GB/s")));
    EXPECT_TRUE(text(0, CollectivePointModel::Time).endsWith(QStringLiteral(" ms")));
    EXPECT_TRUE(text(1, CollectivePointModel::Time).endsWith(QStringLiteral(" µs")));
    EXPECT_EQ(text(2, CollectivePointModel::InPlace), QStringLiteral("in-place"));
    EXPECT_EQ(text(2, CollectivePointModel::Wrong), QStringLiteral("not checked"));
    EXPECT_EQ(model.headerData(CollectivePointModel::BusBw, Qt::Horizontal).toString(), QStringLiteral("busbw"));

    // "1 GiB" < "1 KiB" < "256 KiB" as text; by SortRole the order is by bytes.
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(CollectivePointModel::SortRole);
    proxy.sort(CollectivePointModel::Size);
    EXPECT_EQ(proxy.index(0, CollectivePointModel::Size).data().toString(), QStringLiteral("1 KiB"));
    EXPECT_EQ(proxy.index(1, CollectivePointModel::Size).data().toString(), QStringLiteral("256 KiB"));
    EXPECT_EQ(proxy.index(2, CollectivePointModel::Size).data().toString(), QStringLiteral("1 GiB"));
    proxy.sort(CollectivePointModel::Time, Qt::DescendingOrder);
    EXPECT_EQ(proxy.index(0, CollectivePointModel::Size).data().toString(), QStringLiteral("1 GiB"));
    EXPECT_EQ(proxy.index(0, CollectivePointModel::Size).data(CollectivePointModel::SortRole).toLongLong(),
              std::int64_t{1} << 30);
}

// Issue 9 item 8: with two sessions overlaid, rows of an H100 and an MI300X run must be told apart.
TEST(CollectivePointModel, SessionColumnNamesEachRowsSession)
{
    CollectivePointModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const auto p = test::modelPoint("all_reduce", 8, 1024, 25.0, 150.0);
    model.setSessions(dataSet({sessionOf(3, "h100-node07", "all_reduce 8 ranks H100", {p}),
                               sessionOf(5, "mi300x-node01", "all_reduce 8 ranks MI300X", {p})}));
    EXPECT_EQ(model.headerData(CollectivePointModel::SessionLabel, Qt::Horizontal).toString(), QStringLiteral("Session"));
    EXPECT_EQ(model.index(0, CollectivePointModel::SessionLabel).data().toString(), QStringLiteral("#3 h100-node07"));
    EXPECT_EQ(model.index(1, CollectivePointModel::SessionLabel).data().toString(), QStringLiteral("#5 mi300x-node01"));
    EXPECT_EQ(model.index(1, CollectivePointModel::SessionLabel).data(Qt::ToolTipRole).toString(),
              QStringLiteral("all_reduce 8 ranks MI300X"));
    EXPECT_EQ(model.index(1, CollectivePointModel::SessionLabel).data(CollectivePointModel::SortRole).toLongLong(), 5);
    // A session that does not say its host is named by its id alone.
    model.setSessions(dataSet({sessionOf(7, "", "imported", {p})}));
    EXPECT_EQ(model.index(0, CollectivePointModel::SessionLabel).data().toString(), QStringLiteral("#7"));
}

TEST(CollectivePointModel, SplitGroupsHaveAColumnOnlyWhenAPointHasOne)
{
    CollectivePointModel model;
    auto whole = test::modelPoint("all_reduce", 4, 1 << 20, 25.0, 150.0);
    auto data = dataSet({sessionOf(1, "node01", "split", {whole})});
    model.setSessions(data);
    EXPECT_FALSE(model.hasGroups());
    auto pairA = test::modelPoint("all_reduce", 2, 1 << 20, 25.0, 150.0);
    pairA.group = "ranks 0-1";
    ASSERT_TRUE(charts::appendLivePoint(*data, 1, pairA));
    model.pointsAppended();
    EXPECT_TRUE(model.hasGroups());
    EXPECT_EQ(model.index(1, CollectivePointModel::Group).data().toString(), QStringLiteral("ranks 0-1"));
    EXPECT_EQ(model.index(0, CollectivePointModel::Group).data().toString(), QString());
    EXPECT_EQ(model.headerData(CollectivePointModel::Group, Qt::Horizontal).toString(), QStringLiteral("Group"));
}

// Issue 10: the table is a view over the data set the chart tabs read. A point its owner appends
// is read from there (the model is only told that rows were appended), arrives as one inserted
// row at the end without a reset, and every row refers to the data set's own point.
TEST(CollectivePointModel, ReadsLivePointsFromTheSharedDataSetWithoutCopying)
{
    CollectivePointModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    auto data = dataSet({sessionOf(3, "h100-node07", "H100", {test::modelPoint("all_reduce", 8, 1024, 25.0, 150.0)}),
                         sessionOf(5, "mi300x-node01", "MI300X", {test::modelPoint("all_reduce", 8, 1024, 30.0, 140.0)})});
    model.setSessions(data);
    ASSERT_EQ(model.rowCount(), 2);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);

    // Appended to the first session after the model was given the data set: the last row, not the
    // second (rows keep the order the points arrived in, as the table showed them before).
    const auto live = test::modelPoint("all_reduce", 8, 2048, 25.0, 150.0);
    ASSERT_TRUE(charts::appendLivePoint(*data, 3, live));
    EXPECT_EQ(model.rowCount(), 2) << "no row before the model is told";
    model.pointsAppended();
    ASSERT_EQ(model.rowCount(), 3);
    EXPECT_EQ(inserted.count(), 1);
    EXPECT_EQ(inserted.first().at(1).toInt(), 2);
    EXPECT_EQ(inserted.first().at(2).toInt(), 2);
    EXPECT_EQ(resets.count(), 0);
    EXPECT_EQ(model.index(2, CollectivePointModel::Size).data(CollectivePointModel::SortRole).toLongLong(), 2048);
    EXPECT_EQ(model.index(2, CollectivePointModel::SessionLabel).data().toString(), QStringLiteral("#3 h100-node07"));
    model.pointsAppended();
    EXPECT_EQ(inserted.count(), 1) << "nothing new: no rows";

    // No copy: every row is the data set's own point, so a change there shows in the table.
    EXPECT_EQ(model.sessions().get(), data.get());
    EXPECT_EQ(&model.point(2), &(*data)[0].points[1]);
    EXPECT_EQ(&model.point(1), &(*data)[1].points[0]);
    (*data)[0].points.edit([](std::vector<CollectivePoint>& v) { v[1].busbwGBs = 123.0; });
    EXPECT_EQ(model.index(2, CollectivePointModel::BusBw).data(CollectivePointModel::SortRole).toDouble(), 123.0);

    // Two points of two sessions at once: two rows in one insertion.
    ASSERT_TRUE(charts::appendLivePoint(*data, 5, test::modelPoint("all_reduce", 8, 4096, 30.0, 140.0)));
    ASSERT_TRUE(charts::appendLivePoint(*data, 3, test::modelPoint("all_reduce", 8, 4096, 25.0, 150.0)));
    model.pointsAppended();
    EXPECT_EQ(model.rowCount(), 5);
    EXPECT_EQ(inserted.count(), 2);
    EXPECT_EQ(inserted.last().at(1).toInt(), 3);
    EXPECT_EQ(inserted.last().at(2).toInt(), 4);
}

// Issue 26 item 11: the model sorts itself on typed values (no sorting proxy, no QVariant per
// compare), and the window sorts a selection's rows off the GUI thread with sortedRows(). Every
// column must come out in the order the SortRole values give, both ways, and the rows handed in
// must be in that order too.
TEST(CollectivePointModel, TypedSortOrdersEveryColumnAsSortRoleDoes)
{
    test::ChartWorkspace w;
    CollectivePointModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const auto data = dataSet(charts::loadSessionCurves(w.ws, {w.h100, w.mi300}));
    model.setSessions(data);
    ASSERT_GT(model.rowCount(), 50);
    CollectivePointModel unsorted;
    unsorted.setSessions(data);
    QSortFilterProxyModel byRole;
    byRole.setSourceModel(&unsorted);
    byRole.setSortRole(CollectivePointModel::SortRole);
    for (int column = 0; column < CollectivePointModel::ColumnCount; ++column)
        for (const auto order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            model.sort(column, order);
            byRole.sort(column, order);
            for (int r = 0; r < model.rowCount(); ++r)
                ASSERT_EQ(model.index(r, column).data(CollectivePointModel::SortRole),
                          byRole.index(r, column).data(CollectivePointModel::SortRole))
                    << "column " << column << ", row " << r;
            CollectivePointModel handed;
            handed.sort(column, order);
            handed.setSessions(data, CollectivePointModel::sortedRows(*data, column, order));
            for (int r = 0; r < model.rowCount(); ++r)
                ASSERT_EQ(handed.index(r, column).data(CollectivePointModel::SortRole),
                          byRole.index(r, column).data(CollectivePointModel::SortRole))
                    << "column " << column << ", row " << r;
        }
}

// A live point of a sorted table is one inserted row where the order puts it, as a sorting proxy
// placed it.
TEST(CollectivePointModel, ALivePointOfASortedTableIsInsertedInOrder)
{
    CollectivePointModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    auto data = dataSet({sessionOf(3, "h100-node07", "H100",
                                   {test::modelPoint("all_reduce", 8, 1024, 25.0, 150.0),
                                    test::modelPoint("all_reduce", 8, 1 << 20, 25.0, 150.0)})});
    model.sort(CollectivePointModel::Size, Qt::DescendingOrder);
    model.setSessions(data);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    ASSERT_TRUE(charts::appendLivePoint(*data, 3, test::modelPoint("all_reduce", 8, 64 << 10, 25.0, 150.0)));
    model.pointsAppended();
    ASSERT_EQ(inserted.count(), 1);
    EXPECT_EQ(inserted.first().at(1).toInt(), 1);
    EXPECT_EQ(model.index(1, CollectivePointModel::Size).data(CollectivePointModel::SortRole).toLongLong(), 64 << 10);
    EXPECT_EQ(model.index(2, CollectivePointModel::Size).data(CollectivePointModel::SortRole).toLongLong(), 1024);
}
