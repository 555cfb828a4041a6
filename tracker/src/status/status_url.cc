#include "tracker/status_url.h"

#include <unistd.h>

#include <cstdlib>

namespace treering::tracker {

std::vector<std::string> StatusLines(const std::string& host_ip, std::uint16_t port,
                                     const std::string& token, bool in_ssh_session,
                                     const std::string& this_host) {
  const bool v6 = host_ip.find(':') != std::string::npos;
  const std::string host = v6 ? "[" + host_ip + "]" : host_ip;
  const std::string p = std::to_string(port);
  std::vector<std::string> lines;
  lines.push_back("status: http://" + host + ":" + p + "/?token=" + token);
  if (in_ssh_session) {
    // The local end uses the same port number; any free port works.
    lines.push_back("status from your machine: ssh -N -L " + p + ":" + host + ":" + p + " " +
                    this_host + "  then open http://localhost:" + p + "/?token=" + token);
  }
  return lines;
}

std::vector<std::string> StatusLinesHere(const std::string& host_ip, std::uint16_t port,
                                         const std::string& token) {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) name[0] = '\0';
  const char* ssh = std::getenv("SSH_CONNECTION");
  return StatusLines(host_ip, port, token, ssh != nullptr && *ssh != '\0',
                     name[0] ? name : "THIS_HOST");
}

}  // namespace treering::tracker
