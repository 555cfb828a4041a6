#include "transport/message_header.h"

#include "transport/op_header.h"

namespace rabit::transport {
namespace {

void PutLe(std::uint8_t* out, std::uint64_t value, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i) out[i] = static_cast<std::uint8_t>(value >> (8 * i));
}

std::uint64_t GetLe(const std::uint8_t* in, std::size_t bytes) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < bytes; ++i) value |= std::uint64_t{in[i]} << (8 * i);
  return value;
}

}  // namespace

std::array<std::uint8_t, MessageHeader::kBytes> MessageHeader::Encode() const {
  std::array<std::uint8_t, kBytes> out{};
  PutLe(&out[0], kMagic, 4);
  out[4] = static_cast<std::uint8_t>(dtype);
  out[5] = lead;
  PutLe(&out[8], static_cast<std::uint32_t>(tag), 4);
  PutLe(&out[12], count, 8);
  return out;
}

std::optional<MessageHeader> MessageHeader::Decode(const std::uint8_t* in) {
  if (GetLe(in, 4) != kMagic) return std::nullopt;
  if (in[4] > static_cast<std::uint8_t>(DataType::kDouble)) return std::nullopt;
  if (in[5] >= kAlign) return std::nullopt;
  MessageHeader h;
  h.dtype = static_cast<DataType>(in[4]);
  h.lead = in[5];
  h.tag = static_cast<std::int32_t>(static_cast<std::uint32_t>(GetLe(&in[8], 4)));
  h.count = GetLe(&in[12], 8);
  return h;
}

std::uint8_t MessageHeader::LeadFor(const void* payload) {
  const auto address = reinterpret_cast<std::uintptr_t>(payload);
  return static_cast<std::uint8_t>((address + kAlign - kBytes % kAlign) % kAlign);
}

std::string MessageHeader::Describe() const {
  return std::to_string(count) + " x " + DataTypeName(dtype) + " (" +
         std::to_string(PayloadBytes()) + " B) with tag " + std::to_string(tag);
}

}  // namespace rabit::transport
