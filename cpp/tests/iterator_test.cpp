// Group iterators: standard iterator traits, *it is the entry (an Entry, not the group cursor),
// random access over entries of fixed size, forward otherwise; standard algorithms on both.
#include "example_car.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using example::car::Car;
using Fuel = Car::Decoder::FuelFigures;
using Perf = Car::Decoder::PerformanceFigures;
using Acc = Car::Decoder::PerformanceFiguresEntry::Acceleration;

template <class It, class Category, class Reference> constexpr bool has_traits() {
  using traits = std::iterator_traits<It>;
  return std::is_same_v<typename traits::iterator_category, Category> &&
         std::is_same_v<typename traits::value_type, typename It::value_type> &&
         std::is_same_v<typename traits::difference_type, std::ptrdiff_t> &&
         std::is_same_v<typename traits::reference, Reference> &&
         std::is_same_v<typename traits::pointer, typename It::pointer>;
}

// Entries of fixed size (acceleration): random access, *it an Entry by value (so that
// std::reverse_iterator, which dereferences a temporary, is safe); with var data or nested
// groups: forward, *it the current entry.
static_assert(has_traits<Acc::iterator, std::random_access_iterator_tag, Acc::Entry>());
static_assert(std::is_same_v<Acc::iterator::value_type, Acc::Entry>);
static_assert(has_traits<Fuel::iterator, std::forward_iterator_tag, const Fuel::Entry &>());
static_assert(std::is_same_v<Fuel::iterator::value_type, Fuel::Entry>);
static_assert(has_traits<Perf::iterator, std::forward_iterator_tag, const Perf::Entry &>());
// *it is the entry, not the group cursor.
static_assert(!std::is_same_v<std::decay_t<decltype(*std::declval<Fuel::iterator>())>, Fuel>);
static_assert(!std::is_same_v<std::decay_t<decltype(*std::declval<Acc::iterator>())>, Acc>);
static_assert(std::is_default_constructible_v<Acc::iterator>);
static_assert(std::is_default_constructible_v<Fuel::iterator>);

std::vector<std::uint8_t> encode(int accelerations) {
  std::vector<std::uint8_t> buf(1024);
  Car::Encoder e(buf.data(), buf.size());
  auto fuel = e.fuelFigures(3);
  fuel.next().speed(30).usageDescription("Urban Cycle");
  fuel.next().speed(55).usageDescription("Combined Cycle");
  fuel.next().speed(75).usageDescription("Highway Cycle");
  auto perf = e.performanceFigures(2);
  for (int p = 0; p < 2; ++p) {
    auto acc = perf.next().octaneRating(static_cast<std::uint8_t>(95 + p))
                   .acceleration(static_cast<std::uint64_t>(accelerations));
    for (int i = 0; i < accelerations; ++i) {
      acc.next().mph(static_cast<std::uint16_t>(10 * (i + 1))).seconds(static_cast<float>(i));
    }
  }
  e.manufacturer("Honda").model("Civic").activationCode("x");
  EXPECT_TRUE(e.ok()) << e.error_field();
  buf.resize(e.encoded_length());
  return buf;
}

TEST(Iterators, RandomAccessOverEntriesOfFixedSize) {
  const std::vector<std::uint8_t> bytes = encode(5);
  Car::Decoder d(bytes.data(), bytes.size());
  for (const auto &f : d.fuelFigures()) {
    (void)f.usageDescription();
  }
  auto perf = d.performanceFigures();
  ASSERT_TRUE(perf.next());
  auto acc = perf.acceleration();
  auto begin = acc.begin();
  auto end = acc.end();
  EXPECT_EQ(std::distance(begin, end), 5);
  EXPECT_EQ(end - begin, 5);
  EXPECT_EQ(std::next(begin, 2)->mph(), 30);
  EXPECT_EQ(begin[4].mph(), 50);
  EXPECT_EQ((end - 1)->mph(), 50);
  EXPECT_EQ(std::prev(end)->mph(), 50);
  EXPECT_TRUE(begin < end);
  auto it = std::find_if(begin, end, [](const Acc::Entry &a) { return a.mph() == 40; });
  ASSERT_NE(it, end);
  EXPECT_EQ(it - begin, 3);
  EXPECT_EQ(std::count_if(begin, end, [](const Acc::Entry &a) { return a.seconds() >= 2.0f; }),
            3);
  std::vector<std::uint16_t> mph;
  std::transform(std::make_reverse_iterator(end), std::make_reverse_iterator(begin),
                 std::back_inserter(mph), [](const Acc::Entry &a) { return a.mph(); });
  EXPECT_EQ(mph, (std::vector<std::uint16_t>{50, 40, 30, 20, 10}));
  // Entries are values: a copy keeps reading its own entry.
  const Acc::Entry second = *std::next(begin);
  EXPECT_EQ(second.mph(), 20);
  EXPECT_EQ(acc.begin(), begin); // begin() and end() are the same range again
  // What follows the group reads as if the entries had been read one by one.
  ASSERT_TRUE(perf.next());
  EXPECT_EQ(perf.octaneRating(), 96);
  EXPECT_TRUE(d.ok());
}

TEST(Iterators, ForwardOverEntriesWithVarDataOrGroups) {
  const std::vector<std::uint8_t> bytes = encode(2);
  Car::Decoder d(bytes.data(), bytes.size());
  auto fuel = d.fuelFigures();
  // std::distance reads no entry's var data: the iterator reads past it.
  EXPECT_EQ(std::distance(fuel.begin(), fuel.end()), 3);
  auto perf = d.performanceFigures();
  auto it = std::find_if(perf.begin(), perf.end(),
                         [](const Perf::Entry &p) { return p.octaneRating() == 96; });
  ASSERT_NE(it, perf.end());
  std::vector<std::uint16_t> mph;
  for (const auto &a : it->acceleration()) {
    mph.push_back(a.mph());
  }
  EXPECT_EQ(mph, (std::vector<std::uint16_t>{10, 20}));
  EXPECT_EQ(std::next(it), perf.end());
  EXPECT_EQ(d.manufacturer(), "Honda");
  EXPECT_TRUE(d.ok());
}

TEST(Iterators, RangeForReadsEntriesAndTheirVarData) {
  const std::vector<std::uint8_t> bytes = encode(3);
  Car::Decoder d(bytes.data(), bytes.size());
  std::vector<std::string> usage;
  for (auto &f : d.fuelFigures()) {
    usage.emplace_back(f.usageDescription());
  }
  EXPECT_EQ(usage, (std::vector<std::string>{"Urban Cycle", "Combined Cycle", "Highway Cycle"}));
  int entries = 0;
  for (const auto &p : d.performanceFigures()) {
    for (auto a : p.acceleration()) { // an entry is a small view: by value
      EXPECT_EQ(a.mph() % 10, 0);
      ++entries;
    }
  }
  EXPECT_EQ(entries, 6);
  EXPECT_EQ(d.manufacturer(), "Honda"); // var data in schema order
  EXPECT_EQ(d.model(), "Civic");
  EXPECT_EQ(d.activationCode(), "x");
  EXPECT_EQ(d.encoded_length(), bytes.size());
}

TEST(Iterators, TheNextCursorStillWorks) {
  const std::vector<std::uint8_t> bytes = encode(1);
  Car::Decoder d(bytes.data(), bytes.size());
  auto fuel = d.fuelFigures();
  std::vector<std::uint16_t> speeds;
  while (fuel.next()) {
    speeds.push_back(fuel.speed());
    (void)fuel.usageDescription();
  }
  EXPECT_EQ(speeds, (std::vector<std::uint16_t>{30, 55, 75}));
  EXPECT_TRUE(d.ok());
}

} // namespace
