// What treering-submit and treering-tracker print about the status page (docs/status.md):
// "status: http://HOST:PORT/?token=TOKEN", and, when this process runs in an ssh session (the
// browser is then most likely on another machine), the command that opens a tunnel to it and
// the URL to open through that tunnel.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace treering::tracker {

// `in_ssh_session`: SSH_CONNECTION is set; `this_host`: this machine's name (for the tunnel).
std::vector<std::string> StatusLines(const std::string& host_ip, std::uint16_t port,
                                     const std::string& token, bool in_ssh_session,
                                     const std::string& this_host);
// StatusLines for this process (reads SSH_CONNECTION and gethostname).
std::vector<std::string> StatusLinesHere(const std::string& host_ip, std::uint16_t port,
                                         const std::string& token);

}  // namespace treering::tracker
