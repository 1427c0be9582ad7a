#pragma once
// Every file dialog of the GUI goes through these helpers, so each one starts in the folder last
// used for its purpose (Settings::DirPurpose) and remembers the folder the user picked; export
// dialogs also propose a file name. A null Settings gives the old behaviour (home, nothing saved).
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

#include "settings.h"

class QWidget;

namespace rl::filedialogs {

using Purpose = Settings::DirPurpose;

// Where a dialog of this purpose opens: the remembered folder if it still exists, else
// `fallback` (when non-empty), else home; joined with `fileName` when one is proposed.
QString startPath(const Settings* settings, Purpose purpose, const QString& fileName = {},
                  const QString& fallback = {});
// Remembers the folder of `chosen` (a file or a folder) for the purpose; empty is ignored.
void remember(Settings* settings, Purpose purpose, const QString& chosen);

QString openFile(QWidget* parent, Settings* settings, Purpose purpose, const QString& caption,
                 const QString& filter = {}, const QString& fallback = {});
QStringList openFiles(QWidget* parent, Settings* settings, Purpose purpose, const QString& caption,
                      const QString& filter = {});
QString saveFile(QWidget* parent, Settings* settings, Purpose purpose, const QString& caption,
                 const QString& fileName, const QString& filter, QString* selectedFilter = nullptr,
                 const QString& fallback = {});

// A name for an exported chart or table: what it shows and which sessions, e.g.
// ("bandwidth", {3, 4}, "png") -> "bandwidth-s3-s4.png". Long selections are shortened so the
// name stays readable: "bandwidth-s3-s4-s5-and-9-more.png".
QString exportFileName(const QString& what, const std::vector<std::int64_t>& sessionIds, const QString& suffix);
} // namespace rl::filedialogs
