// Interface-law elements of lumped-parameter models and their kernels: the middle of the
// three assembly levels (law -> element kernel -> assembler, ARCHITECTURE.md). A kernel
// turns the values at the element's ends into the element's internal forces and their
// consistent tangents; it calls the laws and owns no history (the assembler holds it in
// flat committed / trial arrays, the TangentialLaw protocol).
//
// Sign conventions (1D DOFs, forces in N, displacements in m): the slip of a friction
// element is s = q_a - q_b and its internal force is tau at end a and -tau at end b; the
// gap of a normal element is g = gap0 + q_a - q_b (> 0 apart), its normal force p >= 0
// pushes the ends apart: internal force -p at a and +p at b. A ground end is fixed at 0.
// A friction element with a 2D (coupled) tangential law has a DOF pair at each end,
// a = (a_x, a_y) and b = (b_x, b_y): slip s = (q_ax - q_bx, q_ay - q_by), force tau at the
// a pair and -tau at the b pair; the 1D element is its dim-1 case.
//
// How velocities enter: tangential laws are incremental and take their rates from their
// own history as (s - s_n) / dt, so their consistent tangent d tau / d s already holds the
// 1/dt terms and they add nothing to D = df/dv; the integrator's velocity is not used by
// them. Normal laws take the gap rate g_dot = v_a - v_b of the integrator (or the rate of a
// prescribed gap function), so rate-dependent normal laws (Lankarani-Nikravesh damping)
// fill D.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/types.h"
#include "laws/contact_point.h"
#include "laws/normal_law.h"
#include "laws/tangential_law.h"
#include "time/time_function.h"

namespace jointdyn::lumped {

inline constexpr int kGround = -1;  // an element end fixed at q = 0

// Where the normal force of a friction element comes from.
struct NormalSource {
  enum class Kind {
    kPressure,     // a given normal force p(t) [N]; p <= 0 means open (gaping): p = 0
    kGapFunction,  // the normal law at a prescribed gap g(t) [m] (gap rate dg/dt)
    kGapDofs,      // the normal law at g = gap0 + q_a - q_b: node-to-node contact
  };
  Kind kind = Kind::kPressure;
  time::TimeFunction pressure;                 // kPressure [N]
  std::shared_ptr<const laws::NormalLaw> law;  // kGapFunction, kGapDofs (forces in N)
  time::TimeFunction gap;                      // kGapFunction [m]
  int a = kGround, b = kGround;                // kGapDofs: the normal DOF pair
  double gap0 = 0.0;                           // kGapDofs: gap at q_a = q_b [m]
};

// A tangential law between two ends, at a normal force from `normal`. Component i of the
// slip (i < law->dim()) is q_a[i] - q_b[i]: a and b hold one DOF per component (b[i]
// kGround for ground).
struct FrictionElement {
  std::string name;
  std::vector<int> a = {0}, b = {kGround};
  std::shared_ptr<const laws::TangentialLaw> law;  // dim 1 or 2, forces in N
  NormalSource normal;
};

// A normal law alone between two ends: a nonlinear (contact) spring, conservative when the
// law has no rate dependence.
struct ContactElement {
  std::string name;
  int a = 0, b = kGround;
  double gap0 = 0.0;  // gap at q_a = q_b [m]
  std::shared_ptr<const laws::NormalLaw> law;
};

// Ends come in pairs, one pair per generalized strain (slip components, gap): at most a
// 2D friction element with a normal DOF pair.
inline constexpr int kMaxEnds = 6;
using EndVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxEnds, 1>;
using EndMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxEnds, kMaxEnds>;

// Values at the ends of one element (ground ends hold zeros).
struct EndState {
  EndVector q;    // positions at the end of the increment [m]
  EndVector v;    // velocities at the end of the increment [m/s]
  EndVector q_n;  // committed positions, at the start of the increment [m]
};

struct KernelPoint {
  double t = 0.0;   // end of the increment [s]
  double dt = 0.0;  // increment length [s]
  bool discrete_gradient = false;
};

struct KernelResponse {
  EndVector f;                 // internal force at each end [N]
  EndMatrix K;                 // df/dq [N/m]
  EndMatrix D;                 // df/dv [N s/m]
  double stored_energy = 0.0;  // [J]
  // Output: tau (friction; x only for 1D laws), p in x (contact elements) [N].
  Vec2 force = Vec2::Zero();
  double normal_force = 0.0;  // output: normal force p [N]
};

class ElementKernel {
 public:
  virtual ~ElementKernel() = default;
  const std::string& name() const { return name_; }
  // The DOF index of each end (kGround for ground), in the order of EndState: pairs
  // (a, b) of the tangential components, then the normal pair of a node-to-node element.
  const std::vector<int>& ends() const { return ends_; }
  virtual int state_size() const { return 0; }
  virtual void InitState(std::span<double> state) const {}
  // Forces and tangents at `point` from the history `base`; writes the trial history.
  virtual Status Evaluate(const KernelPoint& point, const EndState& ends,
                          std::span<const double> base, std::span<double> trial,
                          KernelResponse& out) const = 0;
  // Post-Newton switching (TangentialLaw::PostNewtonUpdate); returns the switching error [N].
  virtual double PostNewtonUpdate(const KernelPoint& point, const EndState& ends,
                                  std::span<const double> trial,
                                  std::span<double> switching) const {
    return 0.0;
  }

 protected:
  ElementKernel(std::string name, std::vector<int> ends)
      : name_(std::move(name)), ends_(std::move(ends)) {}

 private:
  std::string name_;
  std::vector<int> ends_;
};

std::unique_ptr<ElementKernel> MakeKernel(const FrictionElement& element);
std::unique_ptr<ElementKernel> MakeKernel(const ContactElement& element);

}  // namespace jointdyn::lumped
