#include "lumped/lumped_system.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/error.h"

namespace jointdyn::lumped {
namespace {

using Triplets = std::vector<Eigen::Triplet<double>>;

void CheckEnd(const LumpedModel& model, int end, const std::string& what) {
  JD_CHECK(end == kGround || (end >= 0 && end < int(model.dofs.size())),
           what + ": end " + std::to_string(end) + " is not a DOF index or kGround");
}

void CheckEnds(const LumpedModel& model, int a, int b, const std::string& what) {
  CheckEnd(model, a, what);
  CheckEnd(model, b, what);
  JD_CHECK(a != b, what + ": both ends are the same");
}

// The 2x2 pattern [v, -v; -v, v] of a two-end linear element into `triplets` (all DOFs).
void AddPair(Triplets& triplets, int a, int b, double value) {
  if (a != kGround) triplets.emplace_back(a, a, value);
  if (b != kGround) triplets.emplace_back(b, b, value);
  if (a != kGround && b != kGround) {
    triplets.emplace_back(a, b, -value);
    triplets.emplace_back(b, a, -value);
  }
}

time::SparseMatrix FromTriplets(int rows, int cols, const Triplets& triplets) {
  time::SparseMatrix m(rows, cols);
  m.setFromTriplets(triplets.begin(), triplets.end());
  return m;
}

// The rows and columns of `all` (model DOFs) that belong to unknowns.
time::SparseMatrix Restrict(const time::SparseMatrix& all, const std::vector<int>& unknown,
                            int size) {
  Triplets triplets;
  for (int col = 0; col < all.outerSize(); ++col)
    for (time::SparseMatrix::InnerIterator it(all, col); it; ++it)
      if (unknown[it.row()] >= 0 && unknown[it.col()] >= 0)
        triplets.emplace_back(unknown[it.row()], unknown[it.col()], it.value());
  return FromTriplets(size, size, triplets);
}

}  // namespace

LumpedSystem::LumpedSystem(LumpedModel model) : model_(std::move(model)) {
  const int n_all = int(model_.dofs.size());
  for (int i = 0; i < n_all; ++i) {
    const Dof& dof = model_.dofs[i];
    if (dof.motion) {
      unknown_.push_back(-1);
      prescribed_.push_back(i);
    } else {
      JD_CHECK(dof.mass > 0.0 && std::isfinite(dof.mass),
               "DOF '" + dof.name + "': mass " + FormatValue(dof.mass) + " must be > 0");
      unknown_.push_back(int(free_.size()));
      free_.push_back(i);
    }
  }
  const int n = size();

  Triplets mass;
  for (int i = 0; i < n; ++i) mass.emplace_back(i, i, model_.dofs[free_[i]].mass);
  mass_ = FromTriplets(n, n, mass);

  Triplets stiffness, damping;
  for (const Spring& s : model_.springs) {
    CheckEnds(model_, s.a, s.b, "spring '" + s.name + "'");
    JD_CHECK(s.k >= 0.0 && std::isfinite(s.k), "spring '" + s.name + "': k must be >= 0");
    AddPair(stiffness, s.a, s.b, s.k);
  }
  for (const Damper& d : model_.dampers) {
    CheckEnds(model_, d.a, d.b, "damper '" + d.name + "'");
    JD_CHECK(d.c >= 0.0 && std::isfinite(d.c), "damper '" + d.name + "': c must be >= 0");
    AddPair(damping, d.a, d.b, d.c);
  }
  stiffness_all_ = FromTriplets(n_all, n_all, stiffness);
  damping_all_ = FromTriplets(n_all, n_all, damping);
  stiffness_free_ = Restrict(stiffness_all_, unknown_, n);
  damping_free_ = Restrict(damping_all_, unknown_, n);

  for (const FrictionElement& e : model_.friction) {
    const std::string what = "friction element '" + e.name + "'";
    JD_CHECK(e.law != nullptr && int(e.a.size()) == e.law->dim() && e.b.size() == e.a.size(),
             what + ": needs a law and one end pair per slip component");
    std::vector<int> tangential;
    for (size_t i = 0; i < e.a.size(); ++i) {
      CheckEnds(model_, e.a[i], e.b[i], what);
      for (const int end : {e.a[i], e.b[i]})
        if (end != kGround) tangential.push_back(end);
    }
    std::sort(tangential.begin(), tangential.end());
    JD_CHECK(std::adjacent_find(tangential.begin(), tangential.end()) == tangential.end(),
             what + ": a DOF is at two tangential ends");
    if (e.normal.kind == NormalSource::Kind::kGapDofs)
      CheckEnds(model_, e.normal.a, e.normal.b, "friction element '" + e.name + "' (normal)");
    kernels_.push_back(MakeKernel(e));
  }
  for (const ContactElement& e : model_.contacts) {
    CheckEnds(model_, e.a, e.b, "contact element '" + e.name + "'");
    kernels_.push_back(MakeKernel(e));
  }
  int offset = 0;
  for (const auto& kernel : kernels_) {
    offset_.push_back(offset);
    offset += kernel->state_size();
  }
  committed_.resize(offset);
  for (int k = 0; k < int(kernels_.size()); ++k)
    kernels_[k]->InitState(
        std::span<double>(committed_).subspan(offset_[k], kernels_[k]->state_size()));
  trial_ = switching_ = committed_;
  trial_output_.resize(kernels_.size());
  committed_output_ = trial_output_;

  for (const Load& load : model_.loads) {
    CheckEnd(model_, load.dof, "load");
    JD_CHECK(load.dof != kGround && unknown_[load.dof] >= 0,
             "load on DOF " + std::to_string(load.dof) + ": must be a free DOF");
  }
  committed_q_ = initial_positions();
  q_all_ = v_all_ = q_n_all_ = VecX::Zero(n_all);
  trial_reaction_ = committed_reaction_ = committed_u_ = VecX::Zero(int(prescribed_.size()));
}

VecX LumpedSystem::initial_positions() const {
  VecX q(size());
  for (int i = 0; i < size(); ++i) q(i) = model_.dofs[free_[i]].q0;
  return q;
}

VecX LumpedSystem::initial_velocities() const {
  VecX v(size());
  for (int i = 0; i < size(); ++i) v(i) = model_.dofs[free_[i]].v0;
  return v;
}

void LumpedSystem::AllDofs(double t, const VecX& q, const VecX& v, VecX& q_all, VecX& v_all) const {
  JD_CHECK(q.size() == size() && v.size() == size(), "state size differs from the unknowns");
  q_all.resize(int(model_.dofs.size()));
  v_all.resize(int(model_.dofs.size()));
  for (int i = 0; i < size(); ++i) {
    q_all(free_[i]) = q(i);
    v_all(free_[i]) = v(i);
  }
  for (const int p : prescribed_) {
    q_all(p) = model_.dofs[p].motion->Value(t);
    v_all(p) = model_.dofs[p].motion->Rate(t);
  }
}

void LumpedSystem::Gather(const ElementKernel& kernel, EndState& ends) const {
  const auto& dofs = kernel.ends();
  const int count = int(dofs.size());
  ends.q.resize(count);
  ends.v.resize(count);
  ends.q_n.resize(count);
  for (int i = 0; i < count; ++i) {
    const int d = dofs[i];
    ends.q(i) = d == kGround ? 0.0 : q_all_(d);
    ends.v(i) = d == kGround ? 0.0 : v_all_(d);
    ends.q_n(i) = d == kGround ? 0.0 : q_n_all_(d);
  }
}

void LumpedSystem::StartIncrement(const time::StepPoint& point) {
  JD_CHECK(point.q != nullptr && point.v != nullptr, "StepPoint without q or v");
  AllDofs(point.t, *point.q, *point.v, q_all_, v_all_);
  // Committed positions: the unknowns of the last Commit(), the motions at t - dt.
  q_n_all_ = q_all_;
  for (int i = 0; i < size(); ++i) q_n_all_(free_[i]) = committed_q_(i);
  for (const int p : prescribed_) q_n_all_(p) = model_.dofs[p].motion->Value(point.t - point.dt);
}

Status LumpedSystem::InternalForce(const time::StepPoint& point, VecX& f, time::Matrix* stiffness,
                                   time::Matrix* damping_tangent) {
  StartIncrement(point);
  const int n = size();
  const double spring_weight = point.discrete_gradient ? 0.5 : 1.0;

  // Linear elements over all DOFs. The damping matrix of the unknowns is C (the
  // integrator applies it); the damper forces of the prescribed velocities are in f_int.
  VecX v_prescribed = VecX::Zero(v_all_.size()), v_free = v_all_;
  for (const int p : prescribed_) {
    v_prescribed(p) = v_all_(p);
    v_free(p) = 0.0;
  }
  const VecX spring_q = point.discrete_gradient ? VecX(0.5 * (q_all_ + q_n_all_)) : q_all_;
  VecX f_all = stiffness_all_ * spring_q + damping_all_ * v_prescribed;
  trial_energy_ = 0.5 * q_all_.dot(stiffness_all_ * q_all_);
  const VecX damper_free = damping_all_ * v_free;

  // Law elements.
  Triplets k_triplets, d_triplets;
  const KernelPoint kernel_point{point.t, point.dt, point.discrete_gradient};
  EndState ends;
  KernelResponse response;
  for (int k = 0; k < int(kernels_.size()); ++k) {
    const ElementKernel& kernel = *kernels_[k];
    Gather(kernel, ends);
    const int size_k = kernel.state_size();
    const Status status = kernel.Evaluate(
        kernel_point, ends, std::span<const double>(switching_).subspan(offset_[k], size_k),
        std::span<double>(trial_).subspan(offset_[k], size_k), response);
    if (!status)
      return Status::Failure("element '" + kernel.name() + "': " + status.message +
                             " at t = " + FormatValue(point.t) + " s");
    const auto& dofs = kernel.ends();
    for (int i = 0; i < int(dofs.size()); ++i) {
      if (dofs[i] == kGround) continue;
      f_all(dofs[i]) += response.f(i);
      const int row = unknown_[dofs[i]];
      if (row < 0) continue;
      for (int j = 0; j < int(dofs.size()); ++j) {
        const int col = dofs[j] == kGround ? -1 : unknown_[dofs[j]];
        if (col < 0) continue;
        if (response.K(i, j) != 0.0) k_triplets.emplace_back(row, col, response.K(i, j));
        if (response.D(i, j) != 0.0) d_triplets.emplace_back(row, col, response.D(i, j));
      }
    }
    trial_energy_ += response.stored_energy;
    trial_output_[k] = {response.force, response.normal_force};
  }

  f.resize(n);
  for (int i = 0; i < n; ++i) f(i) = f_all(free_[i]);
  for (int i = 0; i < int(prescribed_.size()); ++i)
    trial_reaction_(i) = f_all(prescribed_[i]) + damper_free(prescribed_[i]);
  if (!f.allFinite() || !std::isfinite(trial_energy_))
    return Status::Failure("non-finite internal force at t = " + FormatValue(point.t) + " s");

  if (stiffness) {
    time::SparseMatrix k = FromTriplets(n, n, k_triplets);
    k += spring_weight * stiffness_free_;
    *stiffness = std::move(k);
  }
  if (damping_tangent) *damping_tangent = FromTriplets(n, n, d_triplets);
  return Status::Ok();
}

double LumpedSystem::PostNewtonUpdate(const time::StepPoint& point) {
  AllDofs(point.t, *point.q, *point.v, q_all_, v_all_);
  const KernelPoint kernel_point{point.t, point.dt, point.discrete_gradient};
  EndState ends;
  double error = 0.0;
  for (int k = 0; k < int(kernels_.size()); ++k) {
    const ElementKernel& kernel = *kernels_[k];
    const int size_k = kernel.state_size();
    if (size_k == 0) continue;
    Gather(kernel, ends);
    error = std::max(
        error, kernel.PostNewtonUpdate(kernel_point, ends,
                                       std::span<const double>(trial_).subspan(offset_[k], size_k),
                                       std::span<double>(switching_).subspan(offset_[k], size_k)));
  }
  return error;
}

void LumpedSystem::Commit() {
  committed_ = trial_;
  Rollback();  // the switching copy restarts from the new committed history
  for (int i = 0; i < size(); ++i) committed_q_(i) = q_all_(free_[i]);
  committed_output_ = trial_output_;
  for (int i = 0; i < int(prescribed_.size()); ++i) {
    const double u = q_all_(prescribed_[i]);
    if (committed_once_)
      prescribed_work_ +=
          0.5 * (committed_reaction_(i) + trial_reaction_(i)) * (u - committed_u_(i));
    committed_u_(i) = u;
  }
  committed_reaction_ = trial_reaction_;
  committed_once_ = true;
}

void LumpedSystem::Rollback() { switching_ = committed_; }

void LumpedSystem::ExternalForce(double t, VecX& f) const {
  f.setZero(size());
  for (const Load& load : model_.loads) f(unknown_[load.dof]) += load.force.Value(t);
}

std::vector<ElementInfo> Elements(const LumpedModel& model) {
  std::vector<ElementInfo> info;
  for (const Spring& s : model.springs) info.push_back({s.name, ElementKind::kSpring});
  for (const Damper& d : model.dampers) info.push_back({d.name, ElementKind::kDamper});
  for (const FrictionElement& e : model.friction)
    info.push_back({e.name, ElementKind::kFriction, int(e.a.size())});
  for (const ContactElement& e : model.contacts) info.push_back({e.name, ElementKind::kContact});
  return info;
}

std::vector<ElementForce> LumpedSystem::ElementForces(double t, const VecX& q,
                                                      const VecX& v) const {
  VecX q_all, v_all;
  AllDofs(t, q, v, q_all, v_all);
  const auto at = [](const VecX& x, int dof) { return dof == kGround ? 0.0 : x(dof); };
  std::vector<ElementForce> forces;
  for (const Spring& s : model_.springs)
    forces.push_back({Vec2(s.k * (at(q_all, s.a) - at(q_all, s.b)), 0.0), 0.0});
  for (const Damper& d : model_.dampers)
    forces.push_back({Vec2(d.c * (at(v_all, d.a) - at(v_all, d.b)), 0.0), 0.0});
  forces.insert(forces.end(), committed_output_.begin(), committed_output_.end());
  return forces;
}

}  // namespace jointdyn::lumped
