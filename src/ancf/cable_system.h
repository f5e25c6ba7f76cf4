// A planar ANCF cable structure (cable_element.h) as a SecondOrderSystem: nodes with four
// coordinates each (x, y, x', y'), elements between node pairs (an open cable or a closed
// loop), the consistent mass, gravity, forces on node coordinates as time functions, and
// coordinates held at their initial values (a clamp holds x, y and the slope) as linear
// constraints. Its static equilibrium by Newton (SolveStatic). SI units.
#pragma once

#include <vector>

#include "ancf/cable_element.h"
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
  int size() const override { return int(model_.nodes.size()); }
  const Matrix& mass() const override { return mass_; }
  const Matrix& damping() const override { return damping_; }
  Status InternalForce(const time::StepPoint& point, VecX& f, Matrix* stiffness,
                       Matrix* damping_tangent) override;
  void ExternalForce(double t, VecX& f) const override;
  void Commit() override {}
  double StoredEnergy() const override { return stored_energy_; }

  int constraint_count() const override { return int(model_.fixed.size()); }
  Status Constraints(double t, const VecX& q, VecX& c, SparseMatrix* jacobian) override;

  VecX InitialPositions() const;
  // Element e's 8 coordinates from the system's.
  ElementVector ElementCoordinates(int e, const VecX& q) const;

 private:
  CableModel model_;
  Matrix mass_, damping_;
  VecX gravity_load_;
  double stored_energy_ = 0.0;
};

// Full Newton without line search: a linear step turns the slopes without shortening them,
// a spurious axial strain of O(rotation^2) times the large EA that raises the residual
// norm at first (a residual-norm line search then refuses the step and stalls); the next
// iterations remove it. Large deflections need load steps.
solvers::NewtonOptions StaticNewton();

// The static equilibrium f_int(q) = f_ext(t) with the fixed coordinates held, by Newton from
// q (updated). The residual is measured against the larger of the applied loads and
// 1e-6 EA extent / shortest element (axial forces carry the rounding of EA / L_e times the
// positions'); positions against the cable's extent.
solvers::NewtonResult SolveStatic(CableSystem& system, double t, VecX& q,
                                  const solvers::NewtonOptions& options = StaticNewton());

}  // namespace jointdyn::ancf
