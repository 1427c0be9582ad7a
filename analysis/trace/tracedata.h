#pragma once
// The compact in-memory form of one rank's Kineto trace: only what the analysis needs (GPU
// activity and step annotations), names interned, times in integer nanoseconds so interval
// arithmetic is exact.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "trace/stringtable.h"

namespace rl::trace {

enum class EventCategory : std::uint8_t { Kernel, Memcpy, Memset, GpuAnnotation };

struct CollectiveArgs
{
    std::uint32_t name = 0;   // "Collective name" (interned)
    std::uint32_t dtype = 0;  // interned
    std::int64_t inNelems = -1;
    std::int64_t outNelems = -1;
    int groupSize = 0;
};

struct GpuEvent
{
    std::int64_t startNs = 0;
    std::int64_t durNs = 0;
    std::uint32_t name = 0;   // interned
    std::int32_t stream = 0;
    std::int32_t device = 0;
    EventCategory category = EventCategory::Kernel;
    std::int32_t extra = -1;  // index into TraceData::collectiveArgs, -1 when none
    float flops = 0;          // kernel_flop arg (0 = absent); float keeps the event at 40 bytes
    float bytes = 0;          // kernel_num_gb x 1e9
};

struct StepMarker
{
    std::int64_t step = 0;
    std::int64_t startNs = 0;
    std::int64_t durNs = 0;
};

struct TraceData
{
    std::string path;
    int rank = 0;
    int worldSize = 0;
    std::string backend;       // distributedInfo.backend
    std::string ncclVersion;
    std::int64_t baseTimeNs = 0;
    nlohmann::json deviceProperties = nlohmann::json::array();
    nlohmann::json distributedInfo = nlohmann::json::object();
    std::string schemaEra;     // "2021" (capitalised categories) or "current"
    bool rocm = false;
    StringTable names;
    std::vector<GpuEvent> gpu;
    std::vector<StepMarker> steps;
    std::vector<CollectiveArgs> collectiveArgs;
    std::int64_t eventCount = 0;      // every event in traceEvents, kept or not
    std::int64_t cpuEventCount = 0;
    std::int64_t flowEventCount = 0;
    std::int64_t bytesParsed = 0;     // of the decompressed JSON
};
} // namespace rl::trace
