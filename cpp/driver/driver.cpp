// The C++ codec driver (scripts/codec-driver.sh, scripts/drivers/cpp.sh): reads one message per
// line as hex on standard input (`-` alone: the empty message) and writes, per message, the canonical JSON the generated
// codecs' schema-level entry point prints, or its error object, one line each, flushed.
// Built against the codecs of one schema, generated into the namespace sable_driver
// (header sable_driver.hpp).
#include "sable_driver.hpp"

#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

namespace {

int digit(char c) {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return -1;
}

// The bytes of a hex line (none for `-`, the empty message), or false when it is not hex (an odd
// number of digits or another character; surrounding whitespace is allowed).
bool from_hex(const std::string &line, std::vector<std::uint8_t> &out) {
  out.clear();
  std::size_t begin = line.find_first_not_of(" \t\r");
  std::size_t end = line.find_last_not_of(" \t\r");
  if (begin == std::string::npos) {
    return true;
  }
  if (end == begin && line[begin] == '-') {
    return true;
  }
  if ((end - begin + 1) % 2 != 0) {
    return false;
  }
  for (std::size_t i = begin; i < end; i += 2) {
    const int hi = digit(line[i]);
    const int lo = digit(line[i + 1]);
    if (hi < 0 || lo < 0) {
      return false;
    }
    out.push_back(static_cast<std::uint8_t>(hi << 4 | lo));
  }
  return true;
}

} // namespace

int main() {
  std::ios::sync_with_stdio(false);
  std::string line;
  std::vector<std::uint8_t> bytes;
  std::size_t number = 0;
  while (std::getline(std::cin, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) {
      continue;
    }
    if (!from_hex(line, bytes)) {
      std::cerr << "cpp driver: line " << number << " is neither hex nor -\n";
      return 2;
    }
    // A buffer of exactly the message's size: nothing past it can be read by mistake.
    std::vector<std::uint8_t> message(bytes);
    sable_driver::sbe_print_json(std::cout, message.data(), message.size());
    std::cout << '\n' << std::flush;
  }
  return 0;
}
