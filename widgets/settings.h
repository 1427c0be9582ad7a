#pragma once
// The one place that knows Ridgeline's persistent settings: every key is spelled once in
// settings.cpp, getters are typed and setters emit only when a value really changes.
#include <QByteArray>
#include <QJsonObject>
#include <QObject>
#include <QSettings>
#include <QSize>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

#include <memory>

#include "units/units.h"

namespace rl {

class Settings : public QObject
{
    Q_OBJECT
public:
    static constexpr int kMaxRecent = 10;
    // Bump when the dock/toolbar layout changes so old saved states are ignored, not misapplied.
    static constexpr int kWindowStateVersion = 1;

    // Default: the per-user QSettings of the application. A file path gives an INI file (tests).
    explicit Settings(QObject* parent = nullptr);
    explicit Settings(const QString& iniFile, QObject* parent = nullptr);
    ~Settings() override;

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray& geometry);
    QByteArray windowState() const; // empty when saved by another layout version
    void setWindowState(const QByteArray& state);
    QByteArray splitterState() const;
    void setSplitterState(const QByteArray& state);

    QStringList recentWorkspaces() const; // most recent first, deduplicated, at most kMaxRecent
    void addRecentWorkspace(const QString& path);
    void clearRecentWorkspaces();

    QString lastWorkspace() const;
    void setLastWorkspace(const QString& path);

    // The sessions selected when the workspace was last shown, restored at the next start;
    // nullopt when none was remembered for it (the first start selects the newest sessions).
    std::optional<std::vector<std::int64_t>> lastSelection(const QString& workspace) const;
    void setLastSelection(const QString& workspace, const std::vector<std::int64_t>& ids);

    QString lastImportDir() const;
    void setLastImportDir(const QString& dir);

    // What a file dialog is for: each purpose remembers its own last folder, so importing from a
    // results share does not send the next "Open workspace" there.
    enum class DirPurpose { Workspace, Import, Export, Hostfile };
    QString lastDir(DirPurpose purpose) const; // empty until a dialog of that purpose was used
    void setLastDir(DirPurpose purpose, const QString& dir);

    // The last configuration each benchmark dialog ran, as the dialog serialised it (the dialog
    // owns the format and its version field; widgets/ cannot know the app's config types).
    QJsonObject collectiveBenchmark() const; // empty when never stored or unreadable
    void setCollectiveBenchmark(const QJsonObject& config);
    QJsonObject kernelBenchmark() const;
    void setKernelBenchmark(const QJsonObject& config);
    QJsonObject gpuToolBenchmark() const; // the GPU tool dialog (nccl-tests, hipblaslt-bench, ...)
    void setGpuToolBenchmark(const QJsonObject& config);
    QJsonObject probeRun() const; // the PyTorch probe dialog: a run request (analysis/runs) as JSON
    void setProbeRun(const QJsonObject& request);

    // File > Report…'s last "Report options" (hardware profile, model, parallel layout), in the
    // dialog's own format.
    QJsonObject reportOptions() const;
    void setReportOptions(const QJsonObject& options);

    static constexpr QSize kDefaultExportSize{1600, 1000};
    QSize exportSize() const; // chart export size in pixels, independent of the screen
    void setExportSize(const QSize& size);

    // Bandwidth figures in GB/s (1e9 B/s, as the tools print them) or GiB/s; applied through
    // units::setDisplayBandwidthUnit by whoever shows them.
    units::BandwidthUnit bandwidthUnit() const;
    void setBandwidthUnit(units::BandwidthUnit unit);

    enum class Theme { System, Light, Dark };
    Theme theme() const;
    void setTheme(Theme theme);

    // The launcher the benchmark dialogs pre-fill (launcher, ranks, mpirun and its options, ...),
    // as LaunchSettings::toJson wrote it; empty until chosen in Preferences.
    QJsonObject defaultLaunch() const;
    void setDefaultLaunch(const QJsonObject& launch);

    void sync();

signals:
    void recentWorkspacesChanged(const QStringList& recent);
    void lastWorkspaceChanged(const QString& path);
    void exportSizeChanged(const QSize& size);
    void bandwidthUnitChanged(rl::units::BandwidthUnit unit);
    void themeChanged(rl::Settings::Theme theme);

private:
    bool store(const QString& key, const QVariant& value); // true when the value changed
    QJsonObject jsonValue(const QString& key) const;
    bool storeJson(const QString& key, const QJsonObject& value); // as compact JSON text
    std::unique_ptr<QSettings> m_settings;
};
} // namespace rl
