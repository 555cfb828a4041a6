#include "config_file.h"

#include "booster/atomic_file.h"

namespace treering::cli {
namespace {

constexpr std::string_view kSpaces = " \t\r";

std::string_view Trim(std::string_view s) {
  const auto begin = s.find_first_not_of(kSpaces);
  if (begin == std::string_view::npos) return {};
  return s.substr(begin, s.find_last_not_of(kSpaces) - begin + 1);
}

// One side of `key = value`: either a quoted token (quotes removed, content literal) or bare
// text up to `stop` / a comment. Advances `pos` past what it consumed.
struct Token {
  std::string text;
  bool quoted = false;
};

Result<Token> ReadToken(std::string_view line, std::size_t* pos, char stop,
                        const std::string& where) {
  while (*pos < line.size() && kSpaces.find(line[*pos]) != std::string_view::npos) ++*pos;
  Token token;
  if (*pos < line.size() && (line[*pos] == '"' || line[*pos] == '\'')) {
    const char quote = line[*pos];
    const auto close = line.find(quote, *pos + 1);
    if (close == std::string_view::npos) {
      return Status::InvalidInput(where + ": unterminated " + std::string(1, quote) + " quote");
    }
    token.text = std::string(line.substr(*pos + 1, close - *pos - 1));
    token.quoted = true;
    *pos = close + 1;
    return token;
  }
  std::size_t end = *pos;
  while (end < line.size() && line[end] != stop && line[end] != '#') ++end;
  token.text = std::string(Trim(line.substr(*pos, end - *pos)));
  *pos = end;
  return token;
}

// After a token only spaces and a comment may follow (or `expect`, when given).
bool RestIsBlank(std::string_view line, std::size_t* pos, char expect) {
  while (*pos < line.size() && kSpaces.find(line[*pos]) != std::string_view::npos) ++*pos;
  if (expect != '\0') {
    if (*pos >= line.size() || line[*pos] != expect) return false;
    ++*pos;
    return true;
  }
  return *pos >= line.size() || line[*pos] == '#';
}

Result<ConfigEntry> ParseLine(std::string_view line, const std::string& where) {
  std::size_t pos = 0;
  auto key = ReadToken(line, &pos, '=', where);
  if (!key.ok()) return key.status();
  const std::string shown(Trim(line));
  if (key->text.empty() || !RestIsBlank(line, &pos, '=')) {
    return Status::InvalidInput(where + ": expected `key = value`, got '" + shown + "'");
  }
  if (!key->quoted && key->text.find_first_of(kSpaces) != std::string::npos) {
    return Status::InvalidInput(where + ": a key cannot contain spaces: '" + key->text + "'");
  }
  auto value = ReadToken(line, &pos, '\0', where);
  if (!value.ok()) return value.status();
  if (value->text.empty() && !value->quoted) {
    return Status::InvalidInput(where + ": key '" + key->text + "' has no value");
  }
  if (!RestIsBlank(line, &pos, '\0')) {
    return Status::InvalidInput(where + ": unexpected text after the value in '" + shown + "'");
  }
  return ConfigEntry{key->text, value->text, where};
}

}  // namespace

Result<std::vector<ConfigEntry>> ParseConfigText(std::string_view text, const std::string& source) {
  // Editors on Windows may start the file with a UTF-8 byte-order mark; it is not part of a key.
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (text.substr(0, kBom.size()) == kBom) text.remove_prefix(kBom.size());
  std::vector<ConfigEntry> entries;
  int line_no = 0;
  while (!text.empty()) {
    ++line_no;
    // Lines end with LF, CRLF or a lone CR (XGBoost's ConfigParser turns every CR into LF).
    const auto eol = text.find_first_of("\r\n");
    const std::string_view line = text.substr(0, eol);
    std::size_t next = eol == std::string_view::npos ? text.size() : eol + 1;
    if (eol != std::string_view::npos && text[eol] == '\r' && next < text.size() &&
        text[next] == '\n') {
      ++next;
    }
    text = text.substr(next);
    const std::string_view trimmed = Trim(line);
    if (trimmed.empty() || trimmed.front() == '#') continue;
    auto entry = ParseLine(line, source + ":" + std::to_string(line_no));
    if (!entry.ok()) return entry.status();
    entries.push_back(std::move(entry.value()));
  }
  return entries;
}

Result<std::vector<ConfigEntry>> ParseConfigFile(const std::string& path) {
  auto text = booster::ReadWholeFile(path);
  if (!text.ok()) return text.status().WithContext("cannot read config file");
  return ParseConfigText(text.value(), path);
}

Result<ConfigEntry> ParseCommandLinePair(const std::string& token) {
  const auto eq = token.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == token.size()) {
    return Status::InvalidInput("command line: expected key=value, got '" + token + "'");
  }
  return ConfigEntry{token.substr(0, eq), token.substr(eq + 1), "command line"};
}

}  // namespace treering::cli
