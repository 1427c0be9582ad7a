#pragma once
// The display preferences that act on the whole application: the theme (light, dark, or the
// system's colours, followed as they change) and the bandwidth unit of units::formatBandwidth.
// followDisplaySettings applies them now and again whenever Settings announces a change, so
// Preferences' Apply takes effect without a restart.
#include "settings.h"

namespace rl {
void applyTheme(Settings::Theme theme);
void followDisplaySettings(Settings* settings);
} // namespace rl
