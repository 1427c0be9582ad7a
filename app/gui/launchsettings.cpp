#include "launchsettings.h"
#include "jsonreaders.h"

#include <QRegularExpression>

namespace rl {

runs::Launch LaunchSettings::toLaunch() const
{
    runs::Launch l;
    l.mode = mode;
    l.np = mode == Mode::Local ? 1 : np;
    l.hostfile = hostfile.trimmed().toStdString();
    if (!mpirun.trimmed().isEmpty())
        l.mpirun = mpirun.trimmed().toStdString();
    for (const auto& a : mpirunOptions.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts))
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
