// One contact pair of a joint (seed 003 eq. 3.80): the pointwise kernel that the joint
// operator (joint/joint_operator.h) loops over in the time domain and harmonic balance
// marches through a period in the frequency domain (harmonic/point_kernel.h, PairKernel),
// so both evaluate the same pair.
//
// Input: the pair's relative displacement z = [u1, u2, un] in its local frame (the rows of
// the pair projection applied to the state) and the normal gap rate. Kinematics:
//   g = g0 + un,   s = (u1, u2) - s*,
// s* the tangential offset at contact closure. Laws: p = p(g, g_dot) >= 0 and
// tau = tau(s, p; history), or no friction. Output: the stress t = [tau1, tau2, -p] [Pa]
// and its tangent D = d t / d z (= d t / d[s1, s2, g]).
//
// Open pairs (p = 0, unilateral law) carry no traction; their offset follows u and their
// friction history is reset to the virgin state, so a pair that closes starts from zero
// slip in stick. A pair that closes between the committed state (open, g_c > onset) and
// this one (g < onset) takes as offset u at the onset, linear between the two:
//   s* = s*_c + theta (u - s*_c),   theta = (g_c - onset) / (g_c - g),
// so that the response is continuous in the states (with the offset of the last open
// state instead, a parallel slip stiffness c2 jumped by c2 times the last increment when
// the closing moved from one state to the next: harmonic balance, which solves all the
// period's samples at once, met residual jumps of 1e-5..6e-5 of the modal inertia force on
// the unpreloaded friction bar and stalled near resonance). A bilateral (bonded) law never opens:
// its pairs carry tension and keep their history. A pair at or just above the onset (g in [onset,
// onset + touch_band]) gets the closed side's normal tangent (its pressure stays 0), so that a
// Newton step from touching surfaces sees their contact stiffness.
//
// History: the friction law's (state_size() doubles) plus the offset s* (2) and the gap g
// (1; virgin: the onset, so that a virgin pair closes with theta = 0), held by the caller
// with the committed / trial protocol of TangentialLaw.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/status.h"
#include "core/types.h"
#include "laws/contact_point.h"
#include "laws/normal_law.h"
#include "laws/tangential_law.h"

namespace jointdyn::laws {

struct PairInput {
  Vec3 z = Vec3::Zero();   // relative displacement [u1, u2, un] [m]
  double gap_rate = 0.0;   // d un / dt [m/s]
  double initial_gap = 0;  // g0 [m]
  double dt = 0.0;         // length of the increment [s]
};

struct PairResponse {
  Vec3 kinematics = Vec3::Zero();            // [s1, s2, g] [m]
  Vec3 stress = Vec3::Zero();                // t = [tau1, tau2, -p] [Pa]
  Mat3 tangent = Mat3::Zero();               // d t / d z [Pa/m]
  Mat3 rate_tangent = Mat3::Zero();          // d t / d z_dot (gap-rate column only) [Pa s/m]
  ContactState state = ContactState::kOpen;  // frictionless closed pairs: kSlip
  double stored_energy = 0.0;                // normal + tangential recoverable energy [J/m^2]
  double tangential_energy = 0.0;            // its tangential part [J/m^2]
};

class ContactPair {
 public:
  // `normal` non-null; `tangential` null: frictionless. touch_band [m] >= 0.
  ContactPair(std::shared_ptr<const NormalLaw> normal,
              std::shared_ptr<const TangentialLaw> tangential, double touch_band);

  const NormalLaw& normal_law() const { return *normal_; }
  // The contact point (normal and friction law), or null when frictionless.
  const ContactPoint* point() const { return point_ ? &*point_ : nullptr; }
  int law_state_size() const { return law_state_size_; }  // friction history doubles
  int state_size() const { return law_state_size_ + 3; }  // plus the offset s* and the gap
  // Virgin history: virgin friction state, zero offset, the gap at the onset.
  void InitState(std::span<double> state) const;

  // theta of a closing between the committed gap g_c and the gap g (above) and its
  // derivatives; theta = 0 unless g_c > onset > g on a unilateral law.
  struct Closing {
    double theta = 0.0;
    double d_gap = 0.0;            // d theta / d g [1/m]
    double d_committed_gap = 0.0;  // d theta / d g_c [1/m]
  };
  Closing ClosingBetween(double committed_gap, double gap) const;

  // A pair that opens between the committed state (closed: g_c < onset) and the gap g >= onset,
  // on a unilateral law with friction: the fraction theta = (onset - g_c) / (g - g_c) of the
  // increment it was still closed for (the gap linear in between), with its derivatives, and
  // the traction it releases there: the law's at contact (p -> 0+, e.g. a parallel slip
  // stiffness's c2 s) at the slip u - s*_c from the committed history. Harmonic balance's
  // samples (harmonic::PairKernel) carry theta times it at the first open sample: a sampled
  // force that drops to zero there jumped by c2 A (u - s*_c) when a sample's gap crossed the
  // onset, and Newton crawled on the jumps (the unpreloaded friction bar near resonance);
  // with theta it is continuous, and the AFT's error stays of the order of one sample's
  // interval. theta = 0 (nothing released) for any other pair or increment. Fails naming
  // the law when it fails at contact.
  struct Release {
    double theta = 0.0;
    double d_gap = 0.0;                     // d theta / d g [1/m]
    double d_committed_gap = 0.0;           // d theta / d g_c [1/m]
    Vec2 traction = Vec2::Zero();           // [Pa]
    Mat2 d_traction_d_slip = Mat2::Zero();  // [Pa/m]
    std::vector<double> law_state;          // the friction history at contact (law_state_size())
  };
  Status ReleaseBetween(std::span<const double> committed, const PairInput& in, Release& out) const;

  // The start of a periodic motion (harmonic balance's period march, and the contact fields
  // it writes) for a pair whose history `state` is unpressed (open, or at the onset as an
  // unpreloaded interface at rest) and that stays pressed at all the period's samples z
  // (n x 3 rows [u1, u2, un], g = initial_gap + un): such a pair never reopens, so any
  // offset s* gives a periodic motion, and the start's (its tangential position there) made
  // the force jump by about c2 A (u(t*) - u(x0)) when the largest gap crossed the onset (its
  // offset then follows u at that moment t*); Newton stalled on these jumps (the
  // unpreloaded friction bar near resonance: 5e-2 of the excitation, c2 = 5e11 Pa/m). It
  // gets instead a virgin friction state and the offset the reopening gives in the limit,
  // blended continuously in the samples:
  //   s* = sum_j w_j u_j / sum_j w_j,   w_j = max(0, g_j - (2 g_max - onset)),
  // the samples within onset - g_max of the largest gap g_max weighted by their closeness
  // to it: u at the largest gap as g_max -> onset (continuous with a pair that just opens
  // there), a continuous blend as the largest gap moves between samples. The gap entry becomes
  // g_0 (no closing at the first sample). Returns false (state unchanged) for any other pair
  // (a pressed start, e.g. a preload, keeps its history; a pair that opens is set by its
  // closings), or a bilateral or frictionless one. With `d_state`: d state / d z
  // (state_size() x 3 n, column k n + j: z_jk), else left alone.
  bool PeriodicStart(std::span<double> state, const MatX& z, double initial_gap,
                     MatX* d_state) const;

  // The response at `in` from the committed history (state_size() doubles: the law's, the
  // offset, the gap); writes the trial one. Fails naming the law when a law fails or gives a
  // non-finite pressure.
  Status Evaluate(const PairInput& in, std::span<const double> committed, std::span<double> trial,
                  PairResponse& out) const;

 private:
  std::shared_ptr<const NormalLaw> normal_;
  std::optional<ContactPoint> point_;
  double touch_band_ = 0.0;
  int law_state_size_ = 0;
};

}  // namespace jointdyn::laws
