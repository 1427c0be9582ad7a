// File > Report… (issue 15): the selected sessions, a file name asked for, the report written off
// the GUI thread (the action returns before the file exists), a status message when done; HTML
// with the charts inline, and PDF when that filter is chosen; the cluster template asks for its
// device and the model sized on it ("Report options").
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QJsonObject>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QSpinBox>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTimer>

#include <algorithm>

#include "gui/window/mainwindow.h"
#include "model/modelconfig.h"
#include "openwindow.h"
#include "gui/window/sessionbrowser.h"
#include "sessionmodel.h"
#include "settings.h"
#include "store/modelconfigs.h"
#include "store/workspace.h"
#include "tempdir.h"
#include "test_gui_env.h"

namespace {
QAction* action(rl::MainWindow& window, const QString& text)
{
    const auto actions = window.findChildren<QAction*>();
    const auto it = std::find_if(actions.begin(), actions.end(), [&](QAction* a) { return a->text() == text; });
    return it == actions.end() ? nullptr : *it;
}

// Triggers `a`, answering its modal file dialog with `answer` and then, for the cluster template,
// its "Report options" dialog with `options` (accepted as it comes without one).
void triggerAndAnswer(QAction* a, const std::function<void(QFileDialog*)>& answer,
                      const std::function<void(QDialog*)>& options = {})
{
    QTimer poll;
    bool fileAnswered = false;
    QObject::connect(&poll, &QTimer::timeout, [&] {
        QWidget* modal = QApplication::activeModalWidget();
        if (auto* file = qobject_cast<QFileDialog*>(modal); file && !fileAnswered) {
            fileAnswered = true;
            answer(file);
        } else if (auto* d = qobject_cast<QDialog*>(modal); d && d->objectName() == QLatin1String("reportOptions")) {
            poll.stop();
            if (options)
                options(d);
            else
                d->accept();
        }
    });
    poll.start(20);
    a->trigger();
}

// Chooses the filter whose name starts with `prefix` and types `name` (a path: a fresh dialog opens
// in the home folder).
void chooseFilter(QFileDialog* d, const QString& prefix, const QString& name)
{
    const auto filters = d->nameFilters();
    const auto it = std::find_if(filters.begin(), filters.end(), [&](const QString& n) { return n.startsWith(prefix); });
    auto* edit = d->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
    if (it == filters.end() || !edit) { // an ASSERT here would leave the dialog open for ever
        ADD_FAILURE() << "no filter " << prefix.toStdString() << " or no file name field";
        d->reject();
        return;
    }
    d->selectNameFilter(*it);
    edit->setText(name);
    static_cast<QDialog*>(d)->accept();
}

// A "Report options" answer: `fill` sets its hardware, model and layout fields, then OK.
std::function<void(QDialog*)> options(std::function<void(QComboBox*, QComboBox*, QLineEdit*)> fill)
{
    return [fill = std::move(fill)](QDialog* d) {
        auto* hardware = d->findChild<QComboBox*>(QStringLiteral("reportHardware"));
        auto* model = d->findChild<QComboBox*>(QStringLiteral("reportModel"));
        auto* parallel = d->findChild<QLineEdit*>(QStringLiteral("reportParallel"));
        if (!hardware || !model || !parallel) { // an ASSERT here would leave the dialog open for ever
            ADD_FAILURE() << "no hardware, model or layout field";
            return d->reject();
        }
        fill(hardware, model, parallel);
        rl::testing::shoot(d, "report-options.png");
        d->accept();
    };
}

QString readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// The main window on a workspace with the GUI import fixtures, its collective sessions selected.
struct ReportWindow : rl::testing::OpenWindow
{
    explicit ReportWindow(const rl::test::TempDir& dir) : OpenWindow(dir, dir.filePath(QStringLiteral("ws.db"))) {}
    bool selectCollectives()
    {
        QSignalSpy imported(&window, &rl::MainWindow::importDone);
        window.importPaths({rl::testing::guiData("import")});
        if (!imported.wait(30000) || !rl::testing::waitFor([&] { return window.sessionBrowser()->model()->sessionCount() == 3; }))
            return false;
        for (const auto& s : rl::store::Workspace(window.workspacePath().toStdString()).sessions())
            if (s.kind == rl::kind::Collectives)
                ids.push_back(s.id);
        QSignalSpy charts(&window, &rl::MainWindow::chartsShown);
        window.sessionBrowser()->selectSessions(ids);
        return !ids.empty() && charts.wait(15000);
    }
    std::vector<std::int64_t> ids;
};
} // namespace

TEST(GuiReport, FileReportWritesHtmlAndPdfOfTheSelectedSessionsOffTheGuiThread)
{
    QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
    rl::test::TempDir dir;
    ReportWindow w(dir);
    ASSERT_TRUE(w.loaded);
    ASSERT_TRUE(w.selectCollectives());
    auto& window = w.window;
    const auto& ids = w.ids;

    QAction* report = action(window, QStringLiteral("&Report…"));
    ASSERT_TRUE(report);
    EXPECT_EQ(report->shortcut(), QKeySequence(QStringLiteral("Ctrl+R")));

    QSignalSpy written(&window, &rl::MainWindow::reportWritten);
    QSignalSpy failed(&window, &rl::MainWindow::reportFailed);
    const QString html = dir.filePath(QStringLiteral("cluster.html"));
    // Typed: selectFile() leaves a focused name field as it is, and the dialog may have focus by now.
    triggerAndAnswer(report, [&](QFileDialog* d) { chooseFilter(d, QStringLiteral("HTML, charts inline"), html); });
    // The action came back at once: the charts are drawn and the file written after the worker
    // read the sessions, so nothing is there yet.
    EXPECT_FALSE(QFileInfo::exists(html));
    ASSERT_TRUE(written.wait(30000)) << (failed.isEmpty() ? "" : failed.first().first().toString().toStdString());
    EXPECT_EQ(written.first().first().toString().toStdString(), html.toStdString());
    EXPECT_TRUE(window.statusBar()->currentMessage().startsWith(QStringLiteral("Report written to ")))
        << window.statusBar()->currentMessage().toStdString();
    QFile f(html);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    EXPECT_TRUE(text.startsWith(QStringLiteral("<!DOCTYPE html>")));
    EXPECT_EQ(text.count(QStringLiteral("<svg")), qsizetype(2 * ids.size())) << "bandwidth and latency per session";
    EXPECT_TRUE(text.contains(QStringLiteral("peaks at a busbw of")));

    // The PDF filter and a bare name: the suffix follows the filter.
    written.clear();
    triggerAndAnswer(report, [&](QFileDialog* d) {
        // Typed, as a user does, in the folder the last report went to.
        EXPECT_EQ(d->directory().absolutePath(), QFileInfo(html).absolutePath());
        chooseFilter(d, QStringLiteral("PDF ("), QStringLiteral("bare"));
    });
    ASSERT_TRUE(written.wait(30000)) << (failed.isEmpty() ? "" : failed.first().first().toString().toStdString());
    const QString pdf = dir.filePath(QStringLiteral("bare.pdf"));
    EXPECT_EQ(written.first().first().toString().toStdString(), pdf.toStdString());
    QFile p(pdf);
    ASSERT_TRUE(p.open(QIODevice::ReadOnly));
    EXPECT_TRUE(p.read(5) == "%PDF-");
    EXPECT_GT(p.size(), 10000);

    // The cluster template through its filter; its options as they come (fresh settings: none).
    written.clear();
    triggerAndAnswer(report, [&](QFileDialog* d) { chooseFilter(d, QStringLiteral("HTML, cluster template"), QStringLiteral("cluster-template")); });
    ASSERT_TRUE(written.wait(30000)) << (failed.isEmpty() ? "" : failed.first().first().toString().toStdString());
    const QString clusterText = readAll(dir.filePath(QStringLiteral("cluster-template.html")));
    EXPECT_TRUE(clusterText.contains(QStringLiteral("<title>Cluster characterisation</title>")));
    EXPECT_TRUE(clusterText.contains(QStringLiteral("<h2>Collectives")));
    // No model chosen: the sizing section only says how to get one.
    EXPECT_TRUE(clusterText.contains(QStringLiteral("No model was sized for this report")));
    EXPECT_FALSE(clusterText.contains(QStringLiteral("Sizing: "))) << "no model chosen: no sizing of one";
}

// The cluster template's "Report options": a hardware profile and a model (presets and the
// workspace's saved configs listed), sized on the worker as `ridgeline-cli report --model` does;
// the choices remembered for the next report; an unknown model named in the status bar.
TEST(GuiReport, ClusterTemplateSizesTheChosenModelOnTheChosenDevice)
{
    QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
    rl::test::TempDir dir;
    {
        rl::store::Workspace ws(dir.filePath(QStringLiteral("ws.db")).toStdString());
        rl::store::saveModelConfig(ws.database(), "my-8b", rl::model::toJson(rl::model::loadPreset("llama-3-8b")).dump());
    }
    ReportWindow w(dir);
    ASSERT_TRUE(w.loaded);
    ASSERT_TRUE(w.selectCollectives());
    QAction* report = action(w.window, QStringLiteral("&Report…"));
    ASSERT_TRUE(report);
    QSignalSpy written(&w.window, &rl::MainWindow::reportWritten);
    QSignalSpy failed(&w.window, &rl::MainWindow::reportFailed);
    bool listsSaved = false;
    triggerAndAnswer(
        report, [&](QFileDialog* d) { chooseFilter(d, QStringLiteral("HTML, cluster template"), dir.filePath(QStringLiteral("sized"))); },
        options([&](QComboBox* hardware, QComboBox* model, QLineEdit* parallel) {
            EXPECT_EQ(parallel->text(), QStringLiteral("dp=8")) << "the default layout";
            EXPECT_GE(model->findText(QStringLiteral("llama-3-8b")), 0) << "the presets";
            listsSaved = rl::testing::waitFor([&] { return model->findText(QStringLiteral("my-8b")) >= 0; });
            hardware->setCurrentIndex(hardware->findData(QStringLiteral("h100-sxm")));
            model->setCurrentText(QStringLiteral("llama-3-8b"));
            parallel->setText(QStringLiteral("tp=8,dp=4"));
            auto* dtype = parallel->window()->findChild<QComboBox*>(QStringLiteral("reportDtype"));
            ASSERT_TRUE(dtype);
            EXPECT_EQ(dtype->currentText(), QStringLiteral("bf16")) << "the default dtype";
            dtype->setCurrentText(QStringLiteral("fp8"));
            // The rest of size's training recipe, and the profile's attention kernels.
            QWidget* dialog = parallel->window();
            auto* recompute = dialog->findChild<QComboBox*>(QStringLiteral("reportRecompute"));
            auto* microBatches = dialog->findChild<QSpinBox*>(QStringLiteral("reportMicroBatches"));
            auto* sp = dialog->findChild<QCheckBox*>(QStringLiteral("reportSequenceParallel"));
            auto* seq = dialog->findChild<QSpinBox*>(QStringLiteral("reportSeqLen"));
            auto* attention = dialog->findChild<QComboBox*>(QStringLiteral("reportAttention"));
            ASSERT_TRUE(recompute && microBatches && sp && seq && attention);
            EXPECT_EQ(seq->value(), 4096) << "size's default sequence length";
            EXPECT_GE(attention->findData(QStringLiteral("cudnn")), 0) << "h100-sxm's measured kernels";
            recompute->setCurrentText(QStringLiteral("full"));
            microBatches->setValue(16);
            sp->setChecked(true);
            seq->setValue(8192);
            attention->setCurrentIndex(attention->findData(QStringLiteral("cudnn")));
        }));
    EXPECT_TRUE(listsSaved) << "the workspace's saved configs";
    ASSERT_TRUE(written.wait(30000)) << (failed.isEmpty() ? "" : failed.first().first().toString().toStdString());
    const QString text = readAll(dir.filePath(QStringLiteral("sized.html")));
    // The sizing section, its sentence in the summary too, and its table.
    EXPECT_TRUE(text.contains(QStringLiteral("<h2>Sizing: llama-3-8b on h100-sxm</h2>")));
    EXPECT_TRUE(text.contains(QStringLiteral("llama-3-8b on 32 x h100-sxm (tp=8,dp=4, fp8): step ")));
    EXPECT_TRUE(text.contains(QStringLiteral("<td>training recipe</td><td>seq 8192, micro-batch 1 x 16, ZeRO 1, "
                                             "recompute full, fp8, sequence parallel; attention cudnn, measured at "
                                             "head dim 128")));
    EXPECT_TRUE(text.contains(QStringLiteral("<td>step time</td>")));
    EXPECT_TRUE(text.contains(QStringLiteral("<td>MFU (peak / max achievable)</td>")));
    // The device's ceilings on the sizing roofline, with the model's GEMMs.
    EXPECT_TRUE(text.contains(QStringLiteral("bf16, fp16 (H100): 989 TFLOP/s")));
    EXPECT_TRUE(text.contains(QStringLiteral("HBM3 (H100): 3.35 TB/s")));
    EXPECT_TRUE(text.contains(QStringLiteral("llama-3-8b predicted on H100")));
    const QJsonObject remembered = w.settings.reportOptions();
    EXPECT_EQ(remembered.value(QStringLiteral("hardware")).toString(), QStringLiteral("h100-sxm"));
    EXPECT_EQ(remembered.value(QStringLiteral("model")).toString(), QStringLiteral("llama-3-8b"));
    EXPECT_EQ(remembered.value(QStringLiteral("parallel")).toString(), QStringLiteral("tp=8,dp=4"));
    EXPECT_EQ(remembered.value(QStringLiteral("dtype")).toString(), QStringLiteral("fp8"));
    EXPECT_EQ(remembered.value(QStringLiteral("recompute")).toString(), QStringLiteral("full"));
    EXPECT_EQ(remembered.value(QStringLiteral("microBatches")).toInt(), 16);
    EXPECT_EQ(remembered.value(QStringLiteral("attention")).toString(), QStringLiteral("cudnn"));

    // Next time the dialog comes back with them; an unknown model fails with its name, nothing written.
    written.clear();
    triggerAndAnswer(
        report, [&](QFileDialog* d) { chooseFilter(d, QStringLiteral("HTML, cluster template"), dir.filePath(QStringLiteral("unknown"))); },
        options([&](QComboBox* hardware, QComboBox* model, QLineEdit* parallel) {
            EXPECT_EQ(hardware->currentData().toString(), QStringLiteral("h100-sxm"));
            EXPECT_EQ(model->currentText(), QStringLiteral("llama-3-8b"));
            EXPECT_EQ(parallel->text(), QStringLiteral("tp=8,dp=4"));
            QWidget* dialog = parallel->window();
            auto* recompute = dialog->findChild<QComboBox*>(QStringLiteral("reportRecompute"));
            auto* seq = dialog->findChild<QSpinBox*>(QStringLiteral("reportSeqLen"));
            auto* attention = dialog->findChild<QComboBox*>(QStringLiteral("reportAttention"));
            ASSERT_TRUE(recompute && seq && attention);
            EXPECT_EQ(recompute->currentText(), QStringLiteral("full"));
            EXPECT_EQ(seq->value(), 8192);
            EXPECT_EQ(attention->currentData().toString(), QStringLiteral("cudnn"));
            // A profile without measured attention kernels offers none, and the choice falls back to by shape.
            hardware->setCurrentIndex(hardware->findData(QStringLiteral("mi300x")));
            EXPECT_FALSE(attention->isEnabled());
            EXPECT_EQ(attention->currentData().toString(), QString());
            hardware->setCurrentIndex(hardware->findData(QStringLiteral("h100-sxm")));
            EXPECT_EQ(attention->currentData().toString(), QStringLiteral("cudnn")) << "the choice comes back";
            model->setCurrentText(QStringLiteral("llama-9-nope"));
        }));
    ASSERT_TRUE(failed.wait(30000));
    EXPECT_TRUE(failed.first().first().toString().contains(QStringLiteral("'llama-9-nope' is neither a file")));
    EXPECT_TRUE(w.window.statusBar()->currentMessage().contains(QStringLiteral("llama-9-nope")));
    EXPECT_FALSE(QFileInfo::exists(dir.filePath(QStringLiteral("unknown.html"))));
    EXPECT_TRUE(written.isEmpty());
}
