#pragma once
// The one escape for text that goes into markup we write: HTML (the report) and XML (SVG title
// and description, the PDF's XMP packet). Session titles, notes, host names, file and model names
// come from users and from imported files; unescaped, "<script>" in a title is live script in a
// report and "&" makes an SVG that no XML parser reads.
#include <string>
#include <string_view>

namespace rl::io {

// &, <, >, " and ' as entities, so the text is safe in element content and in quoted attributes of
// both HTML and XML. Control characters XML 1.0 cannot hold (all below U+0020 but tab, line feed
// and carriage return) become U+FFFD; the rest of the UTF-8 passes through unchanged.
std::string escapeMarkup(std::string_view text);
} // namespace rl::io
