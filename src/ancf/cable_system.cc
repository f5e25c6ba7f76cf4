#include "ancf/cable_system.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>
#include <span>

#include "core/error.h"
#include "mbs/model_checks.h"

namespace jointdyn::ancf {
namespace {

using mbs::Item;
using mbs::Require;

// The 8 system indices of element e's coordinates.
std::array<int, 8> ElementIndices(const CableModel::Element& e) {
  std::array<int, 8> index;
  for (int k = 0; k < 4; ++k) {
    index[k] = 4 * e.a + k;
    index[4 + k] = 4 * e.b + k;
  }
  return index;
}

// ... and a circle's body's angle, x, y after them (the order of CentreForces).
std::array<int, 11> ContactIndices(const CableModel::Element& e, const std::array<int, 3>& body) {
  const std::array<int, 8> element = ElementIndices(e);
  std::array<int, 11> index;
  std::copy(element.begin(), element.end(), index.begin());
  std::copy(body.begin(), body.end(), index.begin() + 8);
  return index;
}

// The mechanism of `model`: its own, then per pulley a rigid body with the circle's marker
// at its centre of mass and one on the ground at the pulley's centre, a revolute joint
// between them or (moving) a bushing, a prescribed angle when driven, a rotational damper to
// the ground and a load (torque, centre force) where given. A quasi-static pulley needs no
// inertia (1 kg m^2 then); a held centre without mass gets the ring's I / r^2 (both act on
// the joints only).
mbs::PlanarModel MechanismOf(const CableModel& model) {
  using mbs::kGround;
  mbs::PlanarModel m = model.mechanism;
  m.gravity = model.gravity;
  for (const Pulley& p : model.pulleys) {
    const int body = int(m.bodies.size()), marker = int(m.markers.size());
    const double inertia = p.inertia > 0.0 ? p.inertia : 1.0;
    m.bodies.push_back({.name = p.name.empty() ? "pulley " + std::to_string(body + 1) : p.name,
                        .mass = p.mass > 0.0 ? p.mass : inertia / (p.radius * p.radius),
                        .inertia = inertia,
                        .position = p.centre + p.shift,
                        .angle = p.driven ? p.motion.Value(0.0) : 0.0,
                        .angular_velocity = p.driven ? p.motion.Rate(0.0) : 0.0});
    m.markers.push_back({.name = p.name, .body = body});
    m.markers.push_back({.name = p.name + " centre", .body = kGround, .position = p.centre});
    if (p.moves)
      m.bushings.push_back(
          {p.name + " centre", marker + 1, marker, p.centre_stiffness, p.centre_damping});
    else
      m.joints.push_back({.name = p.name + " bearing", .marker_a = marker + 1, .marker_b = marker});
    if (p.driven)
      m.joints.push_back({.name = p.name + " drive",
                          .kind = mbs::JointKind::kPrescribed,
                          .body = body,
                          .motion = p.motion});
    if (p.damping > 0.0)
      m.rotational_springs.push_back({p.name + " damper", marker, marker + 1, 0.0, p.damping});
    const auto zero = [](const time::TimeFunction& f) {
      return f.kind() == time::TimeFunction::Kind::kConstant && f.Value(0.0) == 0.0;
    };
    if (!zero(p.force_x) || !zero(p.force_y) || !zero(p.torque))
      m.loads.push_back({marker, p.force_x, p.force_y, p.torque});
  }
  return m;
}

// The positions in `pattern`'s value array of the entries (index[i], index[j]), column by
// column (as an Eigen matrix's data).
std::vector<int> Entries(const SparseMatrix& pattern, std::span<const int> index) {
  std::vector<int> entries;
  entries.reserve(index.size() * index.size());
  const int* inner = pattern.innerIndexPtr();
  for (const int column : index)
    for (const int row : index) {
      const int* begin = inner + pattern.outerIndexPtr()[column];
      const int* end = inner + pattern.outerIndexPtr()[column + 1];
      const int* it = std::lower_bound(begin, end, row);
      JD_CHECK(it != end && *it == row, "CableSystem: an entry outside the pattern");
      entries.push_back(int(it - inner));
    }
  return entries;
}

// Adds the square block `values` (column by column) at `entries` (Entries()) of a matrix
// with the system's pattern (nothing when `target` is null).
void AddEntries(const std::vector<int>& entries, const double* block, Matrix* target) {
  if (!target) return;
  double* values = target->sparse().valuePtr();
  for (size_t a = 0; a < entries.size(); ++a) values[entries[a]] += block[a];
}

// The static equilibrium (SolveStatic) as a residual model over (q, the kept rows'
// multipliers): f_int(q) + C_q' lambda - f_ext(t) - f_q(t, q) on the free coordinates,
// (q_i - q0_i) s on the held ones, c_r(q, t) s on the kept constraint rows, s = force scale /
// length scale.
class StaticModel final : public solvers::ResidualModel {
 public:
  StaticModel(CableSystem& system, double t, const VecX& start, std::set<int> held,
              std::vector<int> kept, bool contact_follows)
      : system_(system),
        t_(t),
        start_(start),
        held_(std::move(held)),
        kept_(std::move(kept)),
        contact_follows_(contact_follows) {
    external_ = VecX::Zero(system.size());
    system.ExternalForce(t, external_);
    VecX load = VecX::Zero(system.size());
    if (system.has_configuration_loads()) system.ConfigurationLoad(t, start, load, nullptr);
    const CableSection& s = system.model().section;
    const MatX& nodes = system.model().nodes;
    length_scale_ = std::max((nodes.col(0).maxCoeff() - nodes.col(0).minCoeff()) +
                                 (nodes.col(1).maxCoeff() - nodes.col(1).minCoeff()),
                             1e-3);
    double shortest = length_scale_;
    for (const CableModel::Element& e : system.model().elements)
      shortest = std::min(shortest, e.data.length);
    // Not below the rounding of the axial forces (EA / L_e times positions carrying 1e-16
    // of the extent), with the tolerance 1e-8 of this scale a hundred times above it.
    force_scale_ = std::max((external_ + load).lpNorm<Eigen::Infinity>(),
                            1e-6 * s.axial_stiffness * length_scale_ / shortest);
  }
  int size() const override { return system_.size() + int(kept_.size()); }
  Status Evaluate(const VecX& x, VecX& residual, Matrix* jacobian) override {
    const int n = system_.size();
    const VecX q = x.head(n), zero = VecX::Zero(n);
    const time::StepPoint point{t_, 1.0, &q, &zero, &q, false};
    if (contact_follows_) system_.PostNewtonUpdate(point);
    Matrix k, load_tangent;  // at rest: no velocity tangent
    if (jacobian) {
      k.SetZeroLike(system_.mass());
      load_tangent.SetZeroLike(system_.mass());
    }
    VecX f = VecX::Zero(n), load = VecX::Zero(n);
    if (Status status = system_.InternalForce(point, f, jacobian ? &k : nullptr, nullptr); !status)
      return status;
    if (system_.has_configuration_loads())
      if (Status status =
              system_.ConfigurationLoad(t_, q, load, jacobian ? &load_tangent : nullptr);
          !status)
        return status;
    VecX c(system_.constraint_count()), lambda = VecX::Zero(c.size());
    SparseMatrix c_q;
    if (Status status = system_.Constraints(t_, q, c, &c_q); !status) return status;
    for (size_t r = 0; r < kept_.size(); ++r) lambda(kept_[r]) = x(n + r);
    const double scale = force_scale_ / length_scale_;
    residual.resize(size());
    residual.head(n) = f - external_ - load + c_q.transpose() * lambda;
    for (const int i : held_) residual(i) = (q(i) - start_(i)) * scale;
    for (size_t r = 0; r < kept_.size(); ++r) residual(n + r) = c(kept_[r]) * scale;
    if (jacobian) *jacobian = Jacobian(q, lambda, k, load_tangent, c_q, scale);
    return Status::Ok();
  }
  VecX ResidualScale() const override { return VecX::Constant(size(), force_scale_); }
  // Positions by the cable's extent; the multipliers by the largest force a cable carries
  // (EA at unit strain): a trust region (max_increment) limits the positions' steps, not the
  // reactions' jumps that follow them.
  VecX UnknownScale() const override {
    VecX scale =
        VecX::Constant(size(), std::max(force_scale_, system_.model().section.axial_stiffness));
    scale.head(system_.size()).setConstant(length_scale_);
    return scale;
  }

 private:
  // [K - K_q + (C_q' lambda)_q, C_q'; C_q s, 0] on the kept rows, s on the held diagonal.
  SparseMatrix Jacobian(const VecX& q, const VecX& lambda, const Matrix& k,
                        const Matrix& load_tangent, const SparseMatrix& c_q, double scale) {
    const int n = system_.size();
    SparseMatrix tangent(n, n);
    system_.ConstraintForceTangent(t_, q, lambda, tangent);
    const SparseMatrix upper = k.sparse() - load_tangent.sparse() + tangent;
    std::vector<Eigen::Triplet<double>> entries;
    for (int j = 0; j < n; ++j)
      for (SparseMatrix::InnerIterator it(upper, j); it; ++it)
        if (!held_.count(int(it.row()))) entries.emplace_back(it.row(), j, it.value());
    for (const int i : held_) entries.emplace_back(i, i, scale);
    std::vector<int> kept_row(c_q.rows(), -1);
    for (size_t r = 0; r < kept_.size(); ++r) kept_row[kept_[r]] = int(r);
    for (int j = 0; j < n; ++j)
      for (SparseMatrix::InnerIterator it(c_q, j); it; ++it) {
        if (const int r = kept_row[it.row()]; r >= 0) {
          entries.emplace_back(n + r, j, it.value() * scale);
          if (!held_.count(j)) entries.emplace_back(j, n + r, it.value());
        }
      }
    SparseMatrix jacobian(size(), size());
    jacobian.setFromTriplets(entries.begin(), entries.end());
    return jacobian;
  }

  CableSystem& system_;
  double t_;
  VecX start_;             // the held coordinates' values
  std::set<int> held_;     // coordinates
  std::vector<int> kept_;  // constraint rows
  bool contact_follows_;
  VecX external_;
  double force_scale_ = 1.0, length_scale_ = 1.0;
};

}  // namespace

void CableModel::Validate() const {
  const CableSection& s = section;
  Require(s.axial_stiffness > 0.0 && std::isfinite(s.axial_stiffness), "section.axial_stiffness",
          FormatValue(s.axial_stiffness), "must be > 0");
  Require(s.mass_per_length > 0.0 && std::isfinite(s.mass_per_length), "section.mass_per_length",
          FormatValue(s.mass_per_length), "must be > 0");
  for (const auto& [key, value] : {std::pair{"bending_stiffness", s.bending_stiffness},
                                   std::pair{"axial_damping", s.axial_damping},
                                   std::pair{"bending_damping", s.bending_damping}})
    Require(value >= 0.0 && std::isfinite(value), std::string("section.") + key, FormatValue(value),
            "must be >= 0");
  Require(nodes.cols() == 4 && nodes.rows() >= 2 && nodes.allFinite(), "nodes",
          std::to_string(nodes.rows()) + " x " + std::to_string(nodes.cols()),
          "must be at least 2 nodes of 4 finite coordinates (x, y, x', y')");
  const int n = int(nodes.rows());
  Require(!elements.empty(), "elements", "[]", "needs at least one element");
  for (size_t i = 0; i < elements.size(); ++i) {
    const Element& e = elements[i];
    Require(e.a >= 0 && e.a < n && e.b >= 0 && e.b < n && e.a != e.b, Item("elements", i, "nodes"),
            std::to_string(e.a) + ", " + std::to_string(e.b), "must be two different nodes");
    Require(e.data.length > 0.0 && std::isfinite(e.data.length), Item("elements", i, "length"),
            FormatValue(e.data.length), "must be > 0");
    Require(std::isfinite(e.data.reference_strain) && e.data.reference_strain > -1.0 &&
                std::isfinite(e.data.reference_curvature),
            Item("elements", i, "reference"), FormatValue(e.data.reference_strain),
            "strain must be > -1 and curvature finite");
  }
  for (size_t i = 0; i < fixed.size(); ++i)
    Require(fixed[i] >= 0 && fixed[i] < 4 * n, Item("fixed", i, "coordinate"),
            std::to_string(fixed[i]), "is no coordinate");
  for (size_t i = 0; i < loads.size(); ++i)
    Require(loads[i].node >= 0 && loads[i].node < n && loads[i].coordinate >= 0 &&
                loads[i].coordinate < 4,
            Item("loads", i, "node"), std::to_string(loads[i].node), "is no node coordinate");
  for (size_t i = 0; i < pulleys.size(); ++i) {
    const Pulley& p = pulleys[i];
    Require(p.radius > 0.0 && std::isfinite(p.radius), Item("pulleys", i, "radius"),
            FormatValue(p.radius), "must be > 0");
    for (const auto& [key, value] :
         {std::pair{"inertia", p.inertia}, std::pair{"damping", p.damping},
          std::pair{"moving.mass", p.mass}, std::pair{"moving.stiffness", p.centre_stiffness},
          std::pair{"moving.damping", p.centre_damping}})
      Require(value >= 0.0 && std::isfinite(value), Item("pulleys", i, key), FormatValue(value),
              "must be >= 0");
    Require(p.centre.allFinite(), Item("pulleys", i, "centre"), "", "must be finite");
  }
  const std::vector<mbs::Body>& bodies = mechanism.bodies;
  for (size_t i = 0; i < bodies.size(); ++i)
    Require(bodies[i].kind != mbs::BodyKind::kFlexible, Item("bodies", i, "kind"), "flexible",
            "a cable's mechanism takes rigid bodies and point masses");
  for (size_t i = 0; i < circles.size(); ++i) {
    const Circle& c = circles[i];
    Require(
        c.body >= 0 && c.body < int(bodies.size()) && bodies[c.body].kind == mbs::BodyKind::kRigid,
        Item("circles", i, "body"), std::to_string(c.body), "must be a rigid body");
    Require(c.radius > 0.0 && std::isfinite(c.radius), Item("circles", i, "radius"),
            FormatValue(c.radius), "must be > 0");
  }
  if (pulleys.empty() && circles.empty()) return;
  const ContactLaw& c = contact;
  Require(c.normal_stiffness > 0.0 && std::isfinite(c.normal_stiffness), "contact.normal_stiffness",
          FormatValue(c.normal_stiffness), "must be > 0");
  Require(c.width > 0.0 && std::isfinite(c.width), "contact.width", FormatValue(c.width),
          "must be > 0");
  Require(c.segments >= 1 && c.segments <= 64, "contact.segments", std::to_string(c.segments),
          "must be in [1, 64]");
  for (const auto& [key, value] :
       {std::pair{"offset", c.offset}, std::pair{"normal_damping", c.normal_damping},
        std::pair{"friction", c.friction}, std::pair{"bristle_stiffness", c.bristle_stiffness},
        std::pair{"velocity_penalty", c.velocity_penalty}})
    Require(value >= 0.0 && std::isfinite(value), std::string("contact.") + key, FormatValue(value),
            "must be >= 0");
  Require(gravity.allFinite(), "gravity", "", "must be finite");
}

CableModel StraightCable(const Vec2& start, const Vec2& end, int elements,
                         const CableSection& section) {
  CableModel m;
  m.section = section;
  const Vec2 tangent = (end - start).normalized();
  m.nodes.resize(elements + 1, 4);
  for (int i = 0; i <= elements; ++i) {
    const Vec2 p = start + (end - start) * (double(i) / elements);
    m.nodes.row(i) << p.x(), p.y(), tangent.x(), tangent.y();
  }
  for (int i = 0; i < elements; ++i)
    m.elements.push_back({i, i + 1, {.length = (end - start).norm() / elements}});
  return m;
}

CableSystem::CableSystem(CableModel model)
    : model_((model.Validate(), std::move(model))),
      mechanism_(MechanismOf(model_), std::numeric_limits<int>::max()) {  // dense
  cable_size_ = int(model_.nodes.size());
  size_ = cable_size_ + mechanism_.size();
  circles_ = model_.circles;
  const int first_pulley_body = int(model_.mechanism.bodies.size());
  for (size_t p = 0; p < model_.pulleys.size(); ++p)
    circles_.push_back(
        {model_.pulleys[p].name, first_pulley_body + int(p), model_.pulleys[p].radius});
  for (const Circle& c : circles_)
    circle_index_.push_back({CoordinateIndex(c.body, mbs::Coordinate::kAngle),
                             CoordinateIndex(c.body, mbs::Coordinate::kX),
                             CoordinateIndex(c.body, mbs::Coordinate::kY)});
  const SparseMatrix pattern = Pattern();
  for (const CableModel::Element& e : model_.elements)
    element_entries_.push_back(Entries(pattern, ElementIndices(e)));
  for (const std::array<int, 3>& body : circle_index_)
    for (const CableModel::Element& e : model_.elements)
      contact_entries_.push_back(Entries(pattern, ContactIndices(e, body)));
  std::vector<int> mechanism_index(mechanism_.size());
  std::iota(mechanism_index.begin(), mechanism_index.end(), cable_size_);
  mechanism_entries_ = Entries(pattern, mechanism_index);
  mass_ = pattern;
  damping_ = pattern;
  gravity_load_ = VecX::Zero(size_);
  const double rho_a = model_.section.mass_per_length;
  for (size_t e = 0; e < model_.elements.size(); ++e) {
    const double length = model_.elements[e].data.length;
    AddEntries(element_entries_[e], ElementMatrix(ElementMass(rho_a, length)).data(), &mass_);
    const ElementVector g = ElementLoad(rho_a * model_.gravity, length);
    const std::array<int, 8> index = ElementIndices(model_.elements[e]);
    for (int k = 0; k < 8; ++k) gravity_load_(index[k]) += g(k);
  }
  AddEntries(mechanism_entries_, mechanism_.mass().dense().data(), &mass_);
  AddEntries(mechanism_entries_, mechanism_.damping().dense().data(), &damping_);
  // The contact's data variables at the initial state (at rest), committed.
  states_.assign(circles_.size() * model_.elements.size() * model_.contact.segments, {});
  committed_ = states_;
  const VecX q = InitialPositions(), v = VecX::Zero(size_);
  PostNewtonUpdate({0.0, 1.0, &q, &v, &q, false});
  Commit();
}

SparseMatrix CableSystem::Pattern() const {
  std::vector<Eigen::Triplet<double>> entries;
  for (const CableModel::Element& e : model_.elements) {
    const std::array<int, 8> index = ElementIndices(e);
    for (const int i : index)
      for (const int j : index) entries.emplace_back(i, j, 0.0);
  }
  for (const std::array<int, 3>& body : circle_index_)
    for (const CableModel::Element& e : model_.elements) {
      const std::array<int, 11> index = ContactIndices(e, body);
      for (const int i : index)
        for (int j = 8; j < 11; ++j) {
          entries.emplace_back(i, index[j], 0.0);
          entries.emplace_back(index[j], i, 0.0);
        }
    }
  for (int i = cable_size_; i < size_; ++i)
    for (int j = cable_size_; j < size_; ++j) entries.emplace_back(i, j, 0.0);
  SparseMatrix pattern(size(), size());
  pattern.setFromTriplets(entries.begin(), entries.end());
  return pattern;
}

const SegmentState& CableSystem::Segment(int c, int e, int s) const {
  return states_[(size_t(c) * model_.elements.size() + e) * model_.contact.segments + s];
}

int CableSystem::CountContact(int slip_state, int c) const {
  const size_t per_circle = model_.elements.size() * model_.contact.segments;
  const auto first = states_.begin() + (c < 0 ? 0 : c * per_circle);
  const auto last = c < 0 ? states_.end() : first + per_circle;
  return int(std::count_if(
      first, last, [&](const SegmentState& s) { return s.gap <= 0.0 && s.slip == slip_state; }));
}

SegmentForces CableSystem::ContactForces(int c, int e, int s, const VecX& q, const VecX& v) const {
  return SegmentContactForces(model_.contact, CircleAt(c, q, v), model_.elements[e].data.length, s,
                              Segment(c, e, s), ElementCoordinates(e, q), ElementCoordinates(e, v),
                              false);
}

double CableSystem::ContactTorque(int c, const VecX& q, const VecX& v) const {
  double torque = 0.0;  // f(8) is the internal force on the angle: minus the torque
  for (size_t e = 0; e < model_.elements.size(); ++e)
    for (int s = 0; s < model_.contact.segments; ++s)
      if (Segment(c, int(e), s).gap <= 0.0) torque -= ContactForces(c, int(e), s, q, v).f(8);
  return torque;
}

Vec2 CableSystem::ContactForce(int c, const VecX& q, const VecX& v) const {
  Vec2 force = Vec2::Zero();  // minus the force on the belt, the sum over its positions' shares
  for (size_t e = 0; e < model_.elements.size(); ++e)
    for (int s = 0; s < model_.contact.segments; ++s) {
      if (Segment(c, int(e), s).gap > 0.0) continue;
      const SegmentForces forces = ContactForces(c, int(e), s, q, v);
      force += forces.f.segment<2>(0) + forces.f.segment<2>(4);
    }
  return force;
}

CircleState CableSystem::CircleAt(int c, const VecX& q, const VecX& v) const {
  const auto [angle, x, y] = circle_index_[c];
  return {Vec2(q(x), q(y)), circles_[c].radius, q(angle), v(angle), Vec2(v(x), v(y))};
}

double CableSystem::PostNewtonUpdate(const time::StepPoint& point) {
  const ContactLaw& law = model_.contact;
  double error = 0.0;
  for (size_t c = 0; c < circles_.size(); ++c) {
    const CircleState circle = CircleAt(int(c), *point.q, *point.v);
    for (size_t e = 0; e < model_.elements.size(); ++e) {
      const double length = model_.elements[e].data.length;
      const ElementVector q = ElementCoordinates(int(e), *point.q);
      const ElementVector v = ElementCoordinates(int(e), *point.v);
      const size_t first = (c * model_.elements.size() + e) * law.segments;
      SegmentState* state = &states_[first];
      const SegmentState* start = &committed_[first];  // at the step's start
      if (!ElementBox(q, length).Near(circle.centre, circle.radius + law.offset)) {
        for (int s = 0; s < law.segments; ++s) {  // far: open (every chord is in the box)
          if (state[s].gap <= 0.0)
            error += UpdateSegment(law, circle, length, s, q, v, start[s], state[s]);
          state[s] = {};
        }
        continue;
      }
      for (int s = 0; s < law.segments; ++s)
        error += UpdateSegment(law, circle, length, s, q, v, start[s], state[s]);
    }
  }
  return error;
}

void CableSystem::Commit() {
  committed_ = states_;
  mechanism_.Commit();
}

void CableSystem::AddContactForces(const time::StepPoint& point, VecX& f, Matrix* k, Matrix* d) {
  const ContactLaw& law = model_.contact;
  const size_t elements = model_.elements.size();
  for (size_t c = 0; c < circles_.size(); ++c) {
    const CircleState circle = CircleAt(int(c), *point.q, *point.v);
    for (size_t e = 0; e < elements; ++e) {
      const SegmentState* state = &states_[(c * elements + e) * law.segments];
      if (std::none_of(state, state + law.segments,
                       [](const SegmentState& s) { return s.gap <= 0.0; }))
        continue;
      const ElementVector q = ElementCoordinates(int(e), *point.q);
      const ElementVector v = ElementCoordinates(int(e), *point.v);
      SegmentForces sum;  // over the element's segments in contact
      for (int s = 0; s < law.segments; ++s) {
        if (state[s].gap > 0.0) continue;
        const SegmentForces forces = SegmentContactForces(
            law, circle, model_.elements[e].data.length, s, state[s], q, v, k != nullptr);
        sum.f += forces.f;
        if (k) sum.k += forces.k, sum.d += forces.d;
        stored_energy_ += forces.energy;
      }
      const CentreForces on_body = MovingCentre(sum, k != nullptr);
      const std::array<int, 11> index = ContactIndices(model_.elements[e], circle_index_[c]);
      for (int i = 0; i < 11; ++i) f(index[i]) += on_body.f(i);
      AddEntries(contact_entries_[c * elements + e], on_body.k.data(), k);
      AddEntries(contact_entries_[c * elements + e], on_body.d.data(), d);
    }
  }
}

Status CableSystem::AddMechanismForces(const time::StepPoint& point, VecX& f, Matrix* k,
                                       Matrix* d) {
  const int m = mechanism_.size();
  const VecX q = point.q->tail(m), v = point.v->tail(m);
  const VecX q_start = point.q_start ? VecX(point.q_start->tail(m)) : q;
  VecX force = VecX::Zero(m);
  Matrix k_m, d_m;
  if (k) k_m.SetZeroLike(mechanism_.mass()), d_m.SetZeroLike(mechanism_.mass());
  const Status status =
      mechanism_.InternalForce({point.t, point.dt, &q, &v, &q_start, point.discrete_gradient},
                               force, k ? &k_m : nullptr, k ? &d_m : nullptr);
  f.tail(m) += force;
  if (!k) return status;
  AddEntries(mechanism_entries_, k_m.dense().data(), k);
  AddEntries(mechanism_entries_, d_m.dense().data(), d);
  return status;
}

VecX CableSystem::InitialPositions() const {
  VecX q(size());
  q.head(cable_size_) = model_.nodes.transpose().reshaped();  // node by node: x, y, x', y'
  q.tail(mechanism_.size()) = mechanism_.InitialPositions();
  return q;
}

VecX CableSystem::InitialVelocities() const {
  VecX v = VecX::Zero(size());
  v.tail(mechanism_.size()) = mechanism_.InitialVelocities();
  return v;
}

VecX CableSystem::CoordinateUnits() const {
  VecX units = VecX::Ones(size());
  units.tail(mechanism_.size()) = mechanism_.CoordinateUnits();
  return units;
}

ElementVector CableSystem::ElementCoordinates(int e, const VecX& q) const {
  const std::array<int, 8> index = ElementIndices(model_.elements[e]);
  ElementVector x;
  for (int k = 0; k < 8; ++k) x(k) = q(index[k]);
  return x;
}

Status CableSystem::InternalForce(const time::StepPoint& point, VecX& f, Matrix* stiffness,
                                  Matrix* damping_tangent) {
  // The tangents come zero with mass()'s pattern (SecondOrderSystem): written at the cached
  // entry positions.
  Matrix* d_out = stiffness ? damping_tangent : nullptr;
  for (const Matrix* t : {stiffness, d_out})
    JD_CHECK(!t || (!t->is_dense() && t->sparse().nonZeros() == mass_.sparse().nonZeros()),
             "CableSystem::InternalForce: the tangents must come with mass()'s pattern");
  stored_energy_ = 0.0;
  ElementVector force;
  ElementMatrix k_e, d_e;
  for (size_t e = 0; e < model_.elements.size(); ++e) {
    const std::array<int, 8> index = ElementIndices(model_.elements[e]);
    const ElementVector q = ElementCoordinates(int(e), *point.q);
    const ElementVector v = ElementCoordinates(int(e), *point.v);
    stored_energy_ += ElementForces(model_.section, model_.elements[e].data, q, v, force,
                                    stiffness ? &k_e : nullptr, d_out ? &d_e : nullptr);
    for (int i = 0; i < 8; ++i) f(index[i]) += force(i);
    AddEntries(element_entries_[e], k_e.data(), stiffness);
    AddEntries(element_entries_[e], d_e.data(), d_out);
  }
  AddContactForces(point, f, stiffness, d_out);
  if (Status status = AddMechanismForces(point, f, stiffness, d_out); !status) return status;
  if (!f.allFinite())
    return Status::Failure(
        "the cable's internal force is not finite at t = " + FormatValue(point.t) + " s");
  return Status::Ok();
}

void CableSystem::ExternalForce(double t, VecX& f) const {
  f += gravity_load_;
  for (const NodalLoad& load : model_.loads)
    f(4 * load.node + load.coordinate) += load.value.Value(t);
  const int m = mechanism_.size();
  VecX on_mechanism = VecX::Zero(m);
  mechanism_.ExternalForce(t, on_mechanism);
  f.tail(m) += on_mechanism;
}

Status CableSystem::ConfigurationLoad(double t, const VecX& q, VecX& f, Matrix* tangent) {
  const int m = mechanism_.size();
  VecX load = VecX::Zero(m);
  Matrix load_tangent;
  if (tangent) load_tangent.SetZeroLike(mechanism_.mass());
  const Status status =
      mechanism_.ConfigurationLoad(t, q.tail(m), load, tangent ? &load_tangent : nullptr);
  f.tail(m) += load;
  if (tangent) AddEntries(mechanism_entries_, load_tangent.dense().data(), tangent);
  return status;
}

int CableSystem::constraint_count() const {
  return int(model_.fixed.size()) + mechanism_.constraint_count();
}

Status CableSystem::Constraints(double t, const VecX& q, VecX& c, SparseMatrix* jacobian) {
  const int fixed = int(model_.fixed.size()), m = mechanism_.size();
  std::vector<Eigen::Triplet<double>> entries;
  for (int r = 0; r < fixed; ++r) {
    const int i = model_.fixed[r];  // a node's coordinate (Validate)
    c(r) = q(i) - model_.nodes(i / 4, i % 4);
    entries.emplace_back(r, i, 1.0);
  }
  VecX rows(mechanism_.constraint_count());
  SparseMatrix c_q;
  const Status status = mechanism_.Constraints(t, q.tail(m), rows, jacobian ? &c_q : nullptr);
  c.tail(rows.size()) = rows;
  if (!jacobian) return status;
  for (int j = 0; j < c_q.outerSize(); ++j)
    for (SparseMatrix::InnerIterator it(c_q, j); it; ++it)
      entries.emplace_back(fixed + int(it.row()), cable_size_ + j, it.value());
  jacobian->resize(constraint_count(), size());
  jacobian->setFromTriplets(entries.begin(), entries.end());
  return status;
}

Status CableSystem::ConstraintForceTangent(double t, const VecX& q, const VecX& lambda,
                                           SparseMatrix& tangent) {
  const int m = mechanism_.size(), rows = mechanism_.constraint_count();
  SparseMatrix on_mechanism(m, m);
  const Status status =
      mechanism_.ConstraintForceTangent(t, q.tail(m), lambda.tail(rows), on_mechanism);
  std::vector<Eigen::Triplet<double>> entries;
  for (int j = 0; j < on_mechanism.outerSize(); ++j)
    for (SparseMatrix::InnerIterator it(on_mechanism, j); it; ++it)
      entries.emplace_back(cable_size_ + int(it.row()), cable_size_ + j, it.value());
  tangent.resize(size(), size());
  tangent.setFromTriplets(entries.begin(), entries.end());
  return status;
}

Status CableSystem::ConstraintAccelerationTerm(double t, const VecX& q, const VecX& v, VecX& q_c) {
  const int m = mechanism_.size(), rows = mechanism_.constraint_count();
  VecX on_mechanism = VecX::Zero(rows);
  const Status status =
      mechanism_.ConstraintAccelerationTerm(t, q.tail(m), v.tail(m), on_mechanism);
  q_c.tail(rows) = on_mechanism;  // the clamps' rows: 0
  return status;
}

solvers::NewtonOptions StaticNewton() {
  solvers::NewtonOptions options;
  options.line_search = solvers::LineSearch::kNone;
  return options;
}

solvers::NewtonResult SolveStatic(CableSystem& system, double t, VecX& q,
                                  const solvers::NewtonOptions& options, bool contact_follows) {
  std::set<int> held(system.model().fixed.begin(), system.model().fixed.end());
  for (const Circle& c : system.circles())
    held.insert(system.CoordinateIndex(c.body, mbs::Coordinate::kAngle));
  VecX c(system.constraint_count());
  SparseMatrix c_q;
  if (Status status = system.Constraints(t, q, c, &c_q); !status) {
    solvers::NewtonResult failed;
    failed.status = Status::Failure("the constraints at the start: " + status.message);
    return failed;
  }
  const SparseMatrix rows = c_q.transpose();  // row by row
  std::vector<int> kept;
  for (int r = 0; r < rows.outerSize(); ++r) {
    bool free = false;
    for (SparseMatrix::InnerIterator it(rows, r); it; ++it) free |= !held.count(int(it.row()));
    if (free)
      kept.push_back(r);
    else if (rows.col(r).nonZeros() == 1)  // a clamp or a driver: met by its coordinate
      for (SparseMatrix::InnerIterator it(rows, r); it; ++it) q(it.row()) -= c(r) / it.value();
  }
  StaticModel model(system, t, q, std::move(held), kept, contact_follows);
  VecX x = VecX::Zero(model.size());
  x.head(q.size()) = q;
  solvers::NewtonSolver newton(options);
  const solvers::NewtonResult result = newton.Solve(model, x);
  q = x.head(q.size());
  return result;
}

}  // namespace jointdyn::ancf
