#include "importers/collectivecsv.h"

#include <algorithm>
#include <array>
#include <charconv>

#include "importers/collectiveimport.h"
#include "importers/figurecheck.h"
#include "importers/formats.h"
#include "io/csv.h"
#include "units/units.h"

namespace rl {
namespace {
const std::vector<std::string> kColumns{"op",   "nranks",  "dtype",     "redop",     "bytes",     "count",
                                        "in_place", "root", "time_us", "algbw_gbs", "busbw_gbs", "wrong"};
constexpr const char* kGroupColumn = "group"; // optional, last

int sniff(std::string_view head, std::string_view)
{
    return head.starts_with("op,nranks,dtype,redop,bytes,count,in_place,root,time_us,algbw_gbs,busbw_gbs") ? 98 : 0;
}

ImportResult parse(ImportInput& input, const ImportOptions& options)
{
    ImportResult result;
    ProgressTicker ticker(input, options);
    io::CsvReader reader(input.stream);
    io::CsvRow row;
    auto fail = [&](const SourceLocation& where, std::string message) {
        ImportResult r;
        r.ok = false;
        r.errorAt = where;
        r.error = std::move(message);
        return r;
    };
    SessionData data;
    try {
        if (!reader.next(row))
            return fail({}, "no header row");
        if (row.fields.size() < kColumns.size() ||
            !std::equal(kColumns.begin(), kColumns.end(), row.fields.begin()))
            return fail(row.where, "header is not Ridgeline's collective CSV header");
        const bool hasGroup = row.fields.size() > kColumns.size() && row.fields[kColumns.size()] == kGroupColumn;
        while (reader.next(row)) {
            if (!ticker.tick()) {
                result.cancelled = true;
                return result;
            }
            const auto& f = row.fields;
            if (f.size() < kColumns.size()) {
                result.warnings.push_back({row.where, "row has " + std::to_string(f.size()) + " of " +
                                                          std::to_string(kColumns.size()) + " fields (truncated?); skipped"});
                continue;
            }
            CollectivePoint p;
            p.op = f[0];
            p.dtype = f[2];
            p.redop = f[3];
            const auto nranks = units::parseInt(f[1]);
            const auto bytes = units::parseInt(f[4]);
            const auto count = units::parseInt(f[5]);
            const auto root = units::parseInt(f[7]);
            const auto time = units::parseDouble(f[8]);
            const auto alg = units::parseDouble(f[9]);
            const auto bus = units::parseDouble(f[10]);
            const auto wrong = units::parseInt(f[11]);
            if (!collectiveOpFromString(p.op) || !nranks || !bytes || !count || !root || !time || !alg || !bus ||
                !wrong || (f[6] != "0" && f[6] != "1")) {
                result.warnings.push_back({row.where, "row has a field that is not a valid value; skipped"});
                continue;
            }
            p.nranks = static_cast<int>(*nranks);
            p.bytes = *bytes;
            p.count = *count;
            p.inPlace = f[6] == "1";
            p.root = static_cast<int>(*root);
            p.timeUs = *time;
            p.algbwGBs = *alg;
            p.busbwGBs = *bus;
            p.wrong = *wrong;
            if (hasGroup && f.size() > kColumns.size())
                p.group = f[kColumns.size()];
            if (figuresInRange(p, row.where, result.warnings))
                data.collectives.push_back(std::move(p));
        }
    } catch (const std::exception& e) {
        // Malformed quoting: nothing from this file is stored.
        return fail({}, e.what());
    }
    if (data.collectives.empty())
        return result;
    Session& s = data.session;
    s.kind = kind::Collectives;
    s.tool = "ridgeline-csv";
    s.created = nowIso8601();
    s.title = importers::baseName(input.path);
    s.params["nranks"] = data.collectives.front().nranks;
    s.params["convention"] = "nccl-tests PERFORMANCE.md (Ridgeline CSV export)";
    result.sessions.push_back(std::move(data));
    return result;
}
} // namespace

void writeCollectiveCsv(std::ostream& out, const std::vector<CollectivePoint>& points)
{
    const bool groups = std::any_of(points.begin(), points.end(), [](const CollectivePoint& p) { return !p.group.empty(); });
    CollectiveCsvWriter w(out, groups);
    for (const auto& p : points)
        w.write(p);
    w.finish();
}

namespace {
void field(io::TextBuffer& out, const std::string& text)
{
    // Quoting is rare (names are plain words): only then the general rule, io::csvField.
    if (text.find_first_of(",\"\n\r") == std::string::npos && (text.empty() || (text.front() != ' ' && text.back() != ' ')))
        out.text(text);
    else
        out.text(io::csvField(text));
}
} // namespace

void writeCollectiveCsvHeader(io::TextBuffer& out, bool groups)
{
    std::vector<std::string> header = kColumns;
    if (groups)
        header.push_back(kGroupColumn);
    for (std::size_t i = 0; i < header.size(); ++i)
        out.text(i ? "," : "").text(header[i]);
    out.ch('\n');
}

void writeCollectiveCsvRow(io::TextBuffer& out, const CollectivePoint& p, bool groups)
{
    field(out, p.op);
    out.ch(',').integer(p.nranks).ch(',');
    field(out, p.dtype);
    out.ch(',');
    field(out, p.redop);
    out.ch(',').integer(p.bytes).ch(',').integer(p.count).ch(',').ch(p.inPlace ? '1' : '0').ch(',');
    out.integer(p.root).ch(',').real(p.timeUs).ch(',').real(p.algbwGBs).ch(',').real(p.busbwGBs).ch(',');
    out.integer(p.wrong);
    if (groups) {
        out.ch(',');
        field(out, p.group);
    }
    out.ch('\n');
    out.endRow();
}

CollectiveCsvWriter::CollectiveCsvWriter(std::ostream& out, bool groups) : m_buf(out), m_groups(groups)
{
    writeCollectiveCsvHeader(m_buf, groups);
}

void CollectiveCsvWriter::write(const CollectivePoint& p) { writeCollectiveCsvRow(m_buf, p, m_groups); }

void CollectiveCsvWriter::finish() { m_buf.flush(); }

ImporterInfo collectiveCsvImporter()
{
    return {"ridgeline-csv", "Ridgeline collective CSV", sniff, parse};
}
} // namespace rl
