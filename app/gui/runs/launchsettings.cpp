#include "gui/runs/launchsettings.h"
#include "gui/runs/formfields.h"
#include "gui/runs/jsonreaders.h"

namespace rl {

runs::Launch LaunchSettings::toLaunch() const
{
    runs::Launch l;
    l.mode = mode;
    l.np = mode == Mode::Local ? 1 : np;
    l.hostfile = hostfile.trimmed().toStdString();
    if (!mpirun.trimmed().isEmpty())
        l.mpirun = mpirun.trimmed().toStdString();
    for (const auto& a : form::words(mpirunOptions))
        l.mpirunArgs.push_back(a.toStdString());
    l.templ = launchTemplate.trimmed().toStdString();
    l.nodes = nodes;
    l.ppn = ppn;
    l.sbatch.use = sbatch;
    if (sbatch) {
        for (const auto& o : sbatchOptionList())
            l.sbatch.options.push_back(o.toStdString());
        l.sbatch.dir = sbatchDir.trimmed().toStdString();
    }
    return l;
}

LaunchSettings LaunchSettings::fromLaunch(const runs::Launch& launch, LaunchSettings l)
{
    const auto joined = [](const std::vector<std::string>& items, QChar separator) {
        QStringList out;
        for (const auto& i : items)
            out << QString::fromStdString(i);
        return out.join(separator);
    };
    l.mode = launch.mode;
    l.np = launch.np;
    l.hostfile = QString::fromStdString(launch.hostfile);
    l.mpirun = launch.mpirun == runs::Launch{}.mpirun ? QString() : QString::fromStdString(launch.mpirun);
    l.mpirunOptions = joined(launch.mpirunArgs, u' ');
    if (!launch.templ.empty())
        l.launchTemplate = QString::fromStdString(launch.templ);
    l.nodes = launch.nodes;
    l.ppn = launch.ppn;
    l.sbatch = launch.sbatch.use;
    l.sbatchOptions = joined(launch.sbatch.options, u'\n');
    l.sbatchDir = QString::fromStdString(launch.sbatch.dir);
    return l;
}

QString LaunchSettings::validate() const { return sentence(toLaunch().validate()); }

QString sentence(const std::string& problem)
{
    QString s = QString::fromStdString(problem);
    if (s.isEmpty())
        return s;
    s[0] = s[0].toUpper();
    if (!s.endsWith(u'.'))
        s += u'.';
    return s;
}

QStringList LaunchSettings::sbatchOptionList() const
{
    QStringList out;
    for (const auto& line : sbatchOptions.split(u'\n'))
        if (const QString t = line.trimmed(); !t.isEmpty())
            out << t;
    return out;
}

QJsonObject LaunchSettings::toJson() const
{
    return QJsonObject{{QStringLiteral("launcher"), QLatin1String(runs::modeName(mode))},
                       {QStringLiteral("np"), np},
                       {QStringLiteral("hostfile"), hostfile},
                       {QStringLiteral("mpirun"), mpirun},
                       {QStringLiteral("mpirunOptions"), mpirunOptions},
                       {QStringLiteral("launchTemplate"), launchTemplate},
                       {QStringLiteral("nodes"), nodes},
                       {QStringLiteral("ppn"), ppn},
                       {QStringLiteral("sbatch"), sbatch},
                       {QStringLiteral("sbatchOptions"), sbatchOptions},
                       {QStringLiteral("sbatchDir"), sbatchDir}};
}

LaunchSettings LaunchSettings::fromJson(const QJsonObject& json, LaunchSettings l)
{
    using jsonread::read;
    for (auto m : {Mode::Local, Mode::LocalMpirun, Mode::Hostfile, Mode::Template})
        if (json.value(QStringLiteral("launcher")).toString() == QLatin1String(runs::modeName(m)))
            l.mode = m;
    read(json, "np", l.np);
    read(json, "hostfile", l.hostfile);
    read(json, "mpirun", l.mpirun);
    read(json, "mpirunOptions", l.mpirunOptions);
    read(json, "launchTemplate", l.launchTemplate);
    read(json, "nodes", l.nodes);
    read(json, "ppn", l.ppn);
    read(json, "sbatch", l.sbatch);
    read(json, "sbatchOptions", l.sbatchOptions);
    read(json, "sbatchDir", l.sbatchDir);
    return l;
}

LaunchSettings LaunchSettings::fromJson(const QJsonObject& json) { return fromJson(json, LaunchSettings()); }

} // namespace rl
