#pragma once
// Usage errors (exit 2) said so that the user can act on them: the word that was not understood
// named first, with the nearest command or option it may have meant.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace rl::cli {
// The message for a CLI11 parse error, after app.parse() threw it. CLI11 checks required
// arguments before it complains about words it did not understand, so `import --bogus` would say
// "paths is required"; the word not understood is what the user got wrong, so it comes first.
std::string describeParseError(CLI::App& app, const CLI::ParseError& e);

// "`ridgeline-cli fit --help` says what it takes": the help of the deepest command given.
std::string helpHint(CLI::App& app);

// The name in `names` nearest to `word` (edit distance, a swap of two letters counting once), or
// "" when none is near enough to be a likely typo.
std::string closestName(const std::string& word, const std::vector<std::string>& names);
} // namespace rl::cli
