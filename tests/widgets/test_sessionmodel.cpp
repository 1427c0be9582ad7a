// SessionModel: kind groups with their sessions newest first, stable under QAbstractItemModelTester.
#include <QAbstractItemModelTester>
#include <QIcon>
#include <QImage>
#include <QLabel>

#include "detailspanel.h"
#include "sessionmodel.h"
#include "test_gui_env.h"

using rl::Session;
using rl::SessionModel;

namespace {
Session make(std::int64_t id, const char* kind, const char* title, const char* created, const char* host = "node01")
{
    Session s;
    s.id = id;
    s.kind = kind;
    s.title = title;
    s.created = created;
    s.host = host;
    s.tool = "nccl-tests";
    s.toolVersion = "2.13.8";
    return s;
}

std::vector<Session> sample()
{
    return {make(1, "collectives", "all_reduce 8 ranks", "2026-11-20T09:00:00Z"),
            make(2, "gemm", "hipBLASLt tune", "2026-11-21T10:00:00Z"),
            make(3, "collectives", "all_gather 8 ranks", "2026-11-21T12:00:00Z", "h100-node07")};
}
} // namespace

TEST(SessionModel, GroupsByKindNewestFirst)
{
    SessionModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSessions(sample());
    ASSERT_EQ(model.rowCount(), 2);
    const QModelIndex coll = model.index(0, 0);
    EXPECT_EQ(coll.data().toString(), QStringLiteral("Collectives (2)"));
    ASSERT_EQ(model.rowCount(coll), 2);
    EXPECT_EQ(model.index(0, 0, coll).data(SessionModel::SessionIdRole).toLongLong(), 3);
    EXPECT_EQ(model.index(1, 0, coll).data(SessionModel::SessionIdRole).toLongLong(), 1);
    EXPECT_EQ(model.index(0, SessionModel::HostColumn, coll).data().toString(), QStringLiteral("h100-node07"));
    EXPECT_EQ(model.index(0, SessionModel::ToolColumn, coll).data().toString(), QStringLiteral("nccl-tests 2.13.8"));
    EXPECT_EQ(model.index(0, SessionModel::StatusColumn, coll).data().toString(), QStringLiteral("complete"));
    const QModelIndex gemm = model.index(1, 0);
    EXPECT_EQ(gemm.data().toString(), QStringLiteral("GEMM (1)"));
    EXPECT_EQ(model.parent(model.index(0, 2, gemm)), gemm);
    EXPECT_EQ(model.sessionCount(), 3);
}

TEST(SessionModel, FindsSessionsByIdAndReturnsThem)
{
    SessionModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSessions(sample());
    const QModelIndex idx = model.indexOfSession(2, SessionModel::CreatedColumn);
    ASSERT_TRUE(idx.isValid());
    auto s = model.session(idx);
    ASSERT_TRUE(s.has_value());
    EXPECT_EQ(s->title, "hipBLASLt tune");
    EXPECT_FALSE(model.session(model.index(0, 0)).has_value()) << "group rows are not sessions";
    EXPECT_FALSE(model.indexOfSession(99).isValid());
}

TEST(SessionModel, ResetAndClearKeepTheModelConsistent)
{
    SessionModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSessions(sample());
    model.setSessions({make(9, "trace", "resnet50 trace", "2026-11-22T08:00:00Z")});
    EXPECT_EQ(model.rowCount(), 1);
    EXPECT_EQ(model.index(0, 0).data(SessionModel::KindRole).toString(), QStringLiteral("trace"));
    model.clear();
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_EQ(model.sessionCount(), 0);
}

// Issue 9 item 20: the list shows when a run is running, failed, cancelled or incomplete (the
// Status column is off-screen in the narrow dock), from the status the runs store.
TEST(SessionModel, TitleShowsTheStoredStatusWithIconAndTooltip)
{
    using rl::SessionStatus;
    std::vector<Session> sessions;
    const std::vector<std::pair<SessionStatus, const char*>> cases{{SessionStatus::Complete, ""},
                                                                   {SessionStatus::Running, " (running)"},
                                                                   {SessionStatus::Failed, " (failed)"},
                                                                   {SessionStatus::Cancelled, " (cancelled)"},
                                                                   {SessionStatus::Incomplete, " (incomplete)"}};
    for (std::size_t i = 0; i < cases.size(); ++i) {
        sessions.push_back(make(std::int64_t(i + 1), "collectives", "sweep", "2026-11-20T09:00:00Z"));
        sessions.back().status = cases[i].first;
    }
    SessionModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSessions(sessions);
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const QModelIndex idx = model.indexOfSession(std::int64_t(i + 1));
        const QString status = QString::fromLatin1(rl::toString(cases[i].first));
        EXPECT_EQ(idx.data().toString(), QStringLiteral("sweep") + QString::fromLatin1(cases[i].second));
        EXPECT_EQ(idx.data(SessionModel::StatusRole).toString(), status);
        EXPECT_TRUE(idx.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Status: ") + status));
        const auto icon = idx.data(Qt::DecorationRole).value<QIcon>();
        ASSERT_FALSE(icon.isNull()) << "every title has an icon, so titles line up";
        // Complete draws nothing; the other states a coloured dot.
        const QImage image = icon.pixmap(12, 12).toImage();
        EXPECT_EQ(qAlpha(image.pixel(6, 6)) > 0, cases[i].first != SessionStatus::Complete) << status.toStdString();
        EXPECT_EQ(model.indexOfSession(std::int64_t(i + 1), SessionModel::StatusColumn).data().toString(), status);
    }
}

// An imported file that names no host (a Kineto trace, a training log, OSU) has an empty host:
// the list leaves the cell blank, the tooltip and the details panel say "—", never this machine.
TEST(SessionModel, ASessionWithoutAHostShowsADash)
{
    SessionModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    auto sessions = sample();
    sessions.push_back(make(4, "trace", "rank0.json (rank 0)", "2026-11-22T08:00:00Z", ""));
    model.setSessions(sessions);
    const QModelIndex trace = model.indexOfSession(4, SessionModel::HostColumn);
    ASSERT_TRUE(trace.isValid());
    EXPECT_EQ(trace.data().toString(), QString());
    EXPECT_TRUE(trace.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Host: —\n")))
        << trace.data(Qt::ToolTipRole).toString().toStdString();
    EXPECT_TRUE(model.indexOfSession(3).data(Qt::ToolTipRole).toString().contains(QStringLiteral("Host: h100-node07")));

    rl::DetailsPanel details;
    details.setSession(sessions.back());
    const auto* host = details.findChild<QLabel*>(QStringLiteral("detailsHost"));
    ASSERT_TRUE(host);
    EXPECT_EQ(host->text(), QStringLiteral("—"));
    EXPECT_TRUE(host->toolTip().contains(QStringLiteral("does not name the host")));
    details.setSession(sessions[2]);
    EXPECT_EQ(host->text(), QStringLiteral("h100-node07"));
}
