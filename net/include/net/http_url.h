// http://HOST[:PORT]/PATH data URIs: recognising them, splitting them, and the request target
// sent for them (percent-encoded, so a name with spaces or '%' reaches the server intact).
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"

namespace treering::net {

struct HttpUrl {
  std::string host;
  std::uint16_t port = 80;
  std::string path;  // decoded, starts with '/'
};

bool IsHttpUri(const std::string& uri);

// Parses "http://host:port/path". No user info, query or fragment (the loader's "?options"
// are split off before); https is refused with a clear message.
Result<HttpUrl> ParseHttpUrl(const std::string& url);

// The origin-form request target for a decoded path: unreserved bytes and '/' as they are,
// every other byte as %XX.
std::string EncodeTarget(const std::string& path);

// Decodes %XX escapes; false on a malformed escape.
bool PercentDecode(const std::string& text, std::string* out);

}  // namespace treering::net
