#pragma once
// The heading and summary of a view that shows sessions from their params (steps, copy matrices):
// plain text (titles are the user's or a file's), wrapped, the summary selectable.
#include <QString>

class QLabel;

namespace rl {
QLabel* viewTitleLabel(const QString& objectName);   // bold, 1.2x the font
QLabel* viewSummaryLabel(const QString& objectName);
} // namespace rl
