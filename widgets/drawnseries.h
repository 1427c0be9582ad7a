#pragma once
// What a chart's populate() drew that is needed again after it returns: the series the widget
// answers hovers on, the labels a layout pass places once the plot has its size. populate() keeps
// them in one typed record per chart (freshDrawn<T>) and the widget, the layout pass or a test reads
// it back (drawnOn<T>), instead of tagging each series with string properties and searching the
// chart's series for the tag. Export charts get their own record, so a layout pass works on both.
#include <QObject>

namespace rl::charts {
namespace detail {
template <class T>
class DrawnRecord final : public QObject
{
public:
    explicit DrawnRecord(QObject* chart)
        : QObject(chart)
    {
    }
    T value;
};

template <class T>
DrawnRecord<T>* findDrawn(const QObject* chart)
{
    for (auto* child : chart->children())
        if (auto* record = dynamic_cast<DrawnRecord<T>*>(child))
            return record;
    return nullptr;
}
} // namespace detail

// An empty record of type T on chart, replacing the one an earlier fill left (its series are gone).
template <class T>
T& freshDrawn(QObject* chart)
{
    delete detail::findDrawn<T>(chart);
    return (new detail::DrawnRecord<T>(chart))->value;
}

// The record of type T the last fill left on chart; null when the chart was never filled with one.
template <class T>
const T* drawnOn(const QObject* chart)
{
    const auto* record = detail::findDrawn<T>(chart);
    return record ? &record->value : nullptr;
}
} // namespace rl::charts
