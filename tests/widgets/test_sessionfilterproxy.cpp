// SessionFilterProxy: every word must match title, tool, host or op; groups follow their sessions.
#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include "sessionfilterproxy.h"
#include "sessionmodel.h"
#include "test_gui_env.h"

using rl::Session;
using rl::SessionFilterProxy;
using rl::SessionModel;

namespace {
Session make(std::int64_t id, const char* kind, const char* title, const char* host, const char* tool,
             nlohmann::json params = nlohmann::json::object())
{
    Session s;
    s.id = id;
    s.kind = kind;
    s.title = title;
    s.host = host;
    s.tool = tool;
    s.created = "2026-11-2" + std::to_string(id) + "T10:00:00Z";
    s.params = std::move(params);
    return s;
}

QStringList visibleIds(const QAbstractItemModel& m)
{
    QStringList ids;
    for (int g = 0; g < m.rowCount(); ++g) {
        const QModelIndex group = m.index(g, 0);
        for (int r = 0; r < m.rowCount(group); ++r)
            ids << m.index(r, 0, group).data(SessionModel::SessionIdRole).toString();
    }
    ids.sort();
    return ids;
}

struct Case
{
    const char* filter;
    const char* ids; // comma-separated, sorted
};
} // namespace

TEST(SessionFilterProxy, FiltersByTitleToolHostAndOp)
{
    SessionModel model;
    model.setSessions({make(1, "collectives", "all_reduce_perf 8 ranks", "mi300x-node01", "rccl-tests"),
                       make(2, "collectives", "osu_bw", "h100-node07", "osu"),
                       make(3, "collectives", "sweep", "h100-node07", "ridgeline-bench",
                            {{"ops", {"all_gather", "broadcast"}}}),
                       make(4, "gemm", "hipBLASLt tune", "mi300x-node01", "hipblaslt-bench")});
    SessionFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);

    const std::vector<Case> cases{
        {"", "1,2,3,4"},
        {"rccl", "1"},           // tool
        {"H100", "2,3"},         // host, case-insensitive
        {"broadcast", "3"},      // op from the parameters
        {"mi300x tune", "4"},    // every word must match
        {"all_", "1,3"},         // title or op
        {"nothing-like-this", ""},
    };
    for (const auto& c : cases) {
        proxy.setFilterText(QString::fromLatin1(c.filter));
        EXPECT_EQ(visibleIds(proxy).join(u','), QString::fromLatin1(c.ids)) << "filter: " << c.filter;
    }
    proxy.setFilterText(QStringLiteral("hipblaslt"));
    ASSERT_EQ(proxy.rowCount(), 1) << "only the group holding a match stays";
    EXPECT_EQ(proxy.index(0, 0).data(SessionModel::KindRole).toString(), QStringLiteral("gemm"));
}

namespace {
QStringList visibleInOrder(const QAbstractItemModel& m)
{
    QStringList ids;
    for (int g = 0; g < m.rowCount(); ++g) {
        const QModelIndex group = m.index(g, 0);
        for (int r = 0; r < m.rowCount(group); ++r)
            ids << m.index(r, 0, group).data(SessionModel::SessionIdRole).toString();
    }
    return ids;
}
} // namespace

// Issue 9 item 19: while filtering, a group says how many of its sessions are shown, and clearing
// the filter gives back the original order (sessions of one import share their creation time).
TEST(SessionFilterProxy, GroupCountsFollowTheFilterAndClearingRestoresTheOrder)
{
    SessionModel model;
    std::vector<Session> sessions;
    for (std::int64_t id = 1; id <= 8; ++id) {
        sessions.push_back(make(id, "collectives", id % 2 ? "all_reduce sweep" : "all_gather sweep",
                                id % 3 ? "mi300x-node01" : "h100-node07", "rccl-tests"));
        sessions.back().created = "2026-11-20T10:00:00Z"; // one import: one timestamp
    }
    model.setSessions(sessions);
    SessionFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    proxy.sort(SessionModel::CreatedColumn, Qt::DescendingOrder); // as the session browser does
    const QStringList original = visibleInOrder(proxy);
    ASSERT_EQ(original.size(), 8);
    EXPECT_EQ(proxy.index(0, 0).data().toString(), QStringLiteral("Collectives (8)"));

    QSignalSpy changed(&proxy, &QAbstractItemModel::dataChanged);
    for (const char* filter : {"all_reduce", "h100", "all_gather mi300x", "nothing"}) {
        proxy.setFilterText(QString::fromLatin1(filter));
        if (proxy.rowCount() == 0)
            continue;
        const int shown = proxy.rowCount(proxy.index(0, 0));
        EXPECT_EQ(proxy.index(0, 0).data().toString(), QStringLiteral("Collectives (%1 of 8)").arg(shown)) << filter;
        EXPECT_TRUE(proxy.index(0, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("%1 of 8").arg(shown)));
        proxy.setFilterText({});
        EXPECT_EQ(visibleInOrder(proxy), original) << "after clearing filter " << filter;
        EXPECT_EQ(proxy.index(0, 0).data().toString(), QStringLiteral("Collectives (8)"));
    }
    EXPECT_FALSE(changed.isEmpty()) << "views learn that the group titles changed";
}
