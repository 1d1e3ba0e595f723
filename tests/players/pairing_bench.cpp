// The cost of a pairing wave: pools of 1,000 and 10,000 players waiting (ratings spread as a
// normal law around 1500, waits up to a minute, one in seven just out of a game), nine waves each;
// prints the time of a wave (min / median / max) and how many it paired. A benchmark, not a test.
//   build/tests/players/players_pairing_bench
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "bc/players/pairing.hpp"

int main() {
  using bc::players::Waiter;
  constexpr std::int64_t kNow = 1'800'000'000'000;
  for (std::size_t size : {1'000u, 10'000u}) {
    std::mt19937_64 rng(size);
    std::normal_distribution<double> rating(1500, 300);
    std::vector<Waiter> pool;
    for (std::uint64_t k = 0; k < size; ++k) {
      const auto waited = static_cast<std::int64_t>(rng() % 60'000);
      pool.push_back(Waiter{k + 1, rating(rng), kNow - waited,
                            k % 7 == 0 ? std::optional<std::uint64_t>(k + 2) : std::nullopt});
    }
    std::vector<double> ms;
    std::size_t paired = 0;
    for (int wave = 0; wave < 9; ++wave) {
      const auto t0 = std::chrono::steady_clock::now();
      const auto pairs = bc::players::pair_wave(pool, kNow);
      ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      paired = pairs.size() * 2;
    }
    std::sort(ms.begin(), ms.end());
    std::printf(
        "pairing wave, %zu waiting: %.2f / %.2f / %.2f ms (min / median / max of 9); %zu paired, "
        "%zu left waiting\n",
        size, ms.front(), ms[ms.size() / 2], ms.back(), paired, size - paired);
  }
}
