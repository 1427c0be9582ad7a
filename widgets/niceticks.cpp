#include "niceticks.h"

#include <QStringBuilder>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace rl::charts {
double niceStep(double raw, double minimum)
{
    if (!(raw > 0) || !std::isfinite(raw))
        return std::max(1.0, minimum);
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    const double m = raw / p;
    const double step = (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
    return std::max(step, minimum);
}

void setNiceRange(QValueAxis* axis, double min, double max)
{
    if (!(max > min))
        max = min + 1;
    const double step = niceStep((max - min) / 6.0);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    axis->setRange(std::floor(min / step) * step, std::ceil(max / step) * step);
    const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step)));
    axis->setLabelFormat(QStringLiteral("%.") % QString::number(decimals) % QStringLiteral("f"));
}

void keepRoundTicks(QValueAxis* axis, int ticks, double minimum)
{
    const auto apply = [axis, ticks, minimum](qreal lo, qreal hi) {
        axis->setTickInterval(niceStep((hi - lo) / std::max(1, ticks - 1), minimum));
    };
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setLabelFormat(QStringLiteral("%.6g"));
    apply(axis->min(), axis->max());
    QObject::connect(axis, &QValueAxis::rangeChanged, axis, apply); // zooming keeps round ticks
}
QString logTickFormat(double lo, double hi)
{
    // "%g" alone prints 1e+06 next to 100000. Plain integers when every decade is at least 1; "%g"
    // while every decade is inside its plain range; else as many fixed decimals as the lowest needs.
    if (lo >= 1)
        return QStringLiteral("%.0f");
    if (lo >= 1e-4 && hi < 1e6)
        return QStringLiteral("%g");
    return QStringLiteral("%.") % QString::number(std::max(1, int(std::ceil(-std::log10(lo) - 1e-9))))
        % QStringLiteral("f");
}
} // namespace rl::charts
