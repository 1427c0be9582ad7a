#include "usageerror.h"

#include <algorithm>
#include <cctype>

namespace rl::cli {
namespace {
// Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps
// ("improt" is one swap from "import", the commonest typo).
std::size_t editDistance(const std::string& a, const std::string& b)
{
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

// The chain of commands the parse got to: {app, "config", "save"}.
std::vector<CLI::App*> parsedChain(CLI::App& app)
{
    std::vector<CLI::App*> chain{&app};
    while (true) {
        const auto subs = chain.back()->get_subcommands();
        if (subs.empty())
            return chain;
        chain.push_back(subs.front());
    }
}

std::string commandLine(const std::vector<CLI::App*>& chain)
{
    std::string s = "ridgeline-cli";
    for (std::size_t i = 1; i < chain.size(); ++i)
        s += " " + chain[i]->get_name();
    return s;
}

bool looksLikeOption(const std::string& word)
{
    return word.size() > 1 && word[0] == '-' && !std::isdigit(static_cast<unsigned char>(word[1])) && word[1] != '.';
}

std::string didYouMean(const std::string& word, const std::vector<std::string>& names)
{
    const auto near = closestName(word, names);
    return near.empty() ? ":" : "; did you mean '" + near + "'?";
}
} // namespace

std::string closestName(const std::string& word, const std::vector<std::string>& names)
{
    std::string best;
    std::size_t bestDistance = 0;
    for (const auto& n : names) {
        const auto d = editDistance(word, n);
        if (best.empty() || d < bestDistance)
            best = n, bestDistance = d;
    }
    // Two edits in a word of six or more letters is a typo; more, or half of a short word, is another word.
    const std::size_t allowed = std::min<std::size_t>(2, std::max<std::size_t>(1, word.size() / 3));
    return !best.empty() && bestDistance <= allowed ? best : std::string();
}

std::string helpHint(CLI::App& app)
{
    const auto chain = parsedChain(app);
    return "`" + commandLine(chain) + " --help` " + (chain.size() == 1 ? "lists the commands" : "says what it takes");
}

std::string describeParseError(CLI::App& app, const CLI::ParseError& e)
{
    const auto chain = parsedChain(app);
    CLI::App& cmd = *chain.back();
    const std::string where = commandLine(chain);
    const auto leftover = app.remaining(true);
    const auto option = std::find_if(leftover.begin(), leftover.end(), looksLikeOption);
    if (option != leftover.end()) {
        std::vector<std::string> known;
        for (const auto* app : chain) // global options reach every command (fallthrough)
            for (const auto* o : app->get_options())
                for (const auto& n : o->get_lnames())
                    known.push_back("--" + n);
        const std::string word = option->substr(0, option->find('='));
        return "unknown option '" + word + "' for `" + where + "`" + didYouMean(word, known) + " `" + where +
               " --help` lists its options";
    }
    if (!leftover.empty()) {
        std::vector<std::string> names;
        for (const auto* sub : cmd.get_subcommands([](CLI::App*) { return true; }))
            names.push_back(sub->get_name());
        if (!names.empty()) // a word where a command was expected
            return "unknown command '" + leftover.front() + "'" +
                   (chain.size() > 1 ? " for `" + where + "`" : std::string()) + didYouMean(leftover.front(), names) +
                   " `" + where + " --help` lists them";
        return "unexpected argument '" + leftover.front() + "' for `" + where + "`: `" + where +
               " --help` says what it takes";
    }
    return std::string(e.what()) + ": " + helpHint(app);
}
} // namespace rl::cli
