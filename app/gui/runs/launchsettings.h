#pragma once
// How a benchmark's processes are started, as the launcher form holds it (options as typed text):
// one process here, local mpirun -np, mpirun with a hostfile, or a launcher template (srun ...);
// optionally inside a Slurm batch job. What it means is a runs::Launch (analysis/runs/launch.h).
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include "runs/launch.h"

namespace rl {

// The launcher form's fields as typed (options as text); toLaunch() is the runs::Launch they mean,
// which validates them and turns them into the CLI's arguments (analysis/runs/runrequest.h).
struct LaunchSettings
{
    using Mode = runs::Launch::Mode;
    Mode mode = Mode::LocalMpirun;
    int np = 2;
    QString hostfile;
    QString mpirun;        // the mpirun program (a path picks one MPI of several); empty: mpirun on PATH
    QString mpirunOptions; // whitespace separated, e.g. --oversubscribe
    QString launchTemplate = QStringLiteral("srun -N {nodes} --ntasks-per-node {ppn} {bench}");
    int nodes = 1;
    int ppn = 2;
    bool sbatch = false;
    QString sbatchOptions; // one #SBATCH option per line, e.g. --partition=gpu
    QString sbatchDir;

    runs::Launch toLaunch() const;
    // The form for a launch (its inverse); what the launch leaves empty (no template) keeps base's.
    static LaunchSettings fromLaunch(const runs::Launch& launch, LaunchSettings base);
    // Empty when valid, else what is wrong (runs::Launch::validate, as a sentence).
    QString validate() const;
    QStringList sbatchOptionList() const; // the non-empty lines, trimmed

    // The fields as the dialogs remember them (one key each); fromJson keeps `base`'s value for a
    // key missing or of the wrong type.
    QJsonObject toJson() const;
    static LaunchSettings fromJson(const QJsonObject& json, LaunchSettings base);
    static LaunchSettings fromJson(const QJsonObject& json); // over the defaults
};
// "Choose a hostfile (--hostfile)." from the request's "choose a hostfile (--hostfile)".
QString sentence(const std::string& problem);

} // namespace rl
