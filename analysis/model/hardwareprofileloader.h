#pragma once
// Reads and validates hardware profiles (resources/hardware/*.json) and builds the "this machine
// (measured)" profile from stored peakflops and membw sessions. Schema: resources/hardware/README.md.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/hardwareprofile.h"

namespace rl {

namespace store {
class Database;
}

class ProfileError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// Throws ProfileError "file: field 'peak_tflops.bf16.source': reason".
HardwareProfile loadHardwareProfile(const std::string& path);
HardwareProfile hardwareProfileFromJson(const nlohmann::json& j, const std::string& origin);
nlohmann::json toJson(const HardwareProfile& hw);

// Every *.json in dir, sorted by id; a bad file throws (profiles ship with the program).
std::vector<HardwareProfile> loadHardwareProfiles(const std::string& dir);
// The installed profiles directory, else the source tree's resources/hardware.
std::string hardwareProfileDir();
// A profile file, or the id of one in hardwareProfileDir() ("mi300x"); throws ProfileError listing
// the known ids when there is neither.
HardwareProfile findHardwareProfile(const std::string& idOrPath);

// "this-machine": peak per dtype = best measured over thread counts of the peakflops session;
// memory levels = the ceilings of the membw session at its highest thread count (DRAM also as
// hbmBandwidthGBs). Sources read "measured: session N ...". Throws ProfileError when a session
// has no usable records.
HardwareProfile buildMeasuredProfile(store::Database& db, std::int64_t peakFlopsSession, std::int64_t memBwSession);
} // namespace rl
