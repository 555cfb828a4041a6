// Checks shared by the point-to-point tests (message_test.cc, local_put_test.cc): every rank's
// Status over a MessageWorld, one seeded message from rank 0 to rank 1, and a rank 1 played by
// hand on the raw link (RawPeer).
#pragma once

#include <array>
#include <chrono>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "bootstrap/loopback_links.h"
#include "expected_reduce.h"
#include "message_world.h"

namespace rabit::testing {

inline void ExpectAllOk(const std::vector<treering::Status>& statuses) {
  for (std::size_t r = 0; r < statuses.size(); ++r) {
    EXPECT_TRUE(statuses[r].ok()) << "rank " << r << ": " << statuses[r].message();
  }
}

inline treering::Status Expect(bool ok, const std::string& what) {
  return ok ? treering::Status::Ok() : treering::Status::Internal("wrong result: " + what);
}

// Rank 0 sends `count` elements of T (seed) to rank 1 with tag 9, which checks them.
template <typename T>
treering::Status SendOne(int rank, transport::Mailbox& box, std::size_t count, std::uint64_t seed) {
  const std::vector<T> sent = RankData<T>(0, seed, count);
  if (rank == 0) return box.Send(sent.data(), count, detail::TypeOf<T>(), 1, 9);
  std::vector<T> got(count);
  auto source = box.Recv(got.data(), count, detail::TypeOf<T>(), 0, 9);
  if (!source.ok()) return source.status();
  if (source.value() != 0) return treering::Status::Internal("wrong source");
  return Expect(count == 0 || std::memcmp(got.data(), sent.data(), count * sizeof(T)) == 0,
                std::to_string(count) + " elements");
}

// Rank 0's Mailbox against a rank 1 played by the test through the raw link, so the test
// decides how much of a message has arrived when the receive is posted.
struct RawPeer {
  std::vector<std::vector<transport::Link>> links;
  std::unique_ptr<transport::Mailbox> box;

  // tune(options) adjusts rank 0's options (rank 0 of 2, timeout 20 s) before its Mailbox is made.
  explicit RawPeer(const std::function<void(transport::MailboxOptions&)>& tune = {}) {
    auto made = bootstrap::BuildLoopbackMessageLinks(2);
    if (!made.ok()) throw std::runtime_error(made.status().message());
    links = std::move(made.value());
    transport::MailboxOptions options;
    options.rank = 0;
    options.world = 2;
    options.timeout_seconds = 20;
    if (tune) tune(options);
    box = std::make_unique<transport::Mailbox>(options, std::move(links[0]));
  }
  transport::TcpSocket& socket() { return links[1][0].socket; }
  void Send(std::span<const std::uint8_t> bytes) {
    ASSERT_TRUE(socket().SendAll(bytes, transport::DeadlineAfter(10)).ok());
  }
  // The next frame header rank 0 sent (a default header if none decodes).
  transport::MessageHeader ReadHeader() {
    std::array<std::uint8_t, transport::MessageHeader::kBytes> raw{};
    EXPECT_TRUE(socket().RecvAll(raw, transport::DeadlineAfter(10)).ok());
    auto h = transport::MessageHeader::Decode(raw.data());
    EXPECT_TRUE(h.has_value());
    return h.value_or(transport::MessageHeader{});
  }
  // Lets rank 0's Mailbox read what has arrived (it reads every link inside any call).
  void Pump() {
    std::int32_t never = 0;
    auto t = box->Irecv(&never, 1, DataType::kInt32, 1, 99);
    ASSERT_TRUE(t.ok());
    for (int i = 0; i < 20; ++i) {
      auto done = box->Test(t.value());
      ASSERT_TRUE(done.ok()) << done.status().message();
      ASSERT_EQ(done.value(), -1);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    pending.push_back(t.value());
  }
  std::vector<Ticket> pending;  // the tag-99 receives Pump left posted
};

}  // namespace rabit::testing
