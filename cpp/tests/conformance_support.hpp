// Helpers for the generated conformance tests (cpp_conformance example).
#ifndef SABLE_CONFORMANCE_SUPPORT_HPP
#define SABLE_CONFORMANCE_SUPPORT_HPP

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

inline std::vector<std::uint8_t> from_hex(const std::string &hex) {
  std::vector<std::uint8_t> out;
  auto digit = [](char c) {
    return static_cast<std::uint8_t>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
  };
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<std::uint8_t>(digit(hex[i]) << 4 | digit(hex[i + 1])));
  }
  return out;
}

inline std::string to_hex(const std::vector<std::uint8_t> &bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : bytes) {
    out.push_back(digits[b >> 4]);
    out.push_back(digits[b & 15]);
  }
  return out;
}

// Every proper prefix of the message, each in a heap buffer of exactly its size: decoding and
// printing must report an error, and read nothing past the buffer (AddressSanitizer checks).
template <class Decoder> void check_truncations(const std::vector<std::uint8_t> &bytes) {
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    std::unique_ptr<std::uint8_t[]> buf(new std::uint8_t[n == 0 ? 1 : n]);
    std::copy(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n), buf.get());
    Decoder d(buf.get(), n);
    std::ostringstream os;
    os << d;
    std::size_t length = d.encoded_length();
    EXPECT_TRUE(d.error() != sable::errc::ok || length == 0)
        << "prefix of " << n << " bytes decoded without error";
    EXPECT_NE(os.str().find("\"error\""), std::string::npos)
        << "prefix of " << n << " bytes printed " << os.str();
  }
}

// Every one-byte change to 0xff and to 0x00 (lengths, counts, block lengths, ids): decoding
// and printing must stay within the buffer; the result is whatever the bytes say.
template <class Decoder> void check_changes(const std::vector<std::uint8_t> &bytes) {
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    for (std::uint8_t v : {std::uint8_t{0xff}, std::uint8_t{0x00}, std::uint8_t{0x7f}}) {
      std::unique_ptr<std::uint8_t[]> buf(new std::uint8_t[bytes.size()]);
      std::copy(bytes.begin(), bytes.end(), buf.get());
      buf[i] = v;
      Decoder d(buf.get(), bytes.size());
      std::ostringstream os;
      os << d;
      EXPECT_LE(d.encoded_length(), bytes.size());
      EXPECT_FALSE(os.str().empty());
    }
  }
}

#endif
