// A planar ANCF cable structure (cable_element.h) as a SecondOrderSystem: nodes with four
// coordinates each (x, y, x', y'), elements between node pairs (an open cable or a closed
// loop), the consistent mass, gravity, forces on node coordinates as time functions, and
// coordinates held at their initial values (a clamp holds x, y and the slope) as linear
// constraints; the circles it touches on the rigid bodies of a planar mechanism
// (mbs/planar_system.h), pulleys among them. Its static equilibrium by Newton (SolveStatic).
// SI units.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "ancf/cable_element.h"
#include "ancf/circle_contact.h"
#include "mbs/planar_system.h"
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

// A pulley (sheave, roller): a rigid body of the system's mechanism (mbs/planar_model.h)
// with the circle of contact round its centre of mass: its inertia, a rotational damper and
// a torque, or an angle that follows `motion` (a driven pulley, or a fixed sheave with the
// constant 0: a prescribed-coordinate joint). Its centre is held by a revolute joint to the
// ground, or it `moves` (a tensioner, a circle pressed onto a cable) on a bushing (a spring
// and a damper along x and y) to its initial centre, with a force and gravity on it.
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
  Vec2 shift = Vec2::Zero();  // the initial centre - `centre` (pre-solve) [m]
  // [kg], >= 0 (> 0 for a moving transient); 0 on a held centre: the ring I / r^2 (the mass
  // of a held centre acts on the revolute joint alone)
  double mass = 0.0;
  double centre_stiffness = 0.0;        // [N/m], >= 0, to `centre`
  double centre_damping = 0.0;          // [N s/m], >= 0
  time::TimeFunction force_x, force_y;  // on the centre [N]
};

// A circle of contact on a rigid body of the mechanism: centred at the body's centre of mass,
// turning with it.
struct Circle {
  std::string name;
  int body = 0;         // index in the mechanism's bodies (a rigid body)
  double radius = 0.0;  // [m], > 0
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
  // The rigid bodies the circles are on, with their joints, springs, bushings and loads (its
  // gravity is `gravity`), and the circles; the pulleys add a body and a circle each (after
  // these: CableSystem::circles()).
  mbs::PlanarModel mechanism;
  std::vector<Circle> circles;
  std::vector<Pulley> pulleys;
  ContactLaw contact;  // between the cable and every circle

  // Throws InputError naming the item ("elements[3].length") and the rule.
  void Validate() const;
};

// A straight stress-free cable from `start` to `end` in `elements` equal elements (slopes
// along it, of unit length).
CableModel StraightCable(const Vec2& start, const Vec2& end, int elements,
                         const CableSection& section);

// The cable and the mechanism its circles are on as one system. Coordinates: the cable's 4
// per node, then the mechanism's (mbs/planar_system.h: x, y, angle per rigid body). Circles:
// the model's, then one per pulley (on its body). The mechanism's forces, loads and
// constraints are its own (PlanarSystem, rigid bodies and point masses: constant mass),
// evaluated on its coordinates and added to the cable's.
class CableSystem final : public time::SecondOrderSystem {
 public:
  explicit CableSystem(CableModel model);  // validates (InputError)

  const CableModel& model() const { return model_; }
  const std::vector<Circle>& circles() const { return circles_; }
  int size() const override { return size_; }
  int cable_size() const { return cable_size_; }  // 4 per node; then the mechanism's
  // Pulley p's circle (and body: circles()[PulleyCircle(p)].body).
  int PulleyCircle(int p) const { return int(model_.circles.size()) + p; }
  // The system index of a mechanism body's coordinate.
  int CoordinateIndex(int body, mbs::Coordinate coordinate) const {
    return cable_size_ + mechanism_.CoordinateIndex(body, coordinate);
  }
  const Matrix& mass() const override { return mass_; }
  const Matrix& damping() const override { return damping_; }
  Status InternalForce(const time::StepPoint& point, VecX& f, Matrix* stiffness,
                       Matrix* damping_tangent) override;
  void ExternalForce(double t, VecX& f) const override;
  bool has_configuration_loads() const override { return mechanism_.has_configuration_loads(); }
  Status ConfigurationLoad(double t, const VecX& q, VecX& f, Matrix* tangent) override;
  // Contact: the post-Newton step over every segment and circle (circle_contact.h,
  // UpdateSegment), with the elements' bounding boxes as the pre-search; Commit() accepts
  // its data variables, Rollback() returns to the committed ones.
  double PostNewtonUpdate(const time::StepPoint& point) override;
  void Commit() override;
  void Rollback() override { states_ = committed_; }
  double StoredEnergy() const override { return stored_energy_ + mechanism_.StoredEnergy(); }
  VecX CoordinateUnits() const override;  // 1 on the cable, the mechanism's

  // The fixed coordinates' rows, then the mechanism's.
  int constraint_count() const override;
  Status Constraints(double t, const VecX& q, VecX& c, SparseMatrix* jacobian) override;
  Status ConstraintForceTangent(double t, const VecX& q, const VecX& lambda,
                                SparseMatrix& tangent) override;
  Status ConstraintAccelerationTerm(double t, const VecX& q, const VecX& v, VecX& q_c) override;

  // The initial coordinates and rates (the nodes' at rest, the mechanism's bodies').
  VecX InitialPositions() const;
  VecX InitialVelocities() const;
  // The contact data variables of segment s of element e on circle c.
  const SegmentState& Segment(int c, int e, int s) const;
  // The segments in contact and in `slip_state` (0 stick, +-1 slip) after the last PNS, on
  // circle c or on all (c = -1).
  int CountContact(int slip_state, int c = -1) const;
  // The forces of segment s of element e on circle c at (q, v) with its data variables
  // (none when it is open; no tangents).
  SegmentForces ContactForces(int c, int e, int s, const VecX& q, const VecX& v) const;
  // The torque of the belt's contact forces on circle c about its centre [N m].
  double ContactTorque(int c, const VecX& q, const VecX& v) const;
  // The resultant of the belt's contact forces on circle c (eq. 33) [N].
  Vec2 ContactForce(int c, const VecX& q, const VecX& v) const;
  // Circle c's centre, angle and their rates at (q, v).
  CircleState CircleAt(int c, const VecX& q, const VecX& v) const;
  // A marker of the mechanism (the model's, then the pulleys') at q [m].
  Vec2 MarkerPosition(const VecX& q, int marker) const {
    return mechanism_.MarkerPosition(q.tail(mechanism_.size()), marker);
  }
  // Element e's 8 coordinates from the system's.
  ElementVector ElementCoordinates(int e, const VecX& q) const;

 private:
  // The contact forces of the segments in contact (the data variables of the last PNS);
  // their tangents added to k and d when given.
  void AddContactForces(const time::StepPoint& point, VecX& f, Matrix* k, Matrix* d);
  // The mechanism's internal forces on its coordinates, its tangents added to k and d.
  Status AddMechanismForces(const time::StepPoint& point, VecX& f, Matrix* k, Matrix* d);
  // The tangents' sparsity (explicit zeros): the elements' blocks, each element's coupling
  // with every circle's body's coordinates (contact), the mechanism's block (dense). The
  // mass and damping have it, so that the integrator's matrices add value by value and keep
  // the factorization's symbolic analysis while contacts open and close.
  SparseMatrix Pattern() const;

  CableModel model_;
  mbs::PlanarSystem mechanism_;
  std::vector<Circle> circles_;
  std::vector<std::array<int, 3>> circle_index_;  // per circle: its body's angle, x, y
  int cable_size_ = 0, size_ = 0;
  Matrix mass_, damping_;
  VecX gravity_load_;
  double stored_energy_ = 0.0;  // the cable's and the contacts'
  // The positions of each element's 8 x 8 entries, per circle and element of the element's
  // and the circle's body's 11 x 11 entries, and of the mechanism's block in the pattern's
  // value array, column by column.
  std::vector<std::vector<int>> element_entries_;
  std::vector<std::vector<int>> contact_entries_;
  std::vector<int> mechanism_entries_;
  // Per circle, element and segment: the data variables of the last PNS and the committed.
  std::vector<SegmentState> states_, committed_;
};

// Full Newton without line search: a linear step turns the slopes without shortening them,
// a spurious axial strain of O(rotation^2) times the large EA that raises the residual
// norm at first (a residual-norm line search then refuses the step and stalls); the next
// iterations remove it. Large deflections need load steps.
solvers::NewtonOptions StaticNewton();

// The static equilibrium f_int(q) + C_q' lambda = f_ext(t) + f_q(t, q), c(q, t) = 0, with the
// cable's fixed coordinates and the circles' bodies' angles held (frictionless contact puts
// no torque on them; a moving centre is free), by Newton from q (updated). The constraint
// rows that touch held coordinates only (the cable's clamps, a pulley's driver) are met by
// moving those coordinates first (one Newton step: exact for these linear rows) and are left
// out; the others (a held centre's revolute joint) keep their multipliers. The contacts' data
// variables stay as they are, or with `contact_follows` each evaluation first updates them
// at the iterate (PostNewtonUpdate): the contact set follows the solution (friction, which
// needs a history, is not meant then). The residual is measured against the larger of the applied
// loads and 1e-6 EA extent / shortest element (axial forces carry the rounding of EA / L_e times
// the positions'); positions against the cable's extent.
solvers::NewtonResult SolveStatic(CableSystem& system, double t, VecX& q,
                                  const solvers::NewtonOptions& options = StaticNewton(),
                                  bool contact_follows = false);

}  // namespace jointdyn::ancf
