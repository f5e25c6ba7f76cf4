#include "laws/contact_point.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "laws/coulomb.h"
#include "laws/normal_laws.h"

namespace jointdyn::laws {
namespace {

// A contact point with its committed and trial history (the LawPoint protocol).
class Walker {
 public:
  explicit Walker(const ContactPoint& point)
      : point_(point), committed_(point.state_size()), trial_(point.state_size()) {
    point_.InitState(committed_);
    trial_ = committed_;
  }
  Status Trial(const ContactInput& in, ContactResponse& out) {
    return point_.Evaluate(in, committed_, trial_, out);
  }
  // The Coulomb law switches inside Evaluate (PostNewtonUpdate returns 0), so a step is
  // a trial followed by a commit.
  Status Step(const ContactInput& in, ContactResponse& out) {
    Status status = Trial(in, out);
    if (status) committed_ = trial_;
    return status;
  }

 private:
  const ContactPoint& point_;
  std::vector<double> committed_;
  std::vector<double> trial_;
};

struct TangentCase {
  std::string name;
  ContactPoint point;
  double slip_scale;      // a few stick ranges [m]
  double gap_scale;       // typical penetration [m]
  double gap_rate_scale;  // typical gap rate [m/s]
};

std::vector<TangentCase> TangentCases() {
  // Per-area laws: seed 003 table 4.6 (A), (E), (F) with a Coulomb law of stick range
  // 0.3 * 1 MPa / 2e11 Pa/m = 1.5 um; seed 002 belt drive (LN with damping, mu_k = 5e9).
  const auto coulomb = [](double c1, int dim) {
    return std::make_shared<CoulombLaw>(CoulombParams{.c1 = c1, .c2 = 1e9, .mu = 0.3}, dim);
  };
  std::vector<TangentCase> cases;
  cases.push_back({"linear_coulomb_2d",
                   ContactPoint(std::make_shared<LinearPenaltyLaw>(LinearPenaltyParams{4e11}),
                                coulomb(2e11, 2)),
                   3e-6, 1e-6, 1e-3});
  cases.push_back({"quadratic_linear_coulomb_1d",
                   ContactPoint(std::make_shared<QuadraticLinearLaw>(
                                    QuadraticLinearParams{.eps = 5.7e11, .g0 = 0.0, .g1 = -1.5e-6}),
                                coulomb(2e11, 1)),
                   3e-6, 1e-6, 1e-3});
  cases.push_back({"joint_exponential_coulomb_2d",
                   ContactPoint(std::make_shared<JointExponentialLaw>(JointExponentialParams{
                                    .eps = 6.17e11, .lambda = 2e5, .g0 = 0.0}),
                                coulomb(2e11, 2)),
                   3e-6, 1e-6, 1e-3});
  cases.push_back({"lankarani_nikravesh_coulomb_2d",
                   ContactPoint(std::make_shared<LankaraniNikraveshLaw>(LankaraniNikraveshParams{
                                    .k_c = 4e9, .n = 1.0, .d_c = 8e4, .chi = 0.0}),
                                coulomb(5e9, 2)),
                   3e-6, 1e-5, 1e-2});
  for (int dim : {1, 2})
    cases.push_back({"node_to_node_" + std::to_string(dim) + "d",
                     MakeNodeToNodeElement({.k_t = 1e7, .k_n = 2e7, .mu = 0.4, .n0 = 100.0}, dim),
                     1e-5, 5e-6, 1e-3});
  return cases;
}

// Central differences of [tau_x, tau_y, p] with respect to s_x, s_y, g (columns 0-2) and
// g_dot (column 3), from the walker's committed history; `smooth` is false when a
// perturbation changes the state or the one-sided slopes disagree (a switching point),
// as in conformance.cc.
struct Differences {
  Eigen::Matrix<double, 3, 4> d = Eigen::Matrix<double, 3, 4>::Zero();
  std::array<bool, 4> smooth{true, true, true, true};
};

Vec3 Outputs(const ContactResponse& r) { return Vec3(r.traction.x(), r.traction.y(), r.pressure); }

Differences CentralDifferences(Walker& walker, const ContactInput& in,
                               const std::array<double, 4>& h) {
  Differences result;
  ContactResponse center;
  EXPECT_TRUE(walker.Trial(in, center).ok);
  for (int k = 0; k < 4; ++k) {
    ContactInput plus = in, minus = in;
    double* p = k < 2 ? &plus.slip[k] : k == 2 ? &plus.gap : &plus.gap_rate;
    double* m = k < 2 ? &minus.slip[k] : k == 2 ? &minus.gap : &minus.gap_rate;
    *p += h[k];
    *m -= h[k];
    ContactResponse rp, rm;
    EXPECT_TRUE(walker.Trial(plus, rp).ok);
    EXPECT_TRUE(walker.Trial(minus, rm).ok);
    result.d.col(k) = (Outputs(rp) - Outputs(rm)) / (2.0 * h[k]);
    const Vec3 forward = (Outputs(rp) - Outputs(center)) / h[k];
    const Vec3 backward = (Outputs(center) - Outputs(rm)) / h[k];
    const double scale = std::max(forward.norm(), backward.norm());
    result.smooth[k] = rp.state == center.state && rm.state == center.state &&
                       (forward - backward).norm() <= 1e-3 * scale;
  }
  return result;
}

TEST(ContactPoint, TangentMatchesCentralDifferencesAtRandomStates) {
  constexpr double kTolerance = 1e-6;  // relative, per column (the brief's figure)
  for (TangentCase& c : TangentCases()) {
    std::mt19937 rng(20261123);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    const double onset = c.point.normal_law().contact_onset_gap();
    // Gaps from 0.3 gap_scale open to 2.7 gap_scale penetrated.
    const auto random_gap = [&] { return onset - c.gap_scale * (1.2 + 1.5 * unit(rng)); };
    const auto random_slip = [&] {
      return Vec2(c.slip_scale * unit(rng), c.point.dim() == 2 ? c.slip_scale * unit(rng) : 0.0);
    };
    std::map<ContactState, int> checked;
    int total = 0;
    constexpr int kStates = 300;
    for (int state = 0; state < kStates; ++state) {
      Walker walker(c.point);
      Vec2 slip = Vec2::Zero();
      const int steps = std::uniform_int_distribution<int>(0, 12)(rng);
      for (int i = 0; i < steps; ++i) {
        slip += random_slip();
        ContactResponse r;
        ASSERT_TRUE(walker.Step({slip, random_gap(), c.gap_rate_scale * unit(rng), 1e-3}, r).ok);
      }
      const ContactInput in{slip + random_slip(), random_gap(), c.gap_rate_scale * unit(rng), 1e-3};
      ContactResponse analytic;
      ASSERT_TRUE(walker.Trial(in, analytic).ok);
      const Differences fd = CentralDifferences(
          walker, in,
          {1e-6 * c.slip_scale, 1e-6 * c.slip_scale, 1e-6 * c.gap_scale, 1e-6 * c.gap_rate_scale});
      if (!std::all_of(fd.smooth.begin(), fd.smooth.end(), [](bool s) { return s; })) continue;
      Eigen::Matrix<double, 3, 4> exact;
      exact.leftCols<3>() = analytic.tangent;
      exact.col(3) << analytic.d_traction_d_gap_rate, analytic.d_pressure_d_gap_rate;
      for (int k = 0; k < 4; ++k) {
        const double scale = std::max(exact.col(k).norm(), fd.d.col(k).norm());
        EXPECT_LE((exact.col(k) - fd.d.col(k)).norm(), kTolerance * scale)
            << c.name << " state " << state << " column " << k << " (" << ToString(analytic.state)
            << ")\nanalytic\n"
            << exact << "\ncentral differences\n"
            << fd.d;
      }
      ++checked[analytic.state];
      ++total;
    }
    EXPECT_GE(total, kStates / 2) << c.name << ": too many states at switching points";
    for (ContactState s : {ContactState::kOpen, ContactState::kStick, ContactState::kSlip})
      EXPECT_GT(checked[s], 0) << c.name << " never checked in state " << ToString(s);
  }
}

TEST(ContactPoint, CouplesTheLawsThroughThePressure) {
  const auto normal = std::make_shared<LankaraniNikraveshLaw>(
      LankaraniNikraveshParams{.k_c = 4e9, .n = 1.0, .d_c = 8e4, .chi = 0.0});
  const auto tangential =
      std::make_shared<CoulombLaw>(CoulombParams{.c1 = 5e9, .c2 = 1e8, .mu = 0.3}, 2);
  const ContactPoint point(normal, tangential);
  const ContactInput in{Vec2(3e-6, -1e-6), -1e-5, -0.01, 1e-3};
  std::vector<double> committed(2, 0.0), trial(2), trial_direct(2);
  ContactResponse r;
  ASSERT_TRUE(point.Evaluate(in, committed, trial, r).ok);
  // The same two laws evaluated by hand in sequence.
  const NormalResponse n = normal->Evaluate(in.gap, in.gap_rate);
  TangentialResponse t;
  ASSERT_TRUE(tangential->Evaluate({in.slip, n.pressure, in.dt}, committed, trial_direct, t).ok);
  EXPECT_EQ(r.pressure, n.pressure);
  EXPECT_EQ(r.traction, t.traction);
  EXPECT_EQ(r.state, t.state);
  EXPECT_EQ(trial, trial_direct);
  EXPECT_EQ(r.stored_energy, n.stored_energy + t.stored_energy);
  EXPECT_EQ(r.tangent(2, 2), n.d_pressure_d_gap);
  EXPECT_EQ(r.d_pressure_d_gap_rate, n.d_pressure_d_gap_rate);
  EXPECT_EQ(r.state, ContactState::kSlip);  // 5e9 * 3.16e-6 = 1.58e4 Pa > 0.3 * 4.08e4 Pa
  EXPECT_EQ(point.PostNewtonUpdate(in, trial, committed), 0.0);
}

TEST(ContactPoint, NonFinitePressureIsAFailureNotNaN) {
  const ContactPoint point(
      std::make_shared<JointExponentialLaw>(
          JointExponentialParams{.eps = 6.17e11, .lambda = 2e5, .g0 = 0.0}),
      std::make_shared<CoulombLaw>(CoulombParams{.c1 = 2e11, .c2 = 0.0, .mu = 0.3}, 2));
  std::vector<double> committed(2, 0.0), trial(2);
  ContactResponse r;
  // z = lambda * 1e-2 m = 2000: exp overflows.
  const Status status = point.Evaluate({Vec2(1e-6, 0.0), -1e-2, 0.0, 1e-3}, committed, trial, r);
  EXPECT_FALSE(status.ok);
  EXPECT_NE(status.message.find("joint_exponential"), std::string::npos) << status.message;
}

// Independent implementation of seed 004 eq. 13-14: the normal force from the approach v,
// a stick spring k_t between the node and a slider g, the slider moving (slip) when the
// spring force would exceed mu f_n, and zero force in separation, where the slider follows
// the node so that the next contact starts in stick with no tangential force (the
// transition criteria of seed 004's ref. [4]). 1D: scalar with sgn; 2D: the slider moves
// along the trial spring force (isotropic friction, seed 004 fig. 2b).
class ReferenceElement {
 public:
  ReferenceElement(double k_t, double k_n, double mu, double n0, int dim)
      : k_t_(k_t), k_n_(k_n), mu_(mu), n0_(n0), dim_(dim) {}

  // u, w: tangential relative displacements, v: normal approach.
  void Step(double u, double w, double v, Vec2& f_t, double& f_n, ContactState& state) {
    f_n = std::max(n0_ + k_n_ * v, 0.0);  // eq. 13
    if (dim_ == 1) {
      f_t.y() = 0.0;
      if (f_n == 0.0) {
        state = ContactState::kOpen;
        f_t.x() = 0.0;
        g_x_ = u;
        return;
      }
      const double stick = k_t_ * (u - g_x_);  // eq. 14, stick
      if (std::abs(stick) <= mu_ * f_n) {
        state = ContactState::kStick;
        f_t.x() = stick;
      } else {  // eq. 14, slip: the slider moves the way the spring pulls it
        state = ContactState::kSlip;
        f_t.x() = mu_ * f_n * (stick > 0.0 ? 1.0 : -1.0);
        g_x_ = u - f_t.x() / k_t_;
      }
      return;
    }
    const Vec2 s(u, w);
    if (f_n == 0.0) {
      state = ContactState::kOpen;
      f_t.setZero();
      g_ = s;
      return;
    }
    const Vec2 stick = k_t_ * (s - g_);
    if (stick.norm() <= mu_ * f_n) {
      state = ContactState::kStick;
      f_t = stick;
    } else {
      state = ContactState::kSlip;
      f_t = (mu_ * f_n) * (stick / stick.norm());
      g_ = s - f_t / k_t_;
    }
  }

 private:
  double k_t_, k_n_, mu_, n0_;
  int dim_;
  double g_x_ = 0.0;
  Vec2 g_ = Vec2::Zero();
};

TEST(NodeToNode, MatchesIndependentEq13And14OnA3DHistory) {
  const double k_t = 1e7, k_n = 2e7, mu = 0.4, n0 = 100.0;  // N/m, N/m, -, N
  // u, w: tangential amplitudes 20 and 15 um against a stick range mu f_n / k_t <= 12 um;
  // v: normal approach amplitude 10 um, f_n = max(100 + 200 sin, 0) separates for a third
  // of each cycle. Different phases so stick, slip and separation all occur.
  const double amp_u = 2e-5, amp_w = 1.5e-5, amp_v = 1e-5;
  for (int dim : {1, 2}) {
    const ContactPoint element = MakeNodeToNodeElement({k_t, k_n, mu, n0}, dim);
    Walker walker(element);
    ReferenceElement reference(k_t, k_n, mu, n0, dim);
    std::map<ContactState, int> seen;
    const int per_cycle = 360;
    for (int i = 0; i <= 3 * per_cycle; ++i) {
      const double phase = 2 * M_PI * i / per_cycle;
      const double u = amp_u * std::sin(phase), w = amp_w * std::sin(phase + 0.4),
                   v = amp_v * std::sin(phase + 2.3);
      ContactResponse r;
      ASSERT_TRUE(walker.Step({Vec2(u, w), -v, 0.0, 1e-3}, r).ok);  // gap g = -v
      Vec2 f_t;
      double f_n;
      ContactState state;
      reference.Step(u, w, v, f_t, f_n, state);
      ASSERT_EQ(r.state, state) << "dim " << dim << " step " << i;
      EXPECT_NEAR(r.pressure, f_n, 1e-12 * f_n) << "dim " << dim << " step " << i;
      EXPECT_NEAR((r.traction - f_t).norm(), 0.0, 1e-12 * f_t.norm())
          << "dim " << dim << " step " << i;
      ++seen[state];
    }
    for (ContactState s : {ContactState::kOpen, ContactState::kStick, ContactState::kSlip})
      EXPECT_GT(seen[s], 0) << "dim " << dim << ": state " << ToString(s) << " never occurred";
  }
}

// Circular tangential path s = R (cos theta, sin theta) at constant f_n, R > delta =
// mu f_n / k_t. Continuous time: in gross slip the spring stretch d = s - x (x the slider)
// has the constant length delta, so |f_t| = mu f_n, and the slider moves along d (the
// friction force is parallel to the slip velocity). In the steady state x runs on a
// concentric circle of radius r with d tangent to it, so R^2 = r^2 + delta^2. The elastic
// energy |f_t|^2 / (2 k_t) is constant, so over a cycle the work equals the dissipation,
// mu f_n times the slider's path: D = 2 pi mu f_n sqrt(R^2 - delta^2). Of the drive path
// 2 pi R only the component along the friction force does work; the rest turns the
// stretched spring, which stores and returns the same energy.
//
// The incremental law (N steps, angle step a = 2 pi / N) has the discrete steady state:
// x_{k+1} lies on the segment from x_k to s_{k+1} at distance delta from s_{k+1}; with x on
// a circle of radius r, the triangle (centre, x_{k+1}, s_{k+1}) has the angle pi/2 + a/2 at
// x_{k+1}, so R^2 = r^2 + delta^2 + 2 r delta sin(a/2). The friction force keeps the
// magnitude mu f_n and makes the angle beta with s, sin(beta) = r cos(a/2) / R (law of
// sines), so the trapezoidal work per step is mu f_n cos(a/2) * 2 R sin(a/2) * sin(beta),
// per cycle W_N = N mu f_n r sin(a) cos(a/2). W_N -> D with relative error
// ~ delta pi / (N r) (first order, from r).
TEST(NodeToNode, CircularPathGrossSlipTractionAndDissipation) {
  const double k_t = 1e7, k_n = 2e7, mu = 0.4, n0 = 100.0;
  const ContactPoint element = MakeNodeToNodeElement({k_t, k_n, mu, n0}, 2);
  const double f_n = n0;                // gap g = 0: f_n = n0
  const double delta = mu * f_n / k_t;  // 4 um
  const double radius = 10 * delta;
  for (const int per_cycle : {2000, 20000}) {
    Walker walker(element);
    ContactResponse r, previous;
    const int cycles = 4;  // the transient decays like exp(-path / delta): gone in one cycle
    double work = 0.0, energy_start = 0.0;
    for (int i = 0; i <= cycles * per_cycle; ++i) {
      const double theta = 2 * M_PI * i / per_cycle;
      const Vec2 s(radius * std::cos(theta), radius * std::sin(theta));
      ASSERT_TRUE(walker.Step({s, 0.0, 0.0, 1e-3}, r).ok);
      if (i > (cycles - 1) * per_cycle) {
        ASSERT_EQ(r.state, ContactState::kSlip) << i;
        EXPECT_NEAR(r.traction.norm(), mu * f_n, 1e-12 * mu * f_n) << i;
        const double theta_prev = 2 * M_PI * (i - 1) / per_cycle;
        const Vec2 ds = s - radius * Vec2(std::cos(theta_prev), std::sin(theta_prev));
        work += 0.5 * (r.traction + previous.traction).dot(ds);
      }
      if (i == (cycles - 1) * per_cycle) energy_start = r.stored_energy;
      previous = r;
    }
    const double dissipation = work - (r.stored_energy - energy_start);
    const double a = 2 * M_PI / per_cycle;
    const double r_discrete =
        -delta * std::sin(a / 2) +
        std::sqrt(std::pow(delta * std::sin(a / 2), 2) + radius * radius - delta * delta);
    const double discrete = per_cycle * mu * f_n * r_discrete * std::sin(a) * std::cos(a / 2);
    // Round-off of the N-term sum: 1e-10 relative.
    EXPECT_NEAR(dissipation, discrete, 1e-10 * discrete) << "N = " << per_cycle;
    const double r_continuous = std::sqrt(radius * radius - delta * delta);
    const double continuous = 2 * M_PI * mu * f_n * r_continuous;
    // Twice the leading discretization error delta pi / (N r).
    const double bound = 2 * delta * M_PI / (per_cycle * r_continuous);
    EXPECT_NEAR(dissipation / continuous, 1.0, bound) << "N = " << per_cycle;
  }
}

}  // namespace
}  // namespace jointdyn::laws
