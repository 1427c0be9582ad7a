#pragma once
// A log2 axis with exact human labels: series plot log2(value) and this QCategoryAxis puts labels
// ("1 KiB", "16 GiB", "64 ranks") on powers of two. QLogValueAxis would print "1024", not "1 KiB".
#include <functional>

#include <QString>

QT_BEGIN_NAMESPACE
class QCategoryAxis;
QT_END_NAMESPACE

namespace rl::charts {

using Log2Label = std::function<QString(double value)>;

QString bytesLabel(double bytes); // "8 B", "1 KiB", "16 GiB"
QString countLabel(double value); // "1", "8", "1024"

// Powers of two between 2^floor(minLog2) and 2^ceil(maxLog2), every step-th power (step aligned
// so that 2^10, 2^20 ... come first), at most maxLabels labels.
QCategoryAxis* makeLog2Axis(double minLog2, double maxLog2, int maxLabels, const Log2Label& label);
// Re-labels an existing axis for a new range (live appends that grow the size range).
void relabelLog2Axis(QCategoryAxis* axis, double minLog2, double maxLog2, int maxLabels, const Log2Label& label);
} // namespace rl::charts
