// Lumped-parameter models M q'' + C q' + f_int(q, q', history) = f_ext(t) on 1D DOFs:
// point masses, linear springs and dampers, interface-law elements (friction with a given
// normal force or a normal law, node-to-node contact, normal laws as nonlinear springs)
// between two DOFs or a DOF and ground (2D friction: between two DOF pairs or a DOF pair
// and ground), external forces, and prescribed-motion DOFs.
//
// LumpedSystem is the assembler (the third level of ARCHITECTURE.md's law -> element
// kernel -> assembler): it owns the loop over the element kernels (elements.h), the flat
// committed / trial history of all law elements, and the constant matrices of the linear
// elements. Units: SI (kg, m, s, N).
//
// Unknowns: the free DOFs, in model order. A prescribed DOF follows its motion q(t) (its
// velocity is dq/dt): it is not an unknown, its mass is not used, and the work its motion
// does on the system is accumulated at each Commit() (prescribed_work()), so an energy
// balance can include it.
//
// Reference state: every element is unstressed at q = 0 and every law starts from its
// virgin history there; an initial displacement across a law element is applied to it in
// the first step (a friction element starts slipping if that exceeds its stick range).
//
// History and post-Newton switching: InternalForce() evaluates the laws from the
// switching copy of the committed history and writes the trial history; PostNewtonUpdate()
// updates the switching copy (bristle laws) and returns the largest switching error [N];
// Commit() accepts the trial. The switching copy is reset to the committed history by
// Commit() and by Rollback() (the integrator's rejected step attempt).
//
// Energy-conserving variant (StepPoint::discrete_gradient): springs return
// K (q + q_n) / 2 and normal-law elements the discrete gradient of their stored energy,
// (V(g) - V(g_n)) / (g - g_n), plus the rate-dependent part of their pressure at the end
// point; friction elements are not conservative and return their end-point force. q_n
// are the committed positions (the initial ones before the first Commit()).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lumped/elements.h"
#include "time/second_order_system.h"
#include "time/time_function.h"

namespace jointdyn::lumped {

struct Dof {
  std::string name;
  double mass = 0.0;                         // [kg], > 0 for free DOFs; unused when prescribed
  std::optional<time::TimeFunction> motion;  // prescribed q(t) [m]; empty: free DOF (an unknown)
  double q0 = 0.0;                           // initial position of a free DOF [m]
  double v0 = 0.0;                           // initial velocity of a free DOF [m/s]
};

// Linear spring: internal force k (q_a - q_b) at a, minus that at b.
struct Spring {
  std::string name;
  int a = 0, b = kGround;
  double k = 0.0;  // [N/m], >= 0
};

// Linear damper: internal force c (v_a - v_b) at a, minus that at b (into C).
struct Damper {
  std::string name;
  int a = 0, b = kGround;
  double c = 0.0;  // [N s/m], >= 0
};

// External force on a free DOF [N].
struct Load {
  int dof = 0;
  time::TimeFunction force;
};

struct LumpedModel {
  std::vector<Dof> dofs;
  std::vector<Spring> springs;
  std::vector<Damper> dampers;
  std::vector<FrictionElement> friction;
  std::vector<ContactElement> contacts;
  std::vector<Load> loads;
};

enum class ElementKind { kSpring, kDamper, kFriction, kContact };

struct ElementInfo {
  std::string name;
  ElementKind kind;
  int dim = 1;  // tangential force components (2: a friction element with a 2D law)
};

// The elements of `model` in the order of LumpedSystem::ElementForces(): springs,
// dampers, friction elements, contact elements.
std::vector<ElementInfo> Elements(const LumpedModel& model);

// Output of one element: springs k (q_a - q_b), dampers c (v_a - v_b), friction elements
// their tangential force tau (both components for 2D laws) and normal force p, contact
// elements their normal force p (in force.x() and normal_force) [N]. One-component forces
// are in force.x(), with force.y() = 0.
struct ElementForce {
  Vec2 force = Vec2::Zero();
  double normal_force = 0.0;
};

class LumpedSystem final : public time::SecondOrderSystem {
 public:
  // Checks the structure (indices, masses > 0 for free DOFs, one end pair per slip
  // component of 1D or 2D laws with distinct tangential DOFs, loads on free DOFs)
  // and throws InternalError naming the element when it is broken (the model reader
  // reports bad input before this).
  explicit LumpedSystem(LumpedModel model);

  int size() const override { return int(free_.size()); }
  const time::Matrix& mass() const override { return mass_; }  // sparse
  const time::Matrix& damping() const override { return damping_free_; }
  Status InternalForce(const time::StepPoint& point, VecX& f, time::Matrix* stiffness,
                       time::Matrix* damping_tangent) override;
  void ExternalForce(double t, VecX& f) const override;
  void Commit() override;
  double PostNewtonUpdate(const time::StepPoint& point) override;
  // A rejected step attempt: the switching variables return to the committed history.
  void Rollback() override;
  double StoredEnergy() const override { return trial_energy_; }

  const LumpedModel& model() const { return model_; }
  // The model DOF index of each unknown.
  const std::vector<int>& free_dofs() const { return free_; }
  VecX initial_positions() const;   // of the unknowns [m]
  VecX initial_velocities() const;  // of the unknowns [m/s]
  // Positions and velocities of all model DOFs at time t from those of the unknowns.
  void AllDofs(double t, const VecX& q, const VecX& v, VecX& q_all, VecX& v_all) const;
  // Work done on the system by the prescribed motions from the first to the last Commit()
  // [J] (trapezoidal rule between committed states; the integrator commits its initial
  // evaluation, so this starts at the initial state).
  double prescribed_work() const { return prescribed_work_; }

  // Element forces at an accepted state (t, q, v): springs and dampers from it, law
  // elements their values at the last Commit() (zero before it).
  std::vector<ElementForce> ElementForces(double t, const VecX& q, const VecX& v) const;

 private:
  void Gather(const ElementKernel& kernel, EndState& ends) const;
  void StartIncrement(const time::StepPoint& point);

  LumpedModel model_;
  std::vector<int> free_;        // model index of each unknown
  std::vector<int> prescribed_;  // model index of each prescribed DOF
  std::vector<int> unknown_;     // per model DOF: its unknown index, or -1 when prescribed

  time::Matrix mass_, damping_free_;                // over the unknowns (sparse)
  time::SparseMatrix stiffness_free_;               // over the unknowns
  time::SparseMatrix stiffness_all_, damping_all_;  // over all model DOFs

  std::vector<std::unique_ptr<ElementKernel>> kernels_;  // friction, then contact elements
  std::vector<int> offset_;                              // history offset of each kernel
  std::vector<double> committed_, trial_, switching_;    // law histories

  // The last evaluation (trial) and the last accepted state (committed).
  VecX q_all_, v_all_, q_n_all_;  // all model DOFs at the trial point, committed positions
  VecX committed_q_;              // unknowns at the last Commit() (initially q0)
  double trial_energy_ = 0.0;
  std::vector<ElementForce> trial_output_, committed_output_;  // per kernel
  VecX trial_reaction_, committed_reaction_;  // internal force at the prescribed DOFs [N]
  VecX committed_u_;                          // prescribed positions at the last Commit()
  bool committed_once_ = false;
  double prescribed_work_ = 0.0;
};

}  // namespace jointdyn::lumped
