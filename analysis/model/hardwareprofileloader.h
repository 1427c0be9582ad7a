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
// The user's own profiles (copies edited in the GUI, measured ones): <userDataDir>/hardware.
std::string userHardwareProfileDir();
// The shipped profiles and the user's, by id; a user profile replaces a shipped one of the same id.
// A bad user file throws ProfileError naming it.
std::vector<HardwareProfile> availableHardwareProfiles();
// Validates (through the schema, as loading would) and writes <userHardwareProfileDir>/<id>.json
// atomically; returns the path. Throws ProfileError on an invalid profile or id, or a write error.
std::string saveUserHardwareProfile(const HardwareProfile& hw);
// Removes one of the user's own profiles (a shipped one of the same id shows again); throws
// ProfileError when id is not a user profile (shipped profiles cannot be deleted). Returns the path.
std::string deleteUserHardwareProfile(const std::string& id);
// Gives a user profile a new id (its file renamed, the id inside it too); throws ProfileError when
// `from` is not a user profile, or `to` is not a valid id or names a profile that exists.
std::string renameUserHardwareProfile(const std::string& from, const std::string& to);
// A profile file, or the id of one of availableHardwareProfiles() ("mi300x"); throws ProfileError
// listing the known ids when there is neither.
HardwareProfile findHardwareProfile(const std::string& idOrPath);

// The profiles' dtype key ("bf16", "fp32", "fp8") for a type as GEMM and peakflops records name it
// ("bfloat16", "f32_r", "float8_e4m3"); unknown names are returned as they are.
std::string profileDtype(const std::string& recordDtype);

} // namespace rl
