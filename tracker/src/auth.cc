// HMAC-SHA256, nonces and the handshake transcripts of auth.h, on OpenSSL's libcrypto.
#include "tracker/auth.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <vector>

#include "byte_codec.h"

namespace treering::proto {
namespace {

// Labels end with a NUL so that no label is a prefix of another's transcript.
const char* Label(Prover who) {
  switch (who) {
    case Prover::kWorker:
      return "treering/2 worker";
    case Prover::kTracker:
      return "treering/2 tracker";
    case Prover::kDialler:
      return "treering/2 peer dialler";
    case Prover::kAcceptor:
      return "treering/2 peer acceptor";
  }
  return "treering/2 ?";
}

void PutLabel(std::vector<std::uint8_t>* out, Prover who) {
  const std::string_view label = Label(who);
  out->insert(out->end(), label.begin(), label.end());
  out->push_back(0);
}

}  // namespace

Result<Nonce> NewNonce() {
  Nonce n{};
  if (RAND_bytes(n.data(), static_cast<int>(n.size())) != 1) {
    return Status::Internal("the system's random generator failed (RAND_bytes)");
  }
  return n;
}

Mac HmacSha256(std::string_view key, std::span<const std::uint8_t> message) {
  Mac mac{};
  unsigned int len = 0;
  // An empty key is legal HMAC; OpenSSL only wants a non-null pointer for it.
  static const char kEmpty = 0;
  const char* key_bytes = key.empty() ? &kEmpty : key.data();
  HMAC(EVP_sha256(), key_bytes, static_cast<int>(key.size()), message.data(), message.size(),
       mac.data(), &len);
  return mac;
}

bool SameMac(const Mac& a, const Mac& b) {
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

Mac HelloProof(std::string_view token, Prover who, const Nonce& tracker_nonce,
               std::span<const std::uint8_t> hello_payload) {
  std::vector<std::uint8_t> transcript;
  PutLabel(&transcript, who);
  transcript.insert(transcript.end(), tracker_nonce.begin(), tracker_nonce.end());
  transcript.insert(transcript.end(), hello_payload.begin(), hello_payload.end());
  return HmacSha256(token, transcript);
}

Mac PeerProof(std::string_view token, Prover who, const PeerTranscript& t) {
  std::vector<std::uint8_t> transcript;
  PutLabel(&transcript, who);
  transcript.insert(transcript.end(), t.dialler_nonce.begin(), t.dialler_nonce.end());
  transcript.insert(transcript.end(), t.acceptor_nonce.begin(), t.acceptor_nonce.end());
  detail::ByteWriter w(&transcript);
  w.PutUInt<std::uint32_t>(t.epoch);
  const bool dialler = who == Prover::kDialler;
  w.PutI32(dialler ? t.dialler_rank : t.acceptor_rank);
  w.PutI32(dialler ? t.acceptor_rank : t.dialler_rank);
  return HmacSha256(token, transcript);
}

}  // namespace treering::proto
