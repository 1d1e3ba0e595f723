// Glicko-2's steps as Glickman numbers them; the scale factor 173.7178 is 400 / ln 10.
#include "bc/players/glicko2.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace bc::players {
namespace {

constexpr double kScale = 173.7178;
constexpr double kMsPerDay = 24.0 * 60 * 60 * 1000;

double g(double phi) {
  return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

double expected(double mu, double mu_j, double phi_j) {
  return 1.0 / (1.0 + std::exp(-g(phi_j) * (mu - mu_j)));
}

/** Step 5: the new volatility, by the Illinois algorithm on f(x) = 0. */
double new_volatility(double phi, double sigma, double v, double delta, double tau, double eps) {
  const double a = std::log(sigma * sigma);
  const auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
  };
  double A = a;
  double B;
  if (delta * delta > phi * phi + v) {
    B = std::log(delta * delta - phi * phi - v);
  } else {
    int k = 1;
    while (f(a - k * tau) < 0 && k < 1000) ++k;
    B = a - k * tau;
  }
  double fA = f(A);
  double fB = f(B);
  for (int i = 0; i < 1000 && std::abs(B - A) > eps; ++i) {
    const double C = A + (A - B) * fA / (fB - fA);
    const double fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  return std::exp(A / 2);
}

Rating bounded(Rating r, const Glicko2Params& p) {
  r.deviation = std::clamp(r.deviation, p.min_deviation, p.max_deviation);
  r.volatility = std::min(r.volatility, p.max_volatility);
  return r;
}

}  // namespace

Rating glicko2_update(const Rating& player, std::span<const Outcome> outcomes, double periods,
                      double tau, double convergence) {
  const double mu = (player.rating - 1500.0) / kScale;
  const double phi = player.deviation / kScale;
  const double sigma = player.volatility;
  Rating out = player;
  if (outcomes.empty()) {
    out.deviation = std::sqrt(phi * phi + periods * sigma * sigma) * kScale;
    return out;
  }
  double v_inv = 0;
  double sum = 0;
  for (const Outcome& o : outcomes) {
    const double mu_j = (o.opponent_rating - 1500.0) / kScale;
    const double phi_j = o.opponent_deviation / kScale;
    const double e = expected(mu, mu_j, phi_j);
    v_inv += g(phi_j) * g(phi_j) * e * (1 - e);
    sum += g(phi_j) * (o.score - e);
  }
  const double v = 1.0 / v_inv;
  const double delta = v * sum;
  const double sigma2 = new_volatility(phi, sigma, v, delta, tau, convergence);
  const double phi_star = std::sqrt(phi * phi + periods * sigma2 * sigma2);
  const double phi2 = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
  const double mu2 = mu + phi2 * phi2 * sum;
  out.rating = mu2 * kScale + 1500.0;
  out.deviation = phi2 * kScale;
  out.volatility = sigma2;
  return out;
}

double rating_periods(const Rating& r, std::int64_t now_ms, const Glicko2Params& p) {
  if (!r.last_game_ms || now_ms <= *r.last_game_ms) return 0;
  return static_cast<double>(now_ms - *r.last_game_ms) / kMsPerDay * p.rating_periods_per_day;
}

double current_deviation(const Rating& r, std::int64_t now_ms, const Glicko2Params& p) {
  const double grown = glicko2_update(r, {}, rating_periods(r, now_ms, p), p.tau).deviation;
  return std::clamp(grown, p.min_deviation, p.max_deviation);
}

bool provisional(const Rating& r, std::int64_t now_ms, const Glicko2Params& p) {
  return current_deviation(r, now_ms, p) >= p.provisional_deviation;
}

GameRatings rate_game(const Rating& a, const Rating& b, double score_a, std::int64_t now_ms,
                      const Glicko2Params& p) {
  // Each is rated against the other as they stood when the game ended.
  const Rating a0 = bounded(a, p);
  const Rating b0 = bounded(b, p);
  const Outcome for_a{b0.rating, current_deviation(b0, now_ms, p), score_a};
  const Outcome for_b{a0.rating, current_deviation(a0, now_ms, p), 1.0 - score_a};
  Rating a1 =
      glicko2_update(a0, std::span(&for_a, 1), rating_periods(a0, now_ms, p), p.tau, p.convergence);
  Rating b1 =
      glicko2_update(b0, std::span(&for_b, 1), rating_periods(b0, now_ms, p), p.tau, p.convergence);
  a1.last_game_ms = now_ms;
  b1.last_game_ms = now_ms;
  return {bounded(a1, p), bounded(b1, p)};
}

}  // namespace bc::players
