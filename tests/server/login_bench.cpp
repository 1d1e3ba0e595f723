// What a sign-in costs, side by side: a wrong password for a name that exists against any
// password for a name that does not (docs/PLAYERS.md: the same answer after the same work), at
// the server's own Argon2id cost, alternating so that both see the same machine. Prints figures;
// not run by ctest.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <vector>

#include "server/players/accounts.hpp"

using namespace bc::server;

namespace {

double ms(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

void print(const char* what, std::vector<double> v) {
  std::sort(v.begin(), v.end());
  std::printf("%-38s min %7.2f  median %7.2f  max %7.2f ms  (%zu)\n", what, v.front(),
              v[v.size() / 2], v.back(), v.size());
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
  auto store = bc::store::Store::open_memory();
  Accounts accounts(*store, PasswordCost::Interactive);
  auto body = [](const std::string& name, const std::string& password) {
    return nlohmann::json{{"name", name}, {"password", password}}.dump();
  };
  // One account a round (the limits count tries per name and per address).
  for (int i = 0; i < rounds; ++i) {
    auto a = accounts.signup(Caller{"", "10.0." + std::to_string(i) + ".1", "bench"},
                             body("Player" + std::to_string(i), "password1"));
    if (a.status != 200) {
      std::fprintf(stderr, "sign-up %d: %d %s\n", i, a.status, a.body.c_str());
      return 1;
    }
  }
  // The decoy is made at the first unknown name: once, before the figures.
  accounts.login(Caller{"", "10.9.9.9", "bench"}, body("Warmup", "password2"));
  std::vector<double> wrong, unknown, right;
  for (int i = 0; i < rounds; ++i) {
    const std::string n = std::to_string(i);
    auto t0 = std::chrono::steady_clock::now();
    auto w =
        accounts.login(Caller{"", "10.1." + n + ".1", "bench"}, body("Player" + n, "password2"));
    auto t1 = std::chrono::steady_clock::now();
    auto u =
        accounts.login(Caller{"", "10.2." + n + ".1", "bench"}, body("Nobody" + n, "password2"));
    auto t2 = std::chrono::steady_clock::now();
    auto r =
        accounts.login(Caller{"", "10.3." + n + ".1", "bench"}, body("Player" + n, "password1"));
    auto t3 = std::chrono::steady_clock::now();
    if (w.status != 401 || u.status != 401 || r.status != 200 || w.body != u.body) {
      std::fprintf(stderr, "round %d: %d %d %d\n", i, w.status, u.status, r.status);
      return 1;
    }
    wrong.push_back(ms(t1 - t0));
    unknown.push_back(ms(t2 - t1));
    right.push_back(ms(t3 - t2));
  }
  print("wrong password, name that exists", wrong);
  print("any password, name that does not", unknown);
  print("right password (a session written)", right);
  return 0;
}
