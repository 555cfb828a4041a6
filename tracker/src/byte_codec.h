// Little-endian byte writer/reader for the native wire protocol. No I/O: they fill or read a
// caller's buffer. The reader never reads past its span; the first failure sticks (so a decoder
// can read every field and check once) and names the field that was short or too long.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace treering::proto::detail {

class ByteWriter {
 public:
  explicit ByteWriter(std::vector<std::uint8_t>* out) : out_(out) {}

  template <typename UInt>
  void PutUInt(UInt v) {
    for (std::size_t i = 0; i < sizeof(UInt); ++i) {
      out_->push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    }
  }
  void PutI32(std::int32_t v) { PutUInt(static_cast<std::uint32_t>(v)); }
  void PutString(const std::string& s) {
    PutUInt(static_cast<std::uint32_t>(s.size()));
    out_->insert(out_->end(), s.begin(), s.end());
  }
  // Fixed-size byte fields (nonces, MACs): no length prefix.
  template <std::size_t N>
  void PutBytes(const std::array<std::uint8_t, N>& b) {
    out_->insert(out_->end(), b.begin(), b.end());
  }

 private:
  std::vector<std::uint8_t>* out_;
};

class ByteReader {
 public:
  explicit ByteReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  template <typename UInt>
  UInt GetUInt(const char* field) {
    if (!Need(sizeof(UInt), field)) return 0;
    UInt v = 0;
    for (std::size_t i = 0; i < sizeof(UInt); ++i) {
      v |= static_cast<UInt>(static_cast<UInt>(bytes_[pos_ + i]) << (8 * i));
    }
    pos_ += sizeof(UInt);
    return v;
  }
  std::int32_t GetI32(const char* field) {
    return static_cast<std::int32_t>(GetUInt<std::uint32_t>(field));
  }
  std::string GetString(const char* field, std::uint32_t max_bytes);
  template <std::size_t N>
  std::array<std::uint8_t, N> GetBytes(const char* field) {
    std::array<std::uint8_t, N> b{};
    if (!Need(N, field)) return b;
    for (std::size_t i = 0; i < N; ++i) b[i] = bytes_[pos_ + i];
    pos_ += N;
    return b;
  }
  // Reads a list count and refuses counts that cannot fit in the remaining bytes, so a
  // hostile count never makes the decoder allocate.
  std::uint32_t GetCount(const char* field, std::size_t min_item_bytes);

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  std::size_t remaining() const { return bytes_.size() - pos_; }
  void Fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
  }

 private:
  bool Need(std::size_t n, const char* field);

  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
  std::string error_;
};

}  // namespace treering::proto::detail
