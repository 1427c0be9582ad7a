// The Resilience view (issue 14) on a real workspace: a storage session imported from fio's JSON
// and a training log imported from the sample Megatron-LM log by ridgeline-cli, then the view's
// figures against `ridgeline-cli checkpoint --json` and `reshape --json` for the same inputs,
// both goodput charts with their series and the optimum marker, their export as PNG, SVG and CSV,
// a wrong input named next to its field, and the CLI's `checkpoint -o goodput.svg` through the
// same chart.
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFont>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QProcess>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTreeWidget>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "goodputchart.h"
#include "gui/resilience/resilienceview.h"
#include "resulttableview.h"
#include "tempdir.h"
#include "test_gui_env.h"
#include "units/duration.h"
#include "units/units.h"

using nlohmann::json;
using rl::testing::waitFor;

namespace {
const QString kStorage = QStringLiteral(RIDGELINE_TEST_DATA "/storage/fio-ckpt-2jobs.json");
const QString kLog = QStringLiteral(RIDGELINE_SAMPLE_DATA "/megatron-lm_gpt-8b_16xH100_pretrain.log");

struct Cli
{
    int exitCode = -1;
    QByteArray out, err;
};

Cli cli(const QString& db, QStringList args)
{
    QProcess p;
    p.start(QStringLiteral(RIDGELINE_CLI_BIN), QStringList{QStringLiteral("--db"), db} + args);
    Cli r;
    if (!p.waitForFinished(120000))
        return r;
    r.exitCode = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

json cliJson(const QString& db, const QStringList& args)
{
    const auto r = cli(db, QStringList{QStringLiteral("--json")} + args);
    EXPECT_EQ(r.exitCode, 0) << r.err.toStdString();
    return json::parse(r.out.toStdString(), nullptr, false);
}

std::string fileText(const QString& path)
{
    std::ifstream in(path.toStdString());
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

struct Fixture
{
    rl::test::TempDir dir;
    QString db = dir.filePath(QStringLiteral("ws.db"));
    std::int64_t storage = 0, log = 0;
    rl::ResilienceView view;

    Fixture()
    {
        const auto imported = cli(db, {QStringLiteral("import"), kStorage, kLog});
        EXPECT_EQ(imported.exitCode, 0) << imported.err.toStdString();
        for (const auto& s : cliJson(db, {QStringLiteral("sessions")}))
            (s.value("kind", std::string{}) == "storage" ? storage : log) = s.value("id", std::int64_t{0});
        view.resize(1500, 900);
        view.show();
        QSignalSpy loaded(&view, &rl::ResilienceView::sourcesLoaded);
        view.setWorkspace(db);
        EXPECT_TRUE(loaded.wait(15000));
    }
    template <typename W>
    W* find(const char* name)
    {
        auto* w = view.findChild<W*>(QLatin1String(name));
        EXPECT_TRUE(w) << name;
        return w;
    }
    // Waits for the computation of the form as it is now.
    bool settle()
    {
        return waitFor([&] { return !view.isComputing(); }) && view.outcome().has_value();
    }
    void shoot(const char* name) { rl::testing::shoot(&view, name); } // once the charts laid out their new axes
};

const QScatterSeries* marker(QChart* chart, const QString& prefix)
{
    for (auto* s : chart->series())
        if (auto* m = qobject_cast<QScatterSeries*>(s); m && m->name().startsWith(prefix))
            return m;
    return nullptr;
}

const QLineSeries* curve(QChart* chart)
{
    for (auto* s : chart->series())
        if (s->type() == QAbstractSeries::SeriesTypeLine)
            return static_cast<QLineSeries*>(s);
    return nullptr;
}
} // namespace

TEST(GuiResilience, FiguresEqualTheCliOnAFioSessionAndATrainingLog)
{
    Fixture f;
    ASSERT_GT(f.storage, 0);
    ASSERT_GT(f.log, 0);
    auto* storage = f.find<QComboBox>("resilienceStorage");
    auto* mtbf = f.find<QComboBox>("resilienceMtbf");
    ASSERT_GE(storage->findData(qint64(f.storage)), 0);
    storage->setCurrentIndex(storage->findData(qint64(f.storage)));
    mtbf->setCurrentIndex(mtbf->findData(QStringLiteral("log:%1").arg(f.log)));
    ASSERT_GE(mtbf->currentIndex(), 0);
    f.find<QLineEdit>("resilienceParallel")->setText(QStringLiteral("tp=2,pp=2,dp=4"));
    f.find<QSpinBox>("resilienceLogNodes")->setValue(2);
    f.find<QCheckBox>("resilienceAsync")->setChecked(true);
    ASSERT_TRUE(f.settle());
    const auto& o = *f.view.outcome();
    ASSERT_TRUE(o.plan) << o.storageError << o.mtbfError << o.layoutError << o.planError;
    const auto& p = *o.plan;

    const auto j = cliJson(f.db, {QStringLiteral("checkpoint"), QStringLiteral("llama-3-8b"), QStringLiteral("--parallel"),
                                  QStringLiteral("tp=2,pp=2,dp=4"), QStringLiteral("--zero"), QStringLiteral("1"),
                                  QStringLiteral("--storage"), QString::number(f.storage), QStringLiteral("--mtbf"),
                                  QStringLiteral("log:%1").arg(f.log), QStringLiteral("--log-nodes"), QStringLiteral("2"),
                                  QStringLiteral("--async")});
    ASSERT_TRUE(j.is_object());
    EXPECT_DOUBLE_EQ(p.size.maxRankBytes, j["size"]["max_rank_bytes"].get<double>());
    EXPECT_DOUBLE_EQ(p.size.totalBytes, j["size"]["total_bytes"].get<double>());
    EXPECT_DOUBLE_EQ(o.inputs.storage.writeAggregateGBs, j["storage"]["write_aggregate_gbs"].get<double>());
    EXPECT_DOUBLE_EQ(o.inputs.storage.readAggregateGBs, j["storage"]["read_aggregate_gbs"].get<double>());
    EXPECT_EQ(o.inputs.storage.source, j["storage"]["source"].get<std::string>());
    EXPECT_DOUBLE_EQ(p.times.syncSaveS, j["times"]["sync_save_s"].get<double>());
    EXPECT_DOUBLE_EQ(p.times.asyncBlockingS, j["times"]["async_blocking_s"].get<double>());
    EXPECT_DOUBLE_EQ(p.times.loadS, j["times"]["load_s"].get<double>());
    EXPECT_DOUBLE_EQ(o.inputs.nodeMtbfHours, j["failures"]["node_mtbf_hours"].get<double>());
    EXPECT_DOUBLE_EQ(o.inputs.relaunchS, j["failures"]["relaunch_s"].get<double>());
    EXPECT_EQ(o.inputs.mtbfSource, j["failures"]["source"].get<std::string>());
    EXPECT_DOUBLE_EQ(p.jobMtbfS, j["failures"]["job_mtbf_s"].get<double>());
    EXPECT_DOUBLE_EQ(p.checkpointCostS, j["checkpoint_cost_s"].get<double>());
    EXPECT_DOUBLE_EQ(p.youngS, j["young_interval_s"].get<double>());
    EXPECT_DOUBLE_EQ(p.dalyS, j["daly_interval_s"].get<double>());
    EXPECT_DOUBLE_EQ(p.intervalS, j["interval_s"].get<double>());
    EXPECT_DOUBLE_EQ(p.goodput, j["goodput"].get<double>());
    ASSERT_EQ(p.vsNodes.size(), j["goodput_vs_nodes"].size());
    for (std::size_t i = 0; i < p.vsNodes.size(); ++i)
        EXPECT_DOUBLE_EQ(p.vsNodes[i].goodput, j["goodput_vs_nodes"][i]["goodput"].get<double>());

    // On screen: each figure with its unit and its basis.
    EXPECT_EQ(f.view.resultText(QStringLiteral("Job MTBF")),
              QString::fromStdString(rl::units::formatDuration(j["failures"]["job_mtbf_s"].get<double>())));
    EXPECT_EQ(f.view.resultText(QStringLiteral("Checkpoint total")),
              QString::fromStdString(rl::units::formatBytes(j["size"]["total_bytes"].get<double>())));
    EXPECT_EQ(f.view.resultText(QStringLiteral("Expected goodput")),
              QString::number(j["goodput"].get<double>() * 100, 'f', 2) + QStringLiteral(" %"));
    EXPECT_TRUE(f.view.basisText(QStringLiteral("Save, synchronous")).contains(QStringLiteral("session %1").arg(f.storage)));
    EXPECT_TRUE(f.view.basisText(QStringLiteral("Node MTBF")).contains(QStringLiteral("training log session %1").arg(f.log)));
    // Behind each value the CLI's own figure (what the table sorts and copies by), right-aligned.
    const auto* table =
        f.view.findChild<rl::charts::ResultTableView*>(QStringLiteral("resilienceResults"))->resultModel();
    const auto valueOf = [table](const char* quantity) {
        for (int r = 0; r < table->rowCount(); ++r)
            if (table->index(r, 0).data().toString() == QLatin1String(quantity))
                return table->index(r, 1).data(rl::charts::ResultTableModel::ValueRole).toDouble();
        return -1.0;
    };
    EXPECT_DOUBLE_EQ(valueOf("Job MTBF"), j["failures"]["job_mtbf_s"].get<double>());
    EXPECT_DOUBLE_EQ(valueOf("Checkpoint total"), j["size"]["total_bytes"].get<double>());
    EXPECT_DOUBLE_EQ(valueOf("Expected goodput"), j["goodput"].get<double>());
    EXPECT_EQ(table->index(1, 1).data(Qt::TextAlignmentRole).toInt(), int(Qt::AlignRight | Qt::AlignVCenter));
    EXPECT_TRUE(table->index(0, 0).data(Qt::FontRole).value<QFont>().bold()) << "the section title";

    // Goodput vs interval: the curve and Daly's optimum where the CLI puts it (x in the axis unit, y in %).
    QChart* ic = f.view.intervalChart()->chart();
    const auto* line = curve(ic);
    ASSERT_TRUE(line);
    EXPECT_EQ(std::size_t(line->count()), p.vsInterval.size());
    const auto* opt = marker(ic, QStringLiteral("Daly optimum"));
    if (!opt)
        opt = marker(ic, QStringLiteral("interval used"));
    ASSERT_TRUE(opt);
    ASSERT_EQ(opt->count(), 1);
    const double scale = f.view.intervalChart()->data().secondsPerXUnit;
    EXPECT_DOUBLE_EQ(opt->at(0).x(), j["interval_s"].get<double>() / scale);
    EXPECT_DOUBLE_EQ(opt->at(0).y(), j["goodput"].get<double>() * 100);
    EXPECT_TRUE(marker(ic, QStringLiteral("Young")));
    // Goodput vs nodes: one point per node count, the planned job marked.
    QChart* nc = f.view.nodesChart()->chart();
    ASSERT_TRUE(curve(nc));
    EXPECT_EQ(std::size_t(curve(nc)->count()), p.vsNodes.size());
    const auto* job = marker(nc, QStringLiteral("this job"));
    ASSERT_TRUE(job);
    EXPECT_DOUBLE_EQ(job->at(0).y(), j["goodput"].get<double>() * 100);
    f.shoot("resilience-view.png");

    // Export as every chart exports.
    for (auto* chart : {f.view.intervalChart(), f.view.nodesChart()}) {
        QString error;
        const QString base = f.dir.filePath(chart->data().xUnit == "nodes" ? QStringLiteral("nodes") : QStringLiteral("interval"));
        ASSERT_TRUE(chart->exportTo(base + QStringLiteral(".png"), &error)) << error.toStdString();
        EXPECT_FALSE(QImage(base + QStringLiteral(".png")).isNull());
        ASSERT_TRUE(chart->exportTo(base + QStringLiteral(".svg"), &error)) << error.toStdString();
        const auto svg = fileText(base + QStringLiteral(".svg"));
        EXPECT_NE(svg.find("<svg"), std::string::npos);
        EXPECT_NE(svg.find("goodput"), std::string::npos);
        ASSERT_TRUE(chart->exportTo(base + QStringLiteral(".csv"), &error)) << error.toStdString();
        const auto csv = fileText(base + QStringLiteral(".csv"));
        EXPECT_EQ(csv.rfind("series,x,goodput\n", 0), 0u);
        EXPECT_NE(csv.find(chart == f.view.nodesChart() ? "\nnodes," : "\noptimum_interval_s,"), std::string::npos);
    }
    // Async: the interval is Daly's optimum or, when a snapshot drains longer, the drain time.
    const auto intervalSvg = fileText(f.dir.filePath(QStringLiteral("interval.svg")));
    EXPECT_TRUE(intervalSvg.find(opt->name().toStdString()) != std::string::npos) << opt->name().toStdString();
}

TEST(GuiResilience, ReshapeListsEveryNewRankAsTheCliDoes)
{
    Fixture f;
    f.find<QLineEdit>("resilienceParallel")->setText(QStringLiteral("tp=2,pp=2,dp=4"));
    f.find<QLineEdit>("resilienceReshapeTo")->setText(QStringLiteral("tp=1,pp=2,dp=8"));
    f.find<QLineEdit>("resilienceRates")->setText(QStringLiteral("10:20"));
    ASSERT_TRUE(f.settle());
    const auto& o = *f.view.outcome();
    ASSERT_TRUE(o.reshape) << o.reshapeError;
    const auto j = cliJson(f.db, {QStringLiteral("reshape"), QStringLiteral("llama-3-8b"), QStringLiteral("--from"),
                                  QStringLiteral("tp=2,pp=2,dp=4"), QStringLiteral("--to"), QStringLiteral("tp=1,pp=2,dp=8"),
                                  QStringLiteral("--storage"), QStringLiteral("10GB/s:20GB/s")});
    EXPECT_DOUBLE_EQ(o.reshape->totalReadBytes, j["total_read_bytes"].get<double>());
    EXPECT_DOUBLE_EQ(o.reshape->storageReadS, j["storage_read_s"].get<double>());
    auto* tree = f.find<QTreeWidget>("reshapeTree");
    ASSERT_EQ(std::size_t(tree->topLevelItemCount()), j["ranks"].size());
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        EXPECT_EQ(tree->topLevelItem(i)->text(0).toStdString(), j["ranks"][i]["rank"].get<std::string>());
        EXPECT_EQ(std::size_t(tree->topLevelItem(i)->childCount()), j["ranks"][i]["reads"].size());
    }
    EXPECT_TRUE(f.find<QLabel>("reshapeSummary")->text().contains(
        QStringLiteral("in %1 old files").arg(j["old_files"].get<int>())))
        << f.find<QLabel>("reshapeSummary")->text().toStdString();
}

TEST(GuiResilience, AWrongInputIsNamedNextToItsField)
{
    Fixture f;
    ASSERT_TRUE(f.settle());
    ASSERT_TRUE(f.view.outcome()->plan);
    auto* layoutError = f.find<QLabel>("layoutError");
    f.find<QLineEdit>("resilienceParallel")->setText(QStringLiteral("tp=3,dp=banana"));
    ASSERT_TRUE(waitFor([&] { return layoutError->isVisible(); }));
    EXPECT_FALSE(layoutError->text().isEmpty());
    EXPECT_FALSE(f.view.outcome()->plan);
    EXPECT_TRUE(f.view.intervalChart()->chart()->series().isEmpty());
    f.find<QLineEdit>("resilienceParallel")->setText(QStringLiteral("dp=8"));
    f.find<QLineEdit>("resilienceRates")->setText(QStringLiteral("fast"));
    auto* storageError = f.find<QLabel>("storageError");
    ASSERT_TRUE(waitFor([&] { return storageError->isVisible(); }));
    EXPECT_TRUE(storageError->text().contains(QStringLiteral("not a bandwidth"))) << storageError->text().toStdString();
    EXPECT_FALSE(layoutError->isVisible());
    f.find<QLineEdit>("resilienceRates")->setText(QStringLiteral("10"));
    auto* mtbf = f.find<QComboBox>("resilienceMtbf");
    mtbf->setCurrentIndex(mtbf->findData(QStringLiteral("typed")));
    f.find<QLineEdit>("resilienceMtbfHours")->setText(QStringLiteral("-5"));
    auto* mtbfError = f.find<QLabel>("mtbfError");
    ASSERT_TRUE(waitFor([&] { return mtbfError->isVisible() && !storageError->isVisible(); }));
    f.find<QLineEdit>("resilienceMtbfHours")->setText(QStringLiteral("2000"));
    ASSERT_TRUE(waitFor([&] { return !mtbfError->isVisible() && f.view.outcome()->plan.has_value(); }));
}

TEST(CliCheckpointChart, SvgIsDrawnByTheGoodputChart)
{
    rl::test::TempDir dir;
    const QString svg = dir.filePath(QStringLiteral("goodput.svg"));
    const auto r = cli(dir.filePath(QStringLiteral("ws.db")),
                       {QStringLiteral("checkpoint"), QStringLiteral("llama-3-8b"), QStringLiteral("--parallel"),
                        QStringLiteral("dp=8"), QStringLiteral("--storage"), QStringLiteral("10GB/s"), QStringLiteral("--mtbf"),
                        QStringLiteral("2000"), QStringLiteral("-o"), svg});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    const auto text = fileText(svg);
    EXPECT_NE(text.find("<svg"), std::string::npos);
    // The widget's legend and axis titles: the optimum marked, units on the axes.
    EXPECT_NE(text.find("Daly optimum"), std::string::npos);
    // Young's 3.53 h (C = 11.2 s, M = 2000 h on one node): the interval axis is in hours.
    EXPECT_NE(text.find("compute time between checkpoints (h"), std::string::npos);
    EXPECT_NE(text.find("goodput (useful / wall time, %)"), std::string::npos);
}
