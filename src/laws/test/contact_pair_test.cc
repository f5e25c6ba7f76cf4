// The contact pair's closing between two states (laws/contact_pair.h): the offset at the
// onset, linear between the committed (open) state and this one, so that the response is
// continuous when the closing moves from one state to the next; its tangent against
// central differences; the virgin history (gap at the onset: no interpolation); the start of
// a periodic motion and the traction a pair releases when it opens between two states.
#include "laws/contact_pair.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <vector>

#include "laws/coulomb.h"
#include "laws/normal_laws.h"

namespace jointdyn::laws {
namespace {

constexpr double kEps = 5e13, kC1 = 9.5e12, kC2 = 5e11, kMu = 0.15;  // [Pa/m], [-]

ContactPair Pair() {
  return ContactPair(std::make_shared<LinearPenaltyLaw>(LinearPenaltyParams{kEps}),
                     std::make_shared<CoulombLaw>(CoulombParams{kC1, kC2, kMu}, 2), 0.0);
}

// The committed history of an open pair at tangential position u_c and gap g_c > 0.
std::vector<double> OpenAt(const ContactPair& pair, double u1, double u2, double gap) {
  std::vector<double> history(pair.state_size());
  pair.InitState(history);
  history[pair.law_state_size()] = u1;
  history[pair.law_state_size() + 1] = u2;
  history[pair.law_state_size() + 2] = gap;
  return history;
}

PairResponse Evaluate(const ContactPair& pair, const std::vector<double>& committed, const Vec3& z,
                      std::vector<double>* trial = nullptr) {
  std::vector<double> out(pair.state_size());
  PairResponse response;
  EXPECT_TRUE(pair.Evaluate({.z = z}, committed, out, response).ok);
  if (trial) *trial = out;
  return response;
}

TEST(ContactPair, ClosingTakesTheOffsetAtTheOnset) {
  const ContactPair pair = Pair();
  // Open at gap 3e-10 m and u = (1, -2) nm; now at gap -1e-10 m and u = (5, 2) nm: it
  // closed at theta = 3/4 of the way, where u = (4, 1) nm. Slip (1, 1) nm: the stick
  // trial c1 |s| = 1.3e4 Pa exceeds mu p = 0.15 * 5e13 * 1e-10 = 750 Pa, so the slider
  // slips and tau = mu p s / |s| + c2 s.
  const std::vector<double> committed = OpenAt(pair, 1e-9, -2e-9, 3e-10);
  std::vector<double> trial;
  const PairResponse r = Evaluate(pair, committed, Vec3(5e-9, 2e-9, -1e-10), &trial);
  const Vec2 slip(1e-9, 1e-9);
  EXPECT_NEAR(r.kinematics(0), slip(0), 1e-24);
  EXPECT_NEAR(r.kinematics(1), slip(1), 1e-24);
  EXPECT_NEAR(trial[pair.law_state_size()], 4e-9, 1e-24);
  EXPECT_NEAR(trial[pair.law_state_size() + 1], 1e-9, 1e-24);
  EXPECT_DOUBLE_EQ(trial[pair.law_state_size() + 2], -1e-10);
  const double p = kEps * 1e-10;
  EXPECT_NEAR(r.stress(2), -p, 1e-9);
  const Vec2 tau = kMu * p * slip.normalized() + kC2 * slip;
  EXPECT_NEAR(r.stress(0), tau(0), 1e-9 * tau.norm());
  EXPECT_NEAR(r.stress(1), tau(1), 1e-9 * tau.norm());
}

// Three states A (open at u = 0), B (u = (1, -2) nm, at the onset) and C (closed): with B
// just open and just closed the closing moves from the increment B-C to A-B, and the
// traction at C changes by O(delta) (measured 2e-3 Pa of 2.5e3 Pa); with the offset of
// the last open state instead (A's when B is closed, B's when it is open) it jumped by
// c2 (u_B - u_A) = (500, -1000) Pa.
TEST(ContactPair, ResponseIsContinuousWhenTheClosingMovesBetweenStates) {
  const ContactPair pair = Pair();
  const double delta = 1e-16;  // [m] about the onset
  const Vec3 c(5e-9, 2e-9, -1e-10);
  const PairResponse b_open = Evaluate(pair, OpenAt(pair, 1e-9, -2e-9, delta), c);
  std::vector<double> b_closed;
  (void)Evaluate(pair, OpenAt(pair, 0.0, 0.0, 3e-10), Vec3(1e-9, -2e-9, -delta), &b_closed);
  const PairResponse closed = Evaluate(pair, b_closed, c);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(b_open.stress(i), closed.stress(i), 1e-2) << i;
}

TEST(ContactPair, ClosingTangentMatchesDifferences) {
  const ContactPair pair = Pair();
  const std::vector<double> committed = OpenAt(pair, 1e-9, -2e-9, 3e-10);
  for (const Vec3& z : {Vec3(5e-9, 2e-9, -4e-10), Vec3(1.2e-9, -1.9e-9, -5e-10)}) {  // slip, stick
    const PairResponse r = Evaluate(pair, committed, z);
    for (int j = 0; j < 3; ++j) {
      const double h = 1e-14;
      const PairResponse plus = Evaluate(pair, committed, z + h * Vec3::Unit(j));
      const PairResponse minus = Evaluate(pair, committed, z - h * Vec3::Unit(j));
      const Vec3 difference = (plus.stress - minus.stress) / (2.0 * h);
      EXPECT_LT((r.tangent.col(j) - difference).norm(), 1e-6 * r.tangent.norm())
          << "column " << j << " at " << z.transpose();
    }
  }
}

TEST(ContactPair, VirginHistoryClosesWithoutInterpolation) {
  const ContactPair pair = Pair();
  std::vector<double> virgin(pair.state_size());
  pair.InitState(virgin);
  EXPECT_EQ(virgin[pair.law_state_size() + 2], 0.0);  // the linear penalty's onset
  const PairResponse r = Evaluate(pair, virgin, Vec3(1e-12, 0.0, -1e-10));
  EXPECT_NEAR(r.kinematics(0), 1e-12, 1e-27);  // slip from the zero offset
  EXPECT_NEAR(r.stress(0), (kC1 + kC2) * 1e-12, 1e-9);
}

// The start of a periodic motion (ContactPair::PeriodicStart) for an unpreloaded pair (virgin
// history at the onset) pressed at all samples: as its largest gap approaches the onset the
// offset tends to u at that sample (where a pair that opens there takes its offset); its
// derivative in the samples against central differences; a pressed start and a pair that
// opens keep their history.
TEST(ContactPair, PeriodicStartOfAnUnpressedPairPressedOverThePeriod) {
  const ContactPair pair = Pair();
  const int n = 16, law = pair.law_state_size();
  MatX z(n, 3);
  for (int j = 0; j < n; ++j) {
    const double theta = 2.0 * std::numbers::pi * j / n;
    z.row(j) << 1e-8 * std::cos(theta), 2e-9 * std::sin(theta), 1e-9 * std::cos(theta - 0.3);
  }
  Eigen::Index top = 0;
  const double largest = z.col(2).maxCoeff(&top);
  std::vector<double> virgin(pair.state_size());
  pair.InitState(virgin);
  auto start = [&](double shift, MatX* d_state = nullptr) {
    MatX shifted = z;
    shifted.col(2).array() += shift - largest;  // largest gap: shift
    std::vector<double> state = virgin;
    EXPECT_TRUE(pair.PeriodicStart(state, shifted, 0.0, d_state));
    return state;
  };
  const std::vector<double> grazing = start(-1e-16);
  EXPECT_NEAR(grazing[law], z(top, 0), 1e-6 * 1e-8);
  EXPECT_NEAR(grazing[law + 1], z(top, 1), 1e-6 * 1e-8);
  EXPECT_NEAR(grazing[law + 2], z(0, 2) - largest - 1e-16, 1e-24);  // g_0: no closing there
  for (int i = 0; i < law; ++i) EXPECT_EQ(grazing[i], virgin[i]);   // virgin friction state

  // Derivative (blend over several samples) against central differences.
  MatX d_state;
  start(-5e-10, &d_state);
  MatX shifted = z;
  shifted.col(2).array() += -5e-10 - largest;
  const double h = 1e-14;
  double error = 0.0;
  for (int k = 0; k < 3; ++k) {
    for (int j = 0; j < n; ++j) {
      MatX plus = shifted, minus = shifted;
      plus(j, k) += h;
      minus(j, k) -= h;
      std::vector<double> sp = virgin, sm = virgin;
      pair.PeriodicStart(sp, plus, 0.0, nullptr);
      pair.PeriodicStart(sm, minus, 0.0, nullptr);
      for (int i = law; i < pair.state_size(); ++i)
        error = std::max(error, std::abs((sp[i] - sm[i]) / (2.0 * h) - d_state(i, k * n + j)));
    }
  }
  EXPECT_LT(error, 1e-6);  // entries of order 1
  EXPECT_GT(d_state.cwiseAbs().maxCoeff(), 0.1);

  std::vector<double> pressed = OpenAt(pair, 1e-9, 0.0, -1e-9);  // pressed at the start
  const std::vector<double> kept = pressed;
  EXPECT_FALSE(pair.PeriodicStart(pressed, z.array() - 2e-9, 0.0, nullptr));
  EXPECT_EQ(pressed, kept);
  std::vector<double> opening = virgin;
  EXPECT_FALSE(pair.PeriodicStart(opening, z, 0.0, nullptr));  // open at some samples
  EXPECT_EQ(opening, virgin);
}

// A pair closed in the committed state (gap -2e-10 m, offset (1, -2) nm) that opens to gap
// 6e-10 m at u = (4, 2) nm (ContactPair::ReleaseBetween): it was closed for theta = 1/4 of
// the increment and releases the traction at contact, c2 (u - s*_c) (the slider's limit
// mu p -> 0), with its derivatives against central differences; nothing for an increment
// that stays open or closed, or a frictionless pair.
TEST(ContactPair, ReleaseOfAPairThatOpensBetweenStates) {
  const ContactPair pair = Pair();
  const std::vector<double> committed = OpenAt(pair, 1e-9, -2e-9, -2e-10);
  auto release = [&](const Vec3& z, const std::vector<double>& from) {
    ContactPair::Release out;
    EXPECT_TRUE(pair.ReleaseBetween(from, {.z = z}, out).ok);
    return out;
  };
  const Vec3 z(4e-9, 2e-9, 6e-10);
  const ContactPair::Release r = release(z, committed);
  EXPECT_DOUBLE_EQ(r.theta, 0.25);
  EXPECT_NEAR(r.traction(0), kC2 * 3e-9, 1e-9 * kC2 * 3e-9);
  EXPECT_NEAR(r.traction(1), kC2 * 4e-9, 1e-9 * kC2 * 4e-9);
  const double h = 1e-14;
  const Vec2 d_theta_d_gap((release(z + h * Vec3::UnitZ(), committed).theta -
                            release(z - h * Vec3::UnitZ(), committed).theta) /
                               (2.0 * h),
                           0.0);
  EXPECT_NEAR(r.d_gap, d_theta_d_gap(0), 1e-6 * std::abs(r.d_gap));
  std::vector<double> plus = committed, minus = committed;
  plus.back() += h;
  minus.back() -= h;
  const double d_theta_d_committed = (release(z, plus).theta - release(z, minus).theta) / (2 * h);
  EXPECT_NEAR(r.d_committed_gap, d_theta_d_committed, 1e-6 * std::abs(r.d_committed_gap));
  const Vec2 d_traction = (release(z + h * Vec3::UnitX(), committed).traction -
                           release(z - h * Vec3::UnitX(), committed).traction) /
                          (2.0 * h);
  EXPECT_NEAR((r.d_traction_d_slip.col(0) - d_traction).norm(), 0.0, 1e-6 * kC2);

  EXPECT_EQ(release(z, OpenAt(pair, 0.0, 0.0, 1e-10)).theta, 0.0);     // open before
  EXPECT_EQ(release(Vec3(4e-9, 2e-9, -1e-10), committed).theta, 0.0);  // still closed
  const ContactPair frictionless(std::make_shared<LinearPenaltyLaw>(LinearPenaltyParams{kEps}),
                                 nullptr, 0.0);
  std::vector<double> history(frictionless.state_size());
  frictionless.InitState(history);
  history.back() = -2e-10;
  ContactPair::Release none;
  EXPECT_TRUE(frictionless.ReleaseBetween(history, {.z = z}, none).ok);
  EXPECT_EQ(none.theta, 0.0);
}

}  // namespace
}  // namespace jointdyn::laws
