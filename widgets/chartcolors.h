#pragma once
// Colours shared by several charts, so a class of work looks the same wherever it is drawn.
#include <QColor>

#include "views/tracechartdata.h"

namespace rl::charts {
// The colour of a step segment in every trace chart: the step-breakdown bars and the timeline's
// lanes (a kernel class through segmentOfClass).
QColor segmentColor(StepSegment s);
} // namespace rl::charts
