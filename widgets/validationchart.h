#pragma once
// The sizing model against published measured runs (model::runValidation): one point per predicted
// row, measured step time on x, predicted on y, one series per device, with the y = x line and the
// ±10 % and ±25 % bands around it. Both axes in seconds, logarithmic when the times span a decade
// or more. Hover names the run; Export writes the chart, or every row as CSV.
#include <QScatterSeries>
#include <QSize>

#include "chartframe.h"
#include "drawnseries.h"
#include "model/validation.h"
#include "views/validationchartdata.h"

namespace rl::charts {

// What populate() drew that the widget answers hovers on (drawnseries.h).
struct ValidationDrawn
{
    std::vector<QScatterSeries*> runs; // one per device: the published runs drawn
};

class ValidationChart : public ChartFrame
{
    Q_OBJECT
public:
    explicit ValidationChart(QWidget* parent = nullptr);

    void setSummary(model::ValidationSummary summary, const QString& tablePath = {});
    const model::ValidationSummary& summary() const { return m_summary; }
    // Points drawn (rows not refused).
    int pointCount() const;
    bool logAxes() const { return m_log; }

    // Fills a chart with the rows; returns the description for export metadata. `log` (optional)
    // says whether the axes came out logarithmic.
    static QString populate(QChart* chart, const model::ValidationSummary& summary, bool* log = nullptr);

protected:
    QString populateExport(QChart* chart) const override { return populate(chart, m_summary); }
    // Every row, refused ones with their reason, and the model's stated band.
    std::string exportCsv() const override { return views::validationCsv(m_summary); }
    QString exportName() const override { return QStringLiteral("validation"); }
    std::vector<std::int64_t> exportSessionIds() const override { return {}; }

private:
    void rebuild() override;

    model::ValidationSummary m_summary;
    QString m_tablePath;
    bool m_log = false;
};
} // namespace rl::charts
