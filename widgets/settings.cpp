#include "settings.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>

namespace rl {
namespace {
namespace key {
const auto Geometry = QStringLiteral("window/geometry");
const auto State = QStringLiteral("window/state");
const auto StateVersion = QStringLiteral("window/stateVersion");
const auto Splitter = QStringLiteral("window/splitter");
const auto Recent = QStringLiteral("workspaces/recent");
const auto LastWorkspace = QStringLiteral("workspaces/last");
const auto LastSelection = QStringLiteral("workspaces/lastSelection");
const auto ImportDir = QStringLiteral("import/lastDir");
const auto ExportSize = QStringLiteral("export/size");
const auto WorkspaceDir = QStringLiteral("workspaces/lastDir");
const auto ExportDir = QStringLiteral("export/lastDir");
const auto HostfileDir = QStringLiteral("benchmark/hostfileDir");
const auto CollectiveBenchmark = QStringLiteral("benchmark/collective");
const auto KernelBenchmark = QStringLiteral("benchmark/kernel");
const auto GpuToolBenchmark = QStringLiteral("benchmark/gputool");
const auto ProbeRun = QStringLiteral("benchmark/probe");
const auto DefaultLaunch = QStringLiteral("benchmark/defaultLaunch");
const auto ReportOptions = QStringLiteral("report/options");
const auto BandwidthUnit = QStringLiteral("display/bandwidthUnit");
const auto Theme = QStringLiteral("display/theme");

QString dirKey(Settings::DirPurpose purpose)
{
    switch (purpose) {
    case Settings::DirPurpose::Workspace: return WorkspaceDir;
    case Settings::DirPurpose::Import: return ImportDir;
    case Settings::DirPurpose::Export: return ExportDir;
    case Settings::DirPurpose::Hostfile: return HostfileDir;
    }
    return ImportDir;
}
} // namespace key

QString normalised(const QString& path)
{
    const QFileInfo info(path);
    return QDir::cleanPath(info.absoluteFilePath());
}
} // namespace

Settings::Settings(QObject* parent) : QObject(parent), m_settings(std::make_unique<QSettings>()) {}

Settings::Settings(const QString& iniFile, QObject* parent)
    : QObject(parent), m_settings(std::make_unique<QSettings>(iniFile, QSettings::IniFormat))
{
}

Settings::~Settings() = default;

bool Settings::store(const QString& k, const QVariant& value)
{
    if (m_settings->contains(k) && m_settings->value(k) == value)
        return false;
    m_settings->setValue(k, value);
    return true;
}

QByteArray Settings::windowGeometry() const { return m_settings->value(key::Geometry).toByteArray(); }
void Settings::setWindowGeometry(const QByteArray& geometry) { store(key::Geometry, geometry); }

QByteArray Settings::windowState() const
{
    if (m_settings->value(key::StateVersion, -1).toInt() != kWindowStateVersion)
        return {};
    return m_settings->value(key::State).toByteArray();
}
void Settings::setWindowState(const QByteArray& state)
{
    store(key::State, state);
    store(key::StateVersion, kWindowStateVersion);
}

QByteArray Settings::splitterState() const { return m_settings->value(key::Splitter).toByteArray(); }
void Settings::setSplitterState(const QByteArray& state) { store(key::Splitter, state); }

QStringList Settings::recentWorkspaces() const { return m_settings->value(key::Recent).toStringList(); }

void Settings::addRecentWorkspace(const QString& path)
{
    if (path.isEmpty())
        return;
    const QString p = normalised(path);
    QStringList recent = recentWorkspaces();
    recent.removeAll(p);
    recent.prepend(p);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    if (store(key::Recent, recent))
        emit recentWorkspacesChanged(recent);
}

void Settings::clearRecentWorkspaces()
{
    if (recentWorkspaces().isEmpty())
        return;
    m_settings->remove(key::Recent);
    emit recentWorkspacesChanged({});
}

QString Settings::lastWorkspace() const { return m_settings->value(key::LastWorkspace).toString(); }
void Settings::setLastWorkspace(const QString& path)
{
    if (store(key::LastWorkspace, path))
        emit lastWorkspaceChanged(path);
}

std::optional<std::vector<std::int64_t>> Settings::lastSelection(const QString& workspace) const
{
    const QJsonValue ids = jsonValue(key::LastSelection).value(normalised(workspace));
    if (!ids.isArray())
        return std::nullopt;
    std::vector<std::int64_t> out;
    for (const auto& id : ids.toArray())
        if (id.toInteger() > 0)
            out.push_back(id.toInteger());
    return out;
}

void Settings::setLastSelection(const QString& workspace, const std::vector<std::int64_t>& ids)
{
    if (workspace.isEmpty())
        return;
    QJsonObject all = jsonValue(key::LastSelection);
    QJsonArray list;
    for (const auto id : ids)
        list.append(qint64(id));
    all.insert(normalised(workspace), list);
    // One selection per workspace still in the recent list: the setting does not grow forever.
    const QStringList recent = recentWorkspaces();
    for (const QString& path : all.keys())
        if (path != normalised(workspace) && !recent.contains(path))
            all.remove(path);
    storeJson(key::LastSelection, all);
}

QString Settings::lastImportDir() const { return m_settings->value(key::ImportDir, QDir::homePath()).toString(); }
void Settings::setLastImportDir(const QString& dir) { store(key::ImportDir, dir); }

QString Settings::lastDir(DirPurpose purpose) const { return m_settings->value(key::dirKey(purpose)).toString(); }
void Settings::setLastDir(DirPurpose purpose, const QString& dir)
{
    if (!dir.isEmpty())
        store(key::dirKey(purpose), normalised(dir));
}

// Stored as compact JSON text: readable in the INI file and one value per dialog, so a field added
// later does not need a key of its own.
QJsonObject Settings::jsonValue(const QString& k) const
{
    return QJsonDocument::fromJson(m_settings->value(k).toString().toUtf8()).object();
}

bool Settings::storeJson(const QString& k, const QJsonObject& value)
{
    return store(k, QString::fromUtf8(QJsonDocument(value).toJson(QJsonDocument::Compact)));
}

QJsonObject Settings::collectiveBenchmark() const { return jsonValue(key::CollectiveBenchmark); }
void Settings::setCollectiveBenchmark(const QJsonObject& config)
{
    storeJson(key::CollectiveBenchmark, config);
}

QJsonObject Settings::kernelBenchmark() const { return jsonValue(key::KernelBenchmark); }
void Settings::setKernelBenchmark(const QJsonObject& config)
{
    storeJson(key::KernelBenchmark, config);
}

QJsonObject Settings::reportOptions() const { return jsonValue(key::ReportOptions); }
void Settings::setReportOptions(const QJsonObject& options) { storeJson(key::ReportOptions, options); }

QJsonObject Settings::gpuToolBenchmark() const { return jsonValue(key::GpuToolBenchmark); }
void Settings::setGpuToolBenchmark(const QJsonObject& config)
{
    storeJson(key::GpuToolBenchmark, config);
}

QJsonObject Settings::probeRun() const { return jsonValue(key::ProbeRun); }
void Settings::setProbeRun(const QJsonObject& request) { storeJson(key::ProbeRun, request); }

QSize Settings::exportSize() const
{
    const QSize s = m_settings->value(key::ExportSize, kDefaultExportSize).toSize();
    return s.isValid() && !s.isEmpty() ? s : kDefaultExportSize;
}
void Settings::setExportSize(const QSize& size)
{
    if (size.isValid() && store(key::ExportSize, size))
        emit exportSizeChanged(size);
}

// Stored by name ("GiB/s", "dark"), so the INI file reads as what was chosen.
units::BandwidthUnit Settings::bandwidthUnit() const
{
    return m_settings->value(key::BandwidthUnit).toString() == QLatin1String("GiB/s") ? units::BandwidthUnit::GiBps
                                                                                      : units::BandwidthUnit::GBps;
}
void Settings::setBandwidthUnit(units::BandwidthUnit unit)
{
    if (store(key::BandwidthUnit, QString::fromLatin1(units::bandwidthUnitName(unit))))
        emit bandwidthUnitChanged(unit);
}

namespace {
const char* themeName(Settings::Theme theme)
{
    switch (theme) {
    case Settings::Theme::Light: return "light";
    case Settings::Theme::Dark: return "dark";
    case Settings::Theme::System: break;
    }
    return "system";
}
} // namespace

Settings::Theme Settings::theme() const
{
    const QString name = m_settings->value(key::Theme).toString();
    for (auto t : {Theme::Light, Theme::Dark})
        if (name == QLatin1String(themeName(t)))
            return t;
    return Theme::System;
}
void Settings::setTheme(Theme theme)
{
    if (store(key::Theme, QString::fromLatin1(themeName(theme))))
        emit themeChanged(theme);
}

QJsonObject Settings::defaultLaunch() const { return jsonValue(key::DefaultLaunch); }
void Settings::setDefaultLaunch(const QJsonObject& launch)
{
    storeJson(key::DefaultLaunch, launch);
}

void Settings::sync() { m_settings->sync(); }
} // namespace rl
