#pragma once
// The frame every chart widget is drawn in, so a chart is only "how to fill a QChart from my data":
// the chart view (antialiased, rubber-band zoom, right-click zooms out), the hover callout, a
// toolbar (the chart's own controls on the left; Reset zoom and Export on the right), an empty
// state shown instead of the plot, and export: one save dialog (starts in the last export
// folder, proposes a name, format from the chosen filter with its suffix added when the name has
// no known one; for "Export data" always CSV, views::withExportSuffix), one format dispatch
// (exportChartFile: CSV rows or PNG/SVG/PDF through the same populate the view uses), the size
// from Settings, one error box. The chart on screen follows the application's palette (a dark
// window, a dark plot); exports keep the light look of a document.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <QChartView> // complete: every chart sets up view()
#include <QSize>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QChart;
class QHBoxLayout;
class QXYSeries;
class QLabel;
class QPushButton;
QT_END_NAMESPACE

namespace rl {
class Settings;
}

namespace rl::charts {

class Callout;

// What hovering a point shows: the callout's text and the plotted point it points at.
struct HoverHit
{
    QString text;
    QPointF at;
};
// The hit for the pointer's plotted position on one series; nullopt: nothing there to name.
using HoverLookup = std::function<std::optional<HoverHit>(QPointF pointer)>;

class ChartFrame : public QWidget
{
    Q_OBJECT
public:
    explicit ChartFrame(QWidget* parent = nullptr);
    ~ChartFrame() override;

    QChart* chart() const { return m_chart; } // for tests; other modules use the API of the chart
    QChartView* view() const { return m_view; }
    QString title() const;     // as drawn
    QString hoverText() const; // the callout's text while it is shown, else empty
    void resetZoom();

    // Where exports go and how big they are: Settings::exportSize() and the last export folder.
    void setSettings(Settings* settings) { m_settings = settings; }
    // A fixed export size instead of the settings' (headless use and tests).
    void setExportSize(QSize size) { m_exportSize = size; }
    QSize exportSize() const;
    // What the chart shows as PNG/SVG/PDF at exportSize(), or its data as CSV, by suffix.
    bool exportTo(const QString& path, QString* error) const;
    // The Export button: the save dialog, then exportTo(); failures in a message box.
    void exportWithDialog();
    // "Export data": the save dialog for CSV only, proposing fileName (empty: named after the
    // chart); whatever suffix the name has, the file written is CSV ("x.png" becomes "x.csv").
    // Returns the path written; empty when cancelled or failed (the failure in a message box).
    QString exportDataWithDialog(const QString& fileName = {});

Q_SIGNALS:
    void chartExported(const QString& path);

protected:
    // Fills a fresh chart exactly as this widget shows its data; returns the analysis parameters
    // for the file's metadata. Used by export; the widget fills its own chart() as it likes.
    virtual QString populateExport(QChart* chart) const = 0;
    // The rows behind the chart for "Export as CSV".
    virtual std::string exportCsv() const = 0;
    // Names the proposed file as `ridgeline-cli export --chart` names this view ("roofline").
    virtual QString exportName() const = 0;
    virtual std::vector<std::int64_t> exportSessionIds() const = 0;
    // Why what is shown cannot be exported (e.g. a compare view of three sessions); empty: it can.
    // data: the export is the chart's data (CSV), else its image.
    virtual QString exportProblem(bool /*data*/) const { return {}; }

    // The chart's own controls, left to right before Reset zoom and Export. A widget added with
    // a stretch (a readout) takes the toolbar's free width instead of the gap before the buttons.
    void addToolbarWidget(QWidget* widget, int stretch = 0);
    void addToolbarSpacing(int pixels);
    Callout* callout() const { return m_callout; }
    // Hovering series on the live chart shows lookup's callout; leaving it, or a pointer over
    // nothing lookup names, hides it. The connection ends with the series (the next rebuild).
    void answerHover(QXYSeries* series, HoverLookup lookup);
    // Shows text in place of the plot (why there is nothing to draw); empty shows the plot.
    void setEmptyText(const QString& text);
    // Rubber-band zoom and the Reset zoom button; off for category axes (bars would be cut).
    void setZoomable(bool zoomable);
    // Fills chart() from the widget's data again; the frame asks for it when the look changes.
    virtual void rebuild() = 0;
    void changeEvent(QEvent* event) override;

private:
    bool exportReportingFailure(const QString& path);
    bool followPalette(); // true when the chart's theme changed

    QChart* m_chart;
    QChartView* m_view;
    Callout* m_callout;
    QHBoxLayout* m_bar;      // m_controls, a stretch, Reset zoom, Export
    QHBoxLayout* m_controls;
    QLabel* m_empty;
    QPushButton* m_resetZoom;
    QPushButton* m_export;
    Settings* m_settings = nullptr;
    std::optional<QSize> m_exportSize;
};
} // namespace rl::charts
