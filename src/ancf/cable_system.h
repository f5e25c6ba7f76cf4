// A planar ANCF cable structure (cable_element.h) as a SecondOrderSystem: nodes with four
// coordinates each (x, y, x', y'), elements between node pairs (an open cable or a closed
// loop), the consistent mass, gravity, forces on node coordinates as time functions, and
// coordinates held at their initial values (a clamp holds x, y and the slope) as linear
// constraints. Its static equilibrium by Newton (SolveStatic). SI units.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "ancf/cable_element.h"
#include "ancf/circle_contact.h"
#include "solvers/newton.h"
#include "time/second_order_system.h"
#include "time/time_function.h"

namespace jointdyn::ancf {

using solvers::Matrix;
using solvers::SparseMatrix;

// A force on node coordinate `coordinate` (0: x, 1: y [N]; 2, 3: on the slope's x, y [N m]).
struct NodalLoad {
  int node = 0;
  int coordinate = 1;
  time::TimeFunction value;
};

// A pulley (sheave, roller): a circle turning about its centre with an angle coordinate of
// the system (after the cable's), its inertia, rotational damping and a torque, or an angle
// that follows `motion` (a driven pulley, or a fixed sheave with the constant 0) as a
// constraint. Its centre is fixed, or it `moves` (a tensioner, a circle pressed onto a
// cable): two more coordinates x, y after the angle, with the pulley's mass, a spring and a
// damper to its initial centre, a force and gravity on it.
struct Pulley {
  std::string name;            // for outputs
  Vec2 centre = Vec2::Zero();  // [m], the initial one when it moves
  double radius = 0.0;         // [m], > 0
  double inertia = 0.0;        // [kg m^2], >= 0 (> 0 for a transient)
  double damping = 0.0;        // [N m s], >= 0
  time::TimeFunction torque;   // [N m]
  bool driven = false;         // the angle follows `motion` [rad]
  time::TimeFunction motion;
  bool moves = false;
  Vec2 shift = Vec2::Zero();            // the initial centre - `centre` (pre-solve) [m]
  double mass = 0.0;                    // [kg], >= 0 (> 0 for a transient)
  double centre_stiffness = 0.0;        // [N/m], >= 0, to `centre`
  double centre_damping = 0.0;          // [N s/m], >= 0
  time::TimeFunction force_x, force_y;  // on the centre [N]
  int coordinates() const { return moves ? 3 : 1; }
};

struct CableModel {
  struct Element {
    int a = 0, b = 0;  // node indices
    CableElement data;
  };
  CableSection section;
  MatX nodes;  // nodes x 4: the initial x, y [m] and slope x', y' [-]
  std::vector<Element> elements;
  Vec2 gravity = Vec2::Zero();  // [m/s^2]
  std::vector<int> fixed;       // coordinates (4 node + k) held at their initial values
  std::vector<NodalLoad> loads;
  std::vector<Pulley> pulleys;
  ContactLaw contact;  // between the cable and every pulley

  // Throws InputError naming the item ("elements[3].length") and the rule.
  void Validate() const;
};

// A straight stress-free cable from `start` to `end` in `elements` equal elements (slopes
// along it, of unit length).
CableModel StraightCable(const Vec2& start, const Vec2& end, int elements,
                         const CableSection& section);

class CableSystem final : public time::SecondOrderSystem {
 public:
  explicit CableSystem(CableModel model);  // validates (InputError)

  const CableModel& model() const { return model_; }
  int size() const override { return size_; }
  int cable_size() const { return cable_size_; }  // 4 per node; then the pulleys'
  // Pulley p's first coordinate (its angle; then x, y of a moving centre).
  int PulleyIndex(int p) const { return pulley_index_[p]; }
  const Matrix& mass() const override { return mass_; }
  const Matrix& damping() const override { return damping_; }
  Status InternalForce(const time::StepPoint& point, VecX& f, Matrix* stiffness,
                       Matrix* damping_tangent) override;
  void ExternalForce(double t, VecX& f) const override;
  // Contact: the post-Newton step over every segment and pulley (circle_contact.h,
  // UpdateSegment), with the elements' bounding boxes as the pre-search; Commit() accepts
  // its data variables, Rollback() returns to the committed ones.
  double PostNewtonUpdate(const time::StepPoint& point) override;
  void Commit() override { committed_ = states_; }
  void Rollback() override { states_ = committed_; }
  double StoredEnergy() const override { return stored_energy_; }

  // The fixed coordinates' rows, then a row per driven pulley (its angle - motion(t)).
  int constraint_count() const override;
  Status Constraints(double t, const VecX& q, VecX& c, SparseMatrix* jacobian) override;
  Status ConstraintAccelerationTerm(double t, const VecX& q, const VecX& v, VecX& q_c) override;

  // The initial coordinates (the nodes', the pulleys' 0 or motion(0)) and rates (0, the
  // driven pulleys' motion'(0)).
  VecX InitialPositions() const;
  VecX InitialVelocities() const;
  // The contact data variables of segment s of element e on pulley p.
  const SegmentState& Segment(int p, int e, int s) const;
  // The segments in contact and in `slip_state` (0 stick, +-1 slip) after the last PNS, on
  // pulley p or on all (p = -1).
  int CountContact(int slip_state, int p = -1) const;
  // The forces of segment s of element e on pulley p at (q, v) with its data variables
  // (none when it is open; no tangents).
  SegmentForces ContactForces(int p, int e, int s, const VecX& q, const VecX& v) const;
  // The torque of the belt's contact forces on pulley p about its centre [N m].
  double ContactTorque(int p, const VecX& q, const VecX& v) const;
  // The resultant of the belt's contact forces on pulley p (eq. 33) [N].
  Vec2 ContactForce(int p, const VecX& q, const VecX& v) const;
  // Pulley p's centre and its velocity at (q, v).
  CircleState Circle(int p, const VecX& q, const VecX& v) const;
  // Element e's 8 coordinates from the system's.
  ElementVector ElementCoordinates(int e, const VecX& q) const;

 private:
  // The contact forces of the segments in contact (the data variables of the last PNS);
  // their tangents added to k and d when given.
  Status AddContactForces(const time::StepPoint& point, VecX& f, Matrix* k, Matrix* d);
  // The moving centres' springs: their forces, tangents and energy.
  void AddCentreSprings(const VecX& q, VecX& f, Matrix* k);
  // The tangents' sparsity (explicit zeros): the elements' blocks, each element's coupling
  // with every pulley's coordinates (contact), the pulleys' blocks. The mass and damping have
  // it, so that the integrator's matrices add value by value and keep the factorization's
  // symbolic analysis while contacts open and close.
  SparseMatrix Pattern() const;

  CableModel model_;
  int cable_size_ = 0, size_ = 0;
  std::vector<int> pulley_index_;
  Matrix mass_, damping_;
  VecX gravity_load_;
  double stored_energy_ = 0.0;
  // The positions of each element's 8 x 8 entries and, per pulley and element, of the
  // element's and the pulley's 9 x 9 (fixed centre) or 11 x 11 (moving) entries in the
  // pattern's value array, column by column.
  std::vector<std::vector<int>> element_entries_;
  std::vector<std::vector<int>> contact_entries_;
  // Per pulley, element and segment: the data variables of the last PNS and the committed.
  std::vector<SegmentState> states_, committed_;
};

// Full Newton without line search: a linear step turns the slopes without shortening them,
// a spurious axial strain of O(rotation^2) times the large EA that raises the residual
// norm at first (a residual-norm line search then refuses the step and stalls); the next
// iterations remove it. Large deflections need load steps.
solvers::NewtonOptions StaticNewton();

// The static equilibrium f_int(q) = f_ext(t) with the fixed coordinates and the pulleys'
// angles held (a moving centre is free), by Newton from q (updated). The contacts' data
// variables stay as they are, or with `contact_follows` each evaluation first updates them
// at the iterate (PostNewtonUpdate): the contact set follows the solution (friction, which
// needs a history, is not meant then). The residual is measured against the larger of the applied
// loads and 1e-6 EA extent / shortest element (axial forces carry the rounding of EA / L_e times
// the positions'); positions against the cable's extent.
solvers::NewtonResult SolveStatic(CableSystem& system, double t, VecX& q,
                                  const solvers::NewtonOptions& options = StaticNewton(),
                                  bool contact_follows = false);

}  // namespace jointdyn::ancf
