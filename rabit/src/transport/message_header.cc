#include "transport/message_header.h"

#include <cstdint>

#include "transport/op_header.h"
#include "transport/wire_format.h"

namespace rabit::transport {
namespace {

std::uint32_t MagicOf(MessageHeader::Kind kind) {
  switch (kind) {
    case MessageHeader::Kind::kOffer:
      return MessageHeader::kOfferMagic;
    case MessageHeader::Kind::kGrant:
      return MessageHeader::kGrantMagic;
    case MessageHeader::Kind::kPut:
      return MessageHeader::kPutMagic;
    case MessageHeader::Kind::kMessage:
      break;
  }
  return MessageHeader::kMagic;
}

std::optional<MessageHeader::Kind> KindOf(std::uint64_t magic) {
  switch (magic) {
    case MessageHeader::kMagic:
      return MessageHeader::Kind::kMessage;
    case MessageHeader::kOfferMagic:
      return MessageHeader::Kind::kOffer;
    case MessageHeader::kGrantMagic:
      return MessageHeader::Kind::kGrant;
    case MessageHeader::kPutMagic:
      return MessageHeader::Kind::kPut;
    default:
      return std::nullopt;
  }
}

}  // namespace

std::array<std::uint8_t, MessageHeader::kBytes> MessageHeader::Encode() const {
  std::array<std::uint8_t, kBytes> out{};
  PutLe(&out[0], MagicOf(kind), 4);
  out[4] = static_cast<std::uint8_t>(dtype);
  PutLe(&out[6], lead, 2);
  PutLe(&out[8], static_cast<std::uint32_t>(tag), 4);
  PutLe(&out[12], count, 8);
  PutLe(&out[20], tail, 2);
  return out;
}

std::optional<MessageHeader> MessageHeader::Decode(const std::uint8_t* in) {
  const auto kind = KindOf(GetLe(in, 4));
  if (!kind) return std::nullopt;
  if (in[4] > static_cast<std::uint8_t>(DataType::kDouble)) return std::nullopt;
  const std::uint64_t lead = GetLe(&in[6], 2);
  const std::uint64_t tail = GetLe(&in[20], 2);
  if (lead >= kPage || tail >= kPage) return std::nullopt;
  // Only a message has fillers; a grant's body has one size.
  if (*kind != Kind::kMessage && (lead != 0 || tail != 0)) return std::nullopt;
  if (*kind == Kind::kGrant && (in[4] != static_cast<std::uint8_t>(DataType::kUInt8) ||
                                GetLe(&in[12], 8) != PutGrant::kBytes)) {
    return std::nullopt;
  }
  // A payload size that does not fit in 64 bits is not a message (out of step, or forged).
  const std::uint64_t count = GetLe(&in[12], 8);
  if (count > UINT64_MAX / DataTypeSize(static_cast<DataType>(in[4]))) return std::nullopt;
  MessageHeader h;
  h.kind = *kind;
  h.dtype = static_cast<DataType>(in[4]);
  h.lead = static_cast<std::uint16_t>(lead);
  h.tail = static_cast<std::uint16_t>(tail);
  h.tag = static_cast<std::int32_t>(static_cast<std::uint32_t>(GetLe(&in[8], 4)));
  h.count = GetLe(&in[12], 8);
  return h;
}

void MessageHeader::Place(const void* payload) {
  lead = 0;
  tail = 0;
  if (PayloadBytes() < kPlacedFromBytes) return;
  // The message starts at a page offset of about 0 (message_header.h): the payload goes to
  // its buffer's page offset plus half a page.
  const auto address = reinterpret_cast<std::uintptr_t>(payload);
  lead = static_cast<std::uint16_t>((address + kPage / 2 + kPage - kBytes) % kPage);
  tail = static_cast<std::uint16_t>((kPage - (kBytes + lead + PayloadBytes()) % kPage) % kPage);
}

std::array<std::uint8_t, PutGrant::kBytes> PutGrant::Encode() const {
  std::array<std::uint8_t, kBytes> out{};
  PutLeWords(out.data(), {offer, pid, address, probe_address, probe_value});
  return out;
}

PutGrant PutGrant::Decode(const std::uint8_t* in) {
  const auto f = GetLeWords<5>(in);
  return PutGrant{f[0], f[1], f[2], f[3], f[4]};
}

std::string MessageHeader::Describe() const {
  return std::to_string(count) + " x " + DataTypeName(dtype) + " (" +
         std::to_string(PayloadBytes()) + " B) with tag " + std::to_string(tag);
}

}  // namespace rabit::transport
