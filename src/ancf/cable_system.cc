#include "ancf/cable_system.h"

#include <algorithm>
#include <cmath>
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

// ... and pulley p's coordinates after them (from `first`: the angle, a moving centre's x, y).
std::vector<int> ContactIndices(const CableModel::Element& e, int first, int coordinates) {
  const std::array<int, 8> element = ElementIndices(e);
  std::vector<int> index(element.begin(), element.end());
  for (int k = 0; k < coordinates; ++k) index.push_back(first + k);
  return index;
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

// The static equilibrium as a residual model: f_int(q) - f_ext(t) on the free coordinates,
// q_i - q0_i on the fixed ones.
class StaticModel final : public solvers::ResidualModel {
 public:
  StaticModel(CableSystem& system, double t, const VecX& start, bool contact_follows)
      : system_(system), t_(t), start_(start), contact_follows_(contact_follows) {
    external_ = VecX::Zero(system.size());
    system.ExternalForce(t, external_);
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
    force_scale_ = std::max(external_.lpNorm<Eigen::Infinity>(),
                            1e-6 * s.axial_stiffness * length_scale_ / shortest);
  }
  int size() const override { return system_.size(); }
  Status Evaluate(const VecX& x, VecX& residual, Matrix* jacobian) override {
    const VecX zero = VecX::Zero(size());
    residual = VecX::Zero(size());
    if (contact_follows_) system_.PostNewtonUpdate({t_, 1.0, &x, &zero, &x, false});
    Matrix k, d;
    if (jacobian) {
      k.SetZeroLike(system_.mass());
      d.SetZeroLike(system_.mass());
    }
    if (Status status = system_.InternalForce({t_, 1.0, &x, &zero, &x, false}, residual,
                                              jacobian ? &k : nullptr, jacobian ? &d : nullptr);
        !status)
      return status;
    residual -= external_;
    // The fixed coordinates and the pulleys' angles are held.
    std::set<int> fixed(system_.model().fixed.begin(), system_.model().fixed.end());
    for (size_t p = 0; p < system_.model().pulleys.size(); ++p)
      fixed.insert(system_.PulleyIndex(int(p)));
    for (const int i : fixed) residual(i) = (x(i) - start_(i)) * force_scale_ / length_scale_;
    if (!jacobian) return Status::Ok();
    SparseMatrix j = k.sparse();
    j.prune([&](int row, int, double) { return !fixed.count(row); });
    for (const int i : fixed) j.coeffRef(i, i) = force_scale_ / length_scale_;
    *jacobian = j;
    return Status::Ok();
  }
  VecX ResidualScale() const override { return VecX::Constant(size(), force_scale_); }
  VecX UnknownScale() const override { return VecX::Constant(size(), length_scale_); }

 private:
  CableSystem& system_;
  double t_;
  VecX start_;  // the held coordinates' values
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
  if (pulleys.empty()) return;
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

CableSystem::CableSystem(CableModel model) : model_(std::move(model)) {
  model_.Validate();
  cable_size_ = int(model_.nodes.size());
  size_ = cable_size_;
  for (const Pulley& p : model_.pulleys) {
    pulley_index_.push_back(size_);
    size_ += p.coordinates();
  }
  const int n = size();
  const SparseMatrix pattern = Pattern();
  for (const CableModel::Element& e : model_.elements)
    element_entries_.push_back(Entries(pattern, ElementIndices(e)));
  for (size_t p = 0; p < model_.pulleys.size(); ++p)
    for (const CableModel::Element& e : model_.elements)
      contact_entries_.push_back(
          Entries(pattern, ContactIndices(e, pulley_index_[p], model_.pulleys[p].coordinates())));
  mass_ = pattern;
  damping_ = pattern;
  gravity_load_ = VecX::Zero(n);
  const double rho_a = model_.section.mass_per_length;
  for (size_t e = 0; e < model_.elements.size(); ++e) {
    const double length = model_.elements[e].data.length;
    AddEntries(element_entries_[e], ElementMatrix(ElementMass(rho_a, length)).data(), &mass_);
    const ElementVector g = ElementLoad(rho_a * model_.gravity, length);
    const std::array<int, 8> index = ElementIndices(model_.elements[e]);
    for (int k = 0; k < 8; ++k) gravity_load_(index[k]) += g(k);
  }
  for (size_t p = 0; p < model_.pulleys.size(); ++p) {
    const Pulley& pulley = model_.pulleys[p];
    const int i = pulley_index_[p];
    mass_.sparse().coeffRef(i, i) += pulley.inertia;
    damping_.sparse().coeffRef(i, i) += pulley.damping;
    for (int c = 1; c < pulley.coordinates(); ++c) {
      mass_.sparse().coeffRef(i + c, i + c) += pulley.mass;
      damping_.sparse().coeffRef(i + c, i + c) += pulley.centre_damping;
      gravity_load_(i + c) += pulley.mass * model_.gravity(c - 1);
    }
  }
  // The contact's data variables at the initial state (at rest), committed.
  states_.assign(model_.pulleys.size() * model_.elements.size() * model_.contact.segments, {});
  committed_ = states_;
  const VecX q = InitialPositions(), v = VecX::Zero(n);
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
  for (size_t p = 0; p < model_.pulleys.size(); ++p)
    for (const CableModel::Element& e : model_.elements) {
      const std::vector<int> index =
          ContactIndices(e, pulley_index_[p], model_.pulleys[p].coordinates());
      for (const int i : index)
        for (int j = 8; j < int(index.size()); ++j) {
          entries.emplace_back(i, index[j], 0.0);
          entries.emplace_back(index[j], i, 0.0);
        }
    }
  SparseMatrix pattern(size(), size());
  pattern.setFromTriplets(entries.begin(), entries.end());
  return pattern;
}

const SegmentState& CableSystem::Segment(int p, int e, int s) const {
  return states_[(size_t(p) * model_.elements.size() + e) * model_.contact.segments + s];
}

int CableSystem::CountContact(int slip_state, int p) const {
  const size_t per_pulley = model_.elements.size() * model_.contact.segments;
  const auto first = states_.begin() + (p < 0 ? 0 : p * per_pulley);
  const auto last = p < 0 ? states_.end() : first + per_pulley;
  return int(std::count_if(
      first, last, [&](const SegmentState& s) { return s.gap <= 0.0 && s.slip == slip_state; }));
}

SegmentForces CableSystem::ContactForces(int p, int e, int s, const VecX& q, const VecX& v) const {
  return SegmentContactForces(model_.contact, Circle(p, q, v), model_.elements[e].data.length, s,
                              Segment(p, e, s), ElementCoordinates(e, q), ElementCoordinates(e, v),
                              false);
}

double CableSystem::ContactTorque(int p, const VecX& q, const VecX& v) const {
  double torque = 0.0;  // f(8) is the internal force on the angle: minus the torque
  for (size_t e = 0; e < model_.elements.size(); ++e)
    for (int s = 0; s < model_.contact.segments; ++s)
      if (Segment(p, int(e), s).gap <= 0.0) torque -= ContactForces(p, int(e), s, q, v).f(8);
  return torque;
}

Vec2 CableSystem::ContactForce(int p, const VecX& q, const VecX& v) const {
  Vec2 force = Vec2::Zero();  // minus the force on the belt, the sum over its positions' shares
  for (size_t e = 0; e < model_.elements.size(); ++e)
    for (int s = 0; s < model_.contact.segments; ++s) {
      if (Segment(p, int(e), s).gap > 0.0) continue;
      const SegmentForces forces = ContactForces(p, int(e), s, q, v);
      force += forces.f.segment<2>(0) + forces.f.segment<2>(4);
    }
  return force;
}

void CableSystem::AddCentreSprings(const VecX& q, VecX& f, Matrix* k) {
  for (size_t p = 0; p < model_.pulleys.size(); ++p) {
    const Pulley& pulley = model_.pulleys[p];
    if (!pulley.moves) continue;
    const int i = pulley_index_[p] + 1;
    const Vec2 stretch = q.segment<2>(i) - pulley.centre;
    f.segment<2>(i) += pulley.centre_stiffness * stretch;
    stored_energy_ += 0.5 * pulley.centre_stiffness * stretch.squaredNorm();
    if (!k) continue;
    for (int c = 0; c < 2; ++c) k->sparse().coeffRef(i + c, i + c) += pulley.centre_stiffness;
  }
}

CircleState CableSystem::Circle(int p, const VecX& q, const VecX& v) const {
  const Pulley& pulley = model_.pulleys[p];
  const int i = pulley_index_[p];
  if (!pulley.moves) return {pulley.centre, pulley.radius, q(i), v(i)};
  return {q.segment<2>(i + 1), pulley.radius, q(i), v(i), v.segment<2>(i + 1)};
}

double CableSystem::PostNewtonUpdate(const time::StepPoint& point) {
  const ContactLaw& law = model_.contact;
  double error = 0.0;
  for (size_t p = 0; p < model_.pulleys.size(); ++p) {
    const CircleState circle = Circle(int(p), *point.q, *point.v);
    for (size_t e = 0; e < model_.elements.size(); ++e) {
      const double length = model_.elements[e].data.length;
      const ElementVector q = ElementCoordinates(int(e), *point.q);
      const ElementVector v = ElementCoordinates(int(e), *point.v);
      const size_t first = (p * model_.elements.size() + e) * law.segments;
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

Status CableSystem::AddContactForces(const time::StepPoint& point, VecX& f, Matrix* k, Matrix* d) {
  const ContactLaw& law = model_.contact;
  const size_t elements = model_.elements.size();
  for (size_t p = 0; p < model_.pulleys.size(); ++p) {
    const CircleState circle = Circle(int(p), *point.q, *point.v);
    for (size_t e = 0; e < elements; ++e) {
      const SegmentState* state = &states_[(p * elements + e) * law.segments];
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
      const std::array<int, 8> index = ElementIndices(model_.elements[e]);
      for (int i = 0; i < 8; ++i) f(index[i]) += sum.f(i);
      f(pulley_index_[p]) += sum.f(8);
      const std::vector<int>& entries = contact_entries_[p * elements + e];
      if (!model_.pulleys[p].moves) {
        AddEntries(entries, sum.k.data(), k);
        AddEntries(entries, sum.d.data(), d);
        continue;
      }
      const CentreForces centre = MovingCentre(sum, k != nullptr);
      for (int i = 0; i < 2; ++i) f(pulley_index_[p] + 1 + i) += centre.f(9 + i);
      AddEntries(entries, centre.k.data(), k);
      AddEntries(entries, centre.d.data(), d);
    }
  }
  return Status::Ok();
}

VecX CableSystem::InitialPositions() const {
  VecX q = VecX::Zero(size());
  q.head(cable_size_) = model_.nodes.transpose().reshaped();  // node by node: x, y, x', y'
  for (size_t p = 0; p < model_.pulleys.size(); ++p) {
    const Pulley& pulley = model_.pulleys[p];
    if (pulley.driven) q(pulley_index_[p]) = pulley.motion.Value(0.0);
    if (pulley.moves) q.segment<2>(pulley_index_[p] + 1) = pulley.centre + pulley.shift;
  }
  return q;
}

VecX CableSystem::InitialVelocities() const {
  VecX v = VecX::Zero(size());
  for (size_t p = 0; p < model_.pulleys.size(); ++p)
    if (model_.pulleys[p].driven) v(pulley_index_[p]) = model_.pulleys[p].motion.Rate(0.0);
  return v;
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
  AddCentreSprings(*point.q, f, stiffness);
  if (Status status = AddContactForces(point, f, stiffness, d_out); !status) return status;
  if (!f.allFinite())
    return Status::Failure(
        "the cable's internal force is not finite at t = " + FormatValue(point.t) + " s");
  return Status::Ok();
}

void CableSystem::ExternalForce(double t, VecX& f) const {
  f += gravity_load_;
  for (size_t p = 0; p < model_.pulleys.size(); ++p) {
    const Pulley& pulley = model_.pulleys[p];
    f(pulley_index_[p]) += pulley.torque.Value(t);
    if (!pulley.moves) continue;
    f(pulley_index_[p] + 1) += pulley.force_x.Value(t);
    f(pulley_index_[p] + 2) += pulley.force_y.Value(t);
  }
  for (const NodalLoad& load : model_.loads)
    f(4 * load.node + load.coordinate) += load.value.Value(t);
}

int CableSystem::constraint_count() const {
  int driven = 0;
  for (const Pulley& p : model_.pulleys) driven += p.driven ? 1 : 0;
  return int(model_.fixed.size()) + driven;
}

Status CableSystem::ConstraintAccelerationTerm(double t, const VecX& q, const VecX& v, VecX& q_c) {
  int row = int(model_.fixed.size());
  for (const Pulley& p : model_.pulleys)
    if (p.driven) q_c(row++) = p.motion.Acceleration(t);  // C_q a = -c_tt = motion''
  return Status::Ok();
}

Status CableSystem::Constraints(double t, const VecX& q, VecX& c, SparseMatrix* jacobian) {
  std::vector<Eigen::Triplet<double>> entries;
  for (size_t r = 0; r < model_.fixed.size(); ++r) {
    const int i = model_.fixed[r];  // a node's coordinate (Validate)
    c(r) = q(i) - model_.nodes(i / 4, i % 4);
    entries.emplace_back(int(r), model_.fixed[r], 1.0);
  }
  int row = int(model_.fixed.size());
  for (size_t p = 0; p < model_.pulleys.size(); ++p) {
    if (!model_.pulleys[p].driven) continue;
    c(row) = q(pulley_index_[p]) - model_.pulleys[p].motion.Value(t);
    entries.emplace_back(row++, pulley_index_[p], 1.0);
  }
  if (jacobian) {
    jacobian->resize(constraint_count(), size());
    jacobian->setFromTriplets(entries.begin(), entries.end());
  }
  return Status::Ok();
}

solvers::NewtonOptions StaticNewton() {
  solvers::NewtonOptions options;
  options.line_search = solvers::LineSearch::kNone;
  return options;
}

solvers::NewtonResult SolveStatic(CableSystem& system, double t, VecX& q,
                                  const solvers::NewtonOptions& options, bool contact_follows) {
  VecX start = system.InitialPositions();
  start.tail(system.size() - system.cable_size()) = q.tail(system.size() - system.cable_size());
  StaticModel model(system, t, start, contact_follows);
  solvers::NewtonSolver newton(options);
  return newton.Solve(model, q);
}

}  // namespace jointdyn::ancf
