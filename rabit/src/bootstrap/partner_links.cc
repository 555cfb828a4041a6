#include "bootstrap/partner_links.h"

#include "bootstrap/message_links.h"

namespace rabit::bootstrap {

using treering::Status;

Status LinkRecursivePartners(collective::Communicator& comm, std::uint64_t seq,
                             const std::string& host, const BootstrapConfig& config,
                             std::uint32_t epoch) {
  // A link exists on both of its ends or on neither, so both ends agree on what is missing.
  auto links =
      LinkPeers(comm, seq, host, config, epoch, comm.MissingRecursivePartners(), "partner link");
  if (!links.ok()) return links.status();
  return comm.AddRecursiveLinks(std::move(links).value());
}

}  // namespace rabit::bootstrap
