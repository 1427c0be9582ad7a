// Kernel-benchmark sessions in the main window: selecting them switches the central view to the
// roofline / GEMM efficiency / memory bandwidth tabs with the stored records, and a hardware
// profile adds its ceilings.
#include <QChart>
#include <QComboBox>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTemporaryDir>

#include "kernelview.h"
#include "mainwindow.h"
#include "membwchart.h"
#include "rooflinechart.h"
#include "sessionbrowser.h"
#include "settings.h"
#include "store/workspace.h"
#include "test_gui_env.h"

TEST(GuiKernelView, KernelSessionsGetTheRooflineAndBandwidthViews)
{
    QTemporaryDir dir;
    const QString ws = dir.filePath(QStringLiteral("ws.db"));
    qputenv("RIDGELINE_NO_DIALOGS", "1");
    rl::Settings settings{dir.filePath(QStringLiteral("settings.ini"))};
    rl::MainWindow window{&settings};
    window.resize(1300, 800);
    window.show();
    QSignalSpy shown(&window, &rl::MainWindow::sessionsShown);
    window.openWorkspace(ws);
    ASSERT_TRUE(shown.wait(15000));
    QSignalSpy imported(&window, &rl::MainWindow::importDone);
    window.importPaths({QStringLiteral(RIDGELINE_TEST_DATA "/kernels/membw-zen5-2cpu-kvm.jsonl"),
                        QStringLiteral(RIDGELINE_TEST_DATA "/kernels/rocblas-bench-gemm-mixed.txt"),
                        QStringLiteral(RIDGELINE_TEST_DATA "/traces/handmade_two_steps.json")});
    ASSERT_TRUE(imported.wait(30000));

    rl::store::Workspace store(ws.toStdString());
    std::int64_t membw = 0, gemm = 0, trace = 0;
    for (const auto& s : store.sessions()) {
        if (s.kind == rl::kind::Trace)
            trace = s.id;
        if (s.kind == rl::kind::MemBandwidth)
            membw = s.id;
        if (s.kind == rl::kind::Gemm)
            gemm = s.id;
    }
    ASSERT_TRUE(membw && gemm && trace);
    ASSERT_TRUE(rl::testing::waitFor([&] { return window.sessionBrowser()->session(gemm).has_value(); }));
    auto* views = window.findChild<QStackedWidget*>();
    auto* kernels = window.findChild<rl::KernelView*>();
    ASSERT_TRUE(views && kernels);
    QSignalSpy charts(&window, &rl::MainWindow::chartsShown);

    window.sessionBrowser()->selectSessions({membw});
    ASSERT_TRUE(charts.wait(15000));
    EXPECT_EQ(views->currentWidget(), kernels);
    EXPECT_EQ(kernels->tabs()->currentIndex(), 2) << "a membw sweep alone opens on memory bandwidth";
    EXPECT_FALSE(kernels->memoryBandwidth()->chart()->series().isEmpty());

    window.sessionBrowser()->selectSessions({gemm, membw});
    ASSERT_TRUE(charts.wait(15000));
    kernels->tabs()->setCurrentIndex(0);
    const auto measuredOnly = kernels->roofline()->geometry();
    EXPECT_FALSE(measuredOnly.gemm.empty());
    kernels->setHardwareProfile(QStringLiteral("mi300x"));
    const auto withProfile = kernels->roofline()->geometry();
    EXPECT_GT(withProfile.compute.size(), measuredOnly.compute.size()) << "the profile's peaks are drawn too";
    EXPECT_EQ(kernels->findChild<QComboBox*>(QStringLiteral("kernelProfile"))->currentData().toString(),
              QStringLiteral("mi300x"));

    // A second profile, and a model's predicted GEMMs on the first profile.
    kernels->setCompareProfile(QStringLiteral("h100-sxm"));
    bool second = false;
    for (const auto& c : kernels->roofline()->geometry().compute)
        second = second || c.origin == rl::charts::CeilingOrigin::SecondProfile;
    EXPECT_TRUE(second);
    const auto sourceCount = [&](rl::charts::PointSource source) {
        int n = 0;
        for (const auto& s : kernels->roofline()->geometry().gemm)
            n += s.source == source ? int(s.points.size()) : 0;
        return n;
    };
    kernels->setModelGemms(QStringLiteral("llama-3-8b"), QStringLiteral("dp=8,tp=8"));
    EXPECT_GT(sourceCount(rl::charts::PointSource::Predicted), 5) << kernels->note().toStdString();
    kernels->setHardwareProfile(QString());
    EXPECT_EQ(sourceCount(rl::charts::PointSource::Predicted), 0);
    EXPECT_TRUE(kernels->note().contains(QStringLiteral("hardware profile"))) << kernels->note().toStdString();

    // A trace selected with the kernel sessions: its kernels that recorded flops and bytes join.
    window.sessionBrowser()->selectSessions({gemm, trace});
    ASSERT_TRUE(charts.wait(15000));
    EXPECT_EQ(views->currentWidget(), kernels);
    EXPECT_EQ(sourceCount(rl::charts::PointSource::Trace), 1); // the one GEMM with kernel_flop
    EXPECT_GT(sourceCount(rl::charts::PointSource::Imported), 0); // rocblas-bench is an import
}
