#include "net/http_url.h"

#include <cctype>
#include <charconv>

namespace treering::net {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool Unreserved(unsigned char c) {
  return std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
}

}  // namespace

bool IsHttpUri(const std::string& uri) {
  return uri.rfind("http://", 0) == 0 || uri.rfind("https://", 0) == 0;
}

Result<HttpUrl> ParseHttpUrl(const std::string& url) {
  if (url.rfind("https://", 0) == 0) {
    return Status::InvalidInput(url +
                                ": https is not supported (use http:// with a token, on a "
                                "trusted network)");
  }
  const std::string rest = url.substr(7);
  const std::size_t slash = rest.find('/');
  const std::string authority = rest.substr(0, slash);
  HttpUrl out;
  std::string raw_path = slash == std::string::npos ? "/" : rest.substr(slash);
  if (authority.empty() || authority.find('@') != std::string::npos) {
    return Status::InvalidInput(url + ": expected http://HOST:PORT/FILE");
  }
  const std::size_t colon = authority.rfind(':');
  out.host = authority.substr(0, colon);
  if (colon != std::string::npos) {
    const std::string port = authority.substr(colon + 1);
    unsigned value = 0;
    const auto [next, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (port.empty() || ec != std::errc() || next != port.data() + port.size() || value == 0 ||
        value > 65535) {
      return Status::InvalidInput(url + ": bad port '" + port + "'");
    }
    out.port = static_cast<std::uint16_t>(value);
  }
  if (out.host.size() > 2 && out.host.front() == '[' && out.host.back() == ']') {
    out.host = out.host.substr(1, out.host.size() - 2);  // [::1]
  }
  if (out.host.empty()) return Status::InvalidInput(url + ": expected http://HOST:PORT/FILE");
  if (raw_path.find('#') != std::string::npos || !PercentDecode(raw_path, &out.path)) {
    return Status::InvalidInput(url + ": bad path in the URL");
  }
  return out;
}

std::string EncodeTarget(const std::string& path) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    if (Unreserved(c)) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

bool PercentDecode(const std::string& text, std::string* out) {
  out->clear();
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      *out += text[i];
      continue;
    }
    if (i + 2 >= text.size()) return false;
    const int hi = HexValue(text[i + 1]);
    const int lo = HexValue(text[i + 2]);
    if (hi < 0 || lo < 0) return false;
    *out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return true;
}

}  // namespace treering::net
