#include "trace/kinetoreader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <regex>
#include <unordered_map>

#include <simdjson.h>

#include "trace/bytewindow.h"

namespace rl::trace {
namespace {

bool isWs(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

std::string_view trimToken(std::string_view t)
{
    while (!t.empty() && isWs(t.back()))
        t.remove_suffix(1);
    if (t.size() >= 2 && t.front() == '"' && t.back() == '"')
        t = t.substr(1, t.size() - 2);
    return t;
}

bool parseInt(std::string_view t, std::int64_t& v)
{
    t = trimToken(t);
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    return r.ec == std::errc() && r.ptr == t.data() + t.size();
}

// "stream 7", "7", 7 -> 7; other text -> a stable small hash so distinct threads stay distinct.
std::int32_t parseId(std::string_view raw)
{
    std::string_view t = trimToken(raw);
    std::size_t i = t.size();
    while (i > 0 && t[i - 1] >= '0' && t[i - 1] <= '9')
        --i;
    std::int64_t v = 0;
    if (i < t.size() && std::from_chars(t.data() + i, t.data() + t.size(), v).ec == std::errc())
        return static_cast<std::int32_t>(v);
    return static_cast<std::int32_t>(std::hash<std::string_view>{}(t) & 0x7fffffff);
}

bool equalsLower(std::string_view s, std::string_view lower)
{
    if (s.size() != lower.size())
        return false;
    for (std::size_t i = 0; i < s.size(); ++i)
        if (static_cast<char>(std::tolower(static_cast<unsigned char>(s[i]))) != lower[i])
            return false;
    return true;
}

enum class Kind { Skip, Gpu, Cpu };

class Reader
{
public:
    Reader(std::istream& in, TraceData& out, const TickFn& tick, std::size_t chunk)
        : m_win(in, chunk), m_out(out), m_tick(tick)
    {
    }

    bool run()
    {
        skipWs();
        if (!more())
            throw TraceError(0, "empty input, not a trace");
        if (cur() == '[') { // the Chrome format also allows a bare event array
            ++m_pos;
            if (!readEvents())
                return false;
            m_sawEvents = true;
        } else if (cur() == '{') {
            ++m_pos;
            if (!readTopObject())
                return false;
        } else {
            throw TraceError(at(), "not JSON: a Chrome trace starts with '{' or '['");
        }
        skipWs();
        if (more())
            throw TraceError(at(), "unexpected data after the end of the trace");
        if (!m_sawEvents)
            throw TraceError(at(), "valid JSON but not a trace: no \"traceEvents\" array");
        if (m_out.eventCount == 0)
            throw TraceError(at(), "the trace has no events");
        m_out.bytesParsed = at();
        return true;
    }

private:
    std::int64_t at() const { return m_win.offsetOf(m_pos); }
    char cur() const { return m_win.data()[m_pos]; }
    bool more()
    {
        if (m_pos < m_win.size())
            return true;
        const bool got = m_win.refill(m_pos);
        m_pos = 0;
        return got && m_pos < m_win.size();
    }
    void skipWs()
    {
        while (more() && isWs(cur()))
            ++m_pos;
    }
    void expect(char c, const char* what)
    {
        skipWs();
        if (!more())
            throw TraceError(at(), std::string("unexpected end of input (truncated file?): expected ") + what);
        if (cur() != c)
            throw TraceError(at(), std::string("malformed JSON: expected ") + what);
        ++m_pos;
    }

    // Finds the end of the JSON value starting at m_pos, keeping it in the window; returns its
    // [begin, end) indices. Scalars end at a delimiter; containers at their matching bracket.
    std::pair<std::size_t, std::size_t> captureValue()
    {
        skipWs();
        if (!more())
            throw TraceError(at(), "unexpected end of input (truncated file?)");
        std::size_t begin = m_pos, i = m_pos;
        int depth = 0;
        bool inStr = false, esc = false, scalar = false;
        const std::int64_t startOffset = at();
        for (;;) {
            if (i >= m_win.size()) {
                const bool got = m_win.refill(begin);
                i -= begin;
                begin = 0;
                if (!got) {
                    if (scalar && depth == 0 && !inStr) {
                        m_pos = i;
                        return {begin, i};
                    }
                    throw TraceError(startOffset, "unexpected end of input inside a value (truncated file?)");
                }
                continue;
            }
            const char c = m_win.data()[i];
            if (inStr) {
                if (esc)
                    esc = false;
                else if (c == '\\')
                    esc = true;
                else if (c == '"') {
                    inStr = false;
                    if (depth == 0) {
                        m_pos = i + 1;
                        return {begin, i + 1};
                    }
                }
            } else if (c == '"') {
                inStr = true;
            } else if (c == '{' || c == '[') {
                ++depth;
            } else if (c == '}' || c == ']') {
                if (depth == 0) { // end of a scalar at the enclosing container
                    m_pos = i;
                    return {begin, i};
                }
                if (--depth == 0) {
                    m_pos = i + 1;
                    return {begin, i + 1};
                }
            } else if (depth == 0 && (c == ',' || isWs(c))) {
                m_pos = i;
                return {begin, i};
            } else if (depth == 0) {
                scalar = true;
            }
            ++i;
        }
    }

    bool readTopObject()
    {
        skipWs();
        if (more() && cur() == '}') {
            ++m_pos;
            return true;
        }
        for (;;) {
            skipWs();
            const std::int64_t keyAt = at();
            auto [kb, ke] = captureValue();
            std::string_view keyTok(m_win.data() + kb, ke - kb);
            if (keyTok.size() < 2 || keyTok.front() != '"')
                throw TraceError(keyAt, "malformed JSON: expected a key string");
            const std::string key(keyTok.substr(1, keyTok.size() - 2));
            expect(':', "':'");
            if (key == "traceEvents") {
                skipWs();
                if (!more() || cur() != '[')
                    throw TraceError(at(), "\"traceEvents\" is not an array: not a Kineto/Chrome trace");
                ++m_pos;
                if (!readEvents())
                    return false;
                m_sawEvents = true;
            } else {
                const std::int64_t valueAt = at();
                auto [vb, ve] = captureValue();
                handleTopLevel(key, std::string_view(m_win.data() + vb, ve - vb), valueAt);
            }
            skipWs();
            if (!more())
                throw TraceError(at(), "unexpected end of input (truncated file?): expected ',' or '}'");
            if (cur() == ',') {
                ++m_pos;
                continue;
            }
            if (cur() == '}') {
                ++m_pos;
                return true;
            }
            throw TraceError(at(), "malformed JSON: expected ',' or '}'");
        }
    }

    void handleTopLevel(const std::string& key, std::string_view text, std::int64_t offset)
    {
        static const char* wanted[] = {"deviceProperties", "distributedInfo", "baseTimeNanoseconds", "schemaVersion"};
        if (std::none_of(std::begin(wanted), std::end(wanted), [&](const char* w) { return key == w; }))
            return;
        nlohmann::json v = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
        if (v.is_discarded())
            throw TraceError(offset, "malformed JSON in \"" + key + "\"");
        if (key == "deviceProperties" && v.is_array()) {
            m_out.deviceProperties = v;
            for (const auto& d : v)
                if (d.is_object() && (d.value("name", std::string()).find("AMD") != std::string::npos ||
                                      d.contains("gcnArchName")))
                    m_out.rocm = true;
        } else if (key == "distributedInfo" && v.is_object()) {
            m_out.distributedInfo = v;
            if (v.contains("rank") && v["rank"].is_number_integer())
                m_out.rank = v["rank"].get<int>(), m_rankKnown = true;
            if (v.contains("world_size") && v["world_size"].is_number_integer())
                m_out.worldSize = v["world_size"].get<int>();
            m_out.backend = v.value("backend", std::string());
            if (v.contains("nccl_version") && v["nccl_version"].is_string())
                m_out.ncclVersion = v["nccl_version"].get<std::string>();
        } else if (key == "baseTimeNanoseconds" && v.is_number_integer()) {
            m_out.baseTimeNs = v.get<std::int64_t>();
        }
    }

    // m_pos is just after '['. Scans complete event objects into batches and parses each batch.
    bool readEvents()
    {
        std::vector<std::size_t> starts;
        for (;;) {
            // Scan forward from m_pos for complete objects.
            starts.clear();
            std::size_t i = m_pos, objStart = 0, lastEnd = m_pos;
            int depth = 0;
            bool inStr = false, esc = false, closed = false;
            const char* d = m_win.data();
            const std::size_t n = m_win.size();
            for (; i < n; ++i) {
                const char c = d[i];
                if (depth > 0) {
                    if (inStr) {
                        if (esc)
                            esc = false;
                        else if (c == '\\')
                            esc = true;
                        else if (c == '"')
                            inStr = false;
                    } else if (c == '"') {
                        inStr = true;
                    } else if (c == '{' || c == '[') {
                        ++depth;
                    } else if (c == '}' || c == ']') {
                        if (--depth == 0) {
                            if (c != '}')
                                throw TraceError(m_win.offsetOf(i), "malformed JSON: mismatched ']' in an event");
                            starts.push_back(objStart);
                            lastEnd = i + 1;
                        }
                    }
                } else if (c == '{') {
                    objStart = i;
                    depth = 1;
                } else if (c == ']') {
                    closed = true;
                    break;
                } else if (!(c == ',' || isWs(c))) {
                    throw TraceError(m_win.offsetOf(i), "malformed trace: expected an event object in \"traceEvents\"");
                }
            }
            if (!starts.empty()) {
                if (!parseBatch(starts, lastEnd))
                    return false;
            }
            if (closed) {
                m_pos = i + 1;
                return true;
            }
            // Keep the incomplete tail (an event cut by the chunk boundary) and read more.
            const std::size_t keepFrom = depth > 0 ? objStart : lastEnd;
            const bool got = m_win.refill(keepFrom);
            m_pos = 0;
            if (!got) {
                const std::int64_t where = depth > 0 ? m_win.offsetOf(0) : m_win.offsetOf(m_win.size());
                throw TraceError(where, depth > 0 ? "unexpected end of input inside an event (truncated file?)"
                                                  : "unexpected end of input: \"traceEvents\" array not closed "
                                                    "(truncated file?)");
            }
        }
    }

    bool parseBatch(const std::vector<std::size_t>& starts, std::size_t end)
    {
        const std::size_t begin = starts.front();
        const std::size_t len = end - begin + 2;
        if (m_scratch.size() < len + simdjson::SIMDJSON_PADDING)
            m_scratch.resize(len + simdjson::SIMDJSON_PADDING);
        m_scratch[0] = '[';
        std::memcpy(m_scratch.data() + 1, m_win.data() + begin, end - begin);
        m_scratch[len - 1] = ']';
        std::size_t index = 0;
        try {
            simdjson::ondemand::document doc = m_parser.iterate(m_scratch.data(), len, m_scratch.size());
            for (auto element : doc.get_array()) {
                if (m_tick && !m_tick())
                    return false;
                simdjson::ondemand::object obj = element.get_object();
                handleEvent(obj);
                ++index;
            }
        } catch (const simdjson::simdjson_error& e) {
            const std::size_t at = starts[std::min(index, starts.size() - 1)];
            throw TraceError(m_win.offsetOf(at), std::string("malformed trace event: ") + e.what());
        } catch (const TraceError& e) {
            const std::size_t at = starts[std::min(index, starts.size() - 1)];
            throw TraceError(m_win.offsetOf(at), e.what());
        }
        return true;
    }

    void handleEvent(simdjson::ondemand::object& obj)
    {
        ++m_out.eventCount;
        Kind kind = Kind::Skip;
        EventCategory category = EventCategory::Kernel;
        bool isStep = false;
        bool haveTs = false;
        GpuEvent ev;
        std::int64_t stepNo = 0;
        for (auto field : obj) {
            const std::string_view key = field.unescaped_key();
            if (key == "ph") {
                const std::string_view ph = field.value().get_string();
                if (ph != "X") {
                    if (ph == "s" || ph == "f" || ph == "t")
                        ++m_out.flowEventCount;
                    return;
                }
            } else if (key == "cat") {
                const std::string_view cat = field.value().get_string();
                kind = classify(cat, category);
                if (kind == Kind::Skip)
                    return;
            } else if (key == "name") {
                const std::string_view name = field.value().get_string();
                if (kind == Kind::Cpu) {
                    if (name.starts_with("ProfilerStep#")) {
                        isStep = true;
                        std::from_chars(name.data() + 13, name.data() + name.size(), stepNo);
                    } else {
                        ++m_out.cpuEventCount;
                        return;
                    }
                } else {
                    ev.name = intern(name);
                }
            } else if (key == "ts") {
                if (!parseMicrosToNs(field.value().raw_json_token(), ev.startNs))
                    throw TraceError(0, "\"ts\" is not a number");
                haveTs = true;
            } else if (key == "dur") {
                if (!parseMicrosToNs(field.value().raw_json_token(), ev.durNs))
                    throw TraceError(0, "\"dur\" is not a number");
            } else if (key == "pid") {
                ev.device = parseId(field.value().raw_json_token());
            } else if (key == "tid") {
                ev.stream = parseId(field.value().raw_json_token());
            } else if (key == "args" && kind == Kind::Gpu && category == EventCategory::Kernel) {
                simdjson::ondemand::object args = field.value().get_object();
                readKernelArgs(args, ev);
            }
        }
        if (kind == Kind::Skip || !haveTs)
            return;
        if (isStep) {
            m_out.steps.push_back({stepNo, ev.startNs, ev.durNs});
            return;
        }
        if (kind == Kind::Gpu) {
            ev.category = category;
            if (ev.durNs < 0)
                ev.durNs = 0;
            if (category == EventCategory::GpuAnnotation)
                return; // not GPU work; the step window comes from the CPU annotation
            m_out.gpu.push_back(ev);
        }
    }

    void readKernelArgs(simdjson::ondemand::object& args, GpuEvent& ev)
    {
        CollectiveArgs c;
        bool collective = false;
        for (auto f : args) {
            const std::string_view k = f.unescaped_key();
            if (k == "stream") {
                ev.stream = parseId(f.value().raw_json_token());
            } else if (k == "Collective name") {
                c.name = intern(f.value().get_string());
                collective = true;
            } else if (k == "dtype") {
                c.dtype = intern(f.value().get_string());
            } else if (k == "In msg nelems") {
                parseInt(f.value().raw_json_token(), c.inNelems);
            } else if (k == "Out msg nelems") {
                parseInt(f.value().raw_json_token(), c.outNelems);
            } else if (k == "Group size") {
                std::int64_t g = 0;
                if (parseInt(f.value().raw_json_token(), g))
                    c.groupSize = static_cast<int>(g);
            } else if (k == "kernel_flop") {
                double v = 0;
                if (f.value().get_double().get(v) == simdjson::SUCCESS)
                    ev.flops = static_cast<float>(v);
            } else if (k == "kernel_num_gb") {
                double v = 0;
                if (f.value().get_double().get(v) == simdjson::SUCCESS)
                    ev.bytes = static_cast<float>(v * 1e9);
            }
        }
        if (collective) {
            ev.extra = static_cast<std::int32_t>(m_out.collectiveArgs.size());
            m_out.collectiveArgs.push_back(c);
        }
    }

    Kind classify(std::string_view cat, EventCategory& category)
    {
        if (!cat.empty() && std::isupper(static_cast<unsigned char>(cat.front())) &&
            (cat == "Kernel" || cat == "Runtime" || cat == "Operator"))
            m_out.schemaEra = "2021";
        if (equalsLower(cat, "kernel")) {
            category = EventCategory::Kernel;
            return Kind::Gpu;
        }
        if (equalsLower(cat, "gpu_memcpy") || equalsLower(cat, "memcpy")) {
            category = EventCategory::Memcpy;
            return Kind::Gpu;
        }
        if (equalsLower(cat, "gpu_memset") || equalsLower(cat, "memset")) {
            category = EventCategory::Memset;
            return Kind::Gpu;
        }
        if (cat == "gpu_user_annotation") {
            category = EventCategory::GpuAnnotation;
            return Kind::Gpu;
        }
        if (cat == "user_annotation" || cat == "cpu_op" || cat == "Operator" || cat == "python_function")
            return Kind::Cpu; // ProfilerStep#N lives here
        ++m_out.cpuEventCount;
        return Kind::Skip;
    }

    std::uint32_t intern(std::string_view s)
    {
        const std::uint32_t id = m_out.names.intern(s);
        if (!m_out.rocm && (s.starts_with("__amd_rocclr") || s.starts_with("Cijk_")))
            m_out.rocm = true;
        return id;
    }

    ByteWindow m_win;
    std::size_t m_pos = 0;
    TraceData& m_out;
    const TickFn& m_tick;
    simdjson::ondemand::parser m_parser;
    std::vector<char> m_scratch;
    bool m_sawEvents = false;
    bool m_rankKnown = false;

public:
    bool rankKnown() const { return m_rankKnown; }
};

} // namespace

bool parseMicrosToNs(std::string_view token, std::int64_t& ns)
{
    std::string_view t = trimToken(token);
    if (t.empty())
        return false;
    const bool neg = t.front() == '-';
    std::size_t i = neg ? 1 : 0;
    std::int64_t whole = 0;
    std::size_t digits = 0;
    for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i, ++digits)
        if (digits < 17) // more digits take the double path below; never overflow here
            whole = whole * 10 + (t[i] - '0');
    std::int64_t frac = 0;
    int fracDigits = 0;
    bool roundUp = false;
    if (i < t.size() && t[i] == '.') {
        for (++i; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) {
            if (fracDigits < 3)
                frac = frac * 10 + (t[i] - '0'), ++fracDigits;
            else if (fracDigits == 3)
                roundUp = t[i] >= '5', ++fracDigits;
        }
    }
    constexpr std::int64_t kMaxWhole = std::numeric_limits<std::int64_t>::max() / 1000 - 1;
    if (i < t.size() || digits == 0 || digits > 16 || whole > kMaxWhole) {
        // exponents and other rare forms: a double is precise enough for them
        double v = 0;
        const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
        if (r.ec != std::errc() || r.ptr != t.data() + t.size() || !std::isfinite(v))
            return false;
        if (!(std::fabs(v) < 9.2e15))
            return false; // beyond int64 nanoseconds
        ns = static_cast<std::int64_t>(std::llround(v * 1000.0));
        return true;
    }
    for (int k = std::min(fracDigits, 3); k < 3; ++k)
        frac *= 10;
    ns = whole * 1000 + frac + (roundUp ? 1 : 0);
    if (neg)
        ns = -ns;
    return true;
}

bool readKinetoTrace(std::istream& in, TraceData& out, const TickFn& tick, std::size_t chunkBytes)
{
    Reader reader(in, out, tick, std::max<std::size_t>(chunkBytes, 4096));
    if (!reader.run())
        return false;
    if (!reader.rankKnown()) {
        static const std::regex rankRe(R"((?:rank|worker)[-_]?(\d+))", std::regex::icase);
        std::smatch m;
        const std::string name = std::filesystem::path(out.path).filename().string();
        if (std::regex_search(name, m, rankRe))
            out.rank = std::stoi(m[1].str());
    }
    if (out.schemaEra.empty())
        out.schemaEra = "current";
    // Step annotations may be recorded twice (e.g. user_annotation and cpu_op): keep one each.
    std::sort(out.steps.begin(), out.steps.end(), [](const StepMarker& a, const StepMarker& b) {
        return a.step != b.step ? a.step < b.step : a.durNs > b.durNs;
    });
    out.steps.erase(std::unique(out.steps.begin(), out.steps.end(),
                                [](const StepMarker& a, const StepMarker& b) { return a.step == b.step; }),
                    out.steps.end());
    return true;
}
} // namespace rl::trace
