// The results table model: shape, unit-carrying display text, numeric sorting, model invariants.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>

#include "chartfixtures.h"
#include "collectivepointmodel.h"
#include "units/units.h"

using namespace rl;

TEST(CollectivePointModel, PassesTheModelTesterThroughResetsAndClear)
{
    test::ChartWorkspace w;
    CollectivePointModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    model.setResults(w.ws.collectivePoints(w.h100));
    EXPECT_EQ(model.rowCount(), 32 * 2 + 21);
    EXPECT_EQ(model.columnCount(), CollectivePointModel::ColumnCount);
    model.setResults(w.ws.collectivePoints(w.mi300));
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
    model.setResults({big, small, mid});
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
    model.setResults({p, p}, {{3, QStringLiteral("h100-node07"), QStringLiteral("all_reduce 8 ranks H100")},
                              {5, QStringLiteral("mi300x-node01"), QStringLiteral("all_reduce 8 ranks MI300X")}});
    EXPECT_EQ(model.headerData(CollectivePointModel::SessionLabel, Qt::Horizontal).toString(), QStringLiteral("Session"));
    EXPECT_EQ(model.index(0, CollectivePointModel::SessionLabel).data().toString(), QStringLiteral("#3 h100-node07"));
    EXPECT_EQ(model.index(1, CollectivePointModel::SessionLabel).data().toString(), QStringLiteral("#5 mi300x-node01"));
    EXPECT_EQ(model.index(1, CollectivePointModel::SessionLabel).data(Qt::ToolTipRole).toString(),
              QStringLiteral("all_reduce 8 ranks MI300X"));
    EXPECT_EQ(model.index(1, CollectivePointModel::SessionLabel).data(CollectivePointModel::SortRole).toLongLong(), 5);
    // Without session references the column stays empty rather than naming a wrong session.
    model.setResults({p, p}, {{3, {}, {}}});
    EXPECT_FALSE(model.index(0, CollectivePointModel::SessionLabel).data().isValid());
}

TEST(CollectivePointModel, SplitGroupsHaveAColumnOnlyWhenAPointHasOne)
{
    CollectivePointModel model;
    auto whole = test::modelPoint("all_reduce", 4, 1 << 20, 25.0, 150.0);
    model.setResults({whole});
    EXPECT_FALSE(model.hasGroups());
    auto pairA = test::modelPoint("all_reduce", 2, 1 << 20, 25.0, 150.0);
    pairA.group = "ranks 0-1";
    model.appendResult(pairA, {});
    EXPECT_TRUE(model.hasGroups());
    EXPECT_EQ(model.index(1, CollectivePointModel::Group).data().toString(), QStringLiteral("ranks 0-1"));
    EXPECT_EQ(model.index(0, CollectivePointModel::Group).data().toString(), QString());
    EXPECT_EQ(model.headerData(CollectivePointModel::Group, Qt::Horizontal).toString(), QStringLiteral("Group"));
}
