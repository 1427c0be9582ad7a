#include "log2axis.h"

#include <algorithm>
#include <cmath>

#include <QCategoryAxis>

#include "units/units.h"

namespace rl::charts {

QString bytesLabel(double bytes)
{
    return QString::fromStdString(units::formatBytes(bytes));
}

QString countLabel(double value)
{
    return QString::number(std::llround(value));
}

void relabelLog2Axis(QCategoryAxis* axis, double minLog2, double maxLog2, int maxLabels, const Log2Label& label)
{
    const int lo = static_cast<int>(std::floor(minLog2));
    int hi = static_cast<int>(std::ceil(maxLog2));
    if (hi <= lo)
        hi = lo + 1;
    maxLabels = std::max(maxLabels, 2);
    int step = 1;
    for (int s : {1, 2, 5, 10, 20}) {
        step = s;
        const int first = static_cast<int>(std::ceil(lo / double(s))) * s;
        const int count = first > hi ? 0 : (hi - first) / s + 1;
        if (count <= maxLabels)
            break;
    }
    for (const QString& l : axis->categoriesLabels())
        axis->remove(l);
    // A quarter power of padding keeps the end markers inside the plot area.
    const double min = lo - 0.25, max = hi + 0.25;
    axis->setStartValue(min);
    for (int e = static_cast<int>(std::ceil(lo / double(step))) * step; e <= hi; e += step)
        axis->append(label(std::ldexp(1.0, e)), e);
    axis->setRange(min, max);
}

QCategoryAxis* makeLog2Axis(double minLog2, double maxLog2, int maxLabels, const Log2Label& label)
{
    auto* axis = new QCategoryAxis;
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    relabelLog2Axis(axis, minLog2, maxLog2, maxLabels, label);
    return axis;
}
} // namespace rl::charts
