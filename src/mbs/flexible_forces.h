// The forces inside a multibody system's flexible bodies, planar or spatial: the elastic
// forces K_ff zeta (less a constant elastic load: a preload) and the forces of the bodies' joints
// on their modal coordinates (seed 003 eq. 3.15: contact and friction act on the elastic
// coordinates only), with their tangents and stored energy. Each system holds its own copies of the
// joints (their history).
#pragma once

#include <string>
#include <vector>

#include "core/error.h"
#include "core/status.h"
#include "joint/joint_operator.h"
#include "mbs/flexible_inertia.h"
#include "mbs/matrix_assembly.h"
#include "time/second_order_system.h"

namespace jointdyn::mbs {

// A flexible body's inertia force (its `count` coordinates from `first`: frame and modal)
// into f, and M(q) and the tangents when asked for (EvaluateInertia of the planar or spatial
// inertia integrals).
template <class Inertia>
void AddFlexibleInertia(const Inertia& inertia, int first, int count, const VecX& q, const VecX& v,
                        const VecX& a, VecX& f, MatrixAssembly& mass, MatrixAssembly& d_dq,
                        MatrixAssembly& d_dv) {
  InertiaTerms terms;
  EvaluateInertia(inertia, q.segment(first, count), v.segment(first, count),
                  a.segment(first, count), mass.active() || d_dq.active() || d_dv.active(), terms);
  f.segment(first, count) = terms.force;
  mass.AddBlock(first, first, terms.mass);
  d_dq.AddBlock(first, first, terms.d_dq);
  d_dv.AddBlock(first, first, terms.d_dv);
}

class FlexibleForces {
 public:
  // `frame`: the coordinates of a flexible body before its modal ones (3 planar, 7 spatial).
  FlexibleForces() = default;
  template <class Model>
  FlexibleForces(const Model& model, int frame) : frame_(frame) {
    for (size_t b = 0; b < model.bodies.size(); ++b) {
      if (!model.bodies[b].flexible) continue;
      bodies_.push_back(int(b));
      for (const joint::JointOperator& joint : model.bodies[b].flexible->joints) {
        joints_.push_back(joint);
        joint_bodies_.push_back(int(b));
      }
    }
  }

  const std::vector<joint::JointOperator>& joints() const { return joints_; }
  const std::vector<int>& joint_bodies() const { return joint_bodies_; }

  // Adds the forces at `point` to f and their tangents (`offsets`: per body the index of its
  // first coordinate) and their stored energy to `energy`. A joint that fails names
  // itself, its body and the time.
  template <class Model>
  Status Add(const Model& model, const std::vector<int>& offsets, const time::StepPoint& point,
             VecX& f, MatrixAssembly& stiffness, MatrixAssembly& damping_tangent, double& energy) {
    const VecX& q = *point.q;
    for (const int b : bodies_) {
      const auto& body = *model.bodies[b].flexible;
      const int first = offsets[b] + frame_, n = body.modes();
      const VecX force = body.stiffness * q.segment(first, n);
      f.segment(first, n) += force;
      energy += 0.5 * q.segment(first, n).dot(force);
      if (body.elastic_load.size() > 0) {
        f.segment(first, n) -= body.elastic_load;
        energy -= q.segment(first, n).dot(body.elastic_load);
      }
      stiffness.AddBlock(first, first, body.stiffness);
    }
    VecX force;
    for (size_t j = 0; j < joints_.size(); ++j) {
      const int b = joint_bodies_[j];
      const int first = offsets[b] + frame_, n = model.bodies[b].flexible->modes();
      const VecX zeta = q.segment(first, n), rate = point.v->segment(first, n);
      if (Status status = joints_[j].Evaluate(zeta, &rate, point.dt); !status)
        return Status::Failure("joint " + std::to_string(j) + " of body " + model.bodies[b].name +
                               ": " + status.message + " at t = " + FormatValue(point.t) + " s");
      joints_[j].Forces(force);
      f.segment(first, n) += force;
      energy += joints_[j].StoredEnergy();
      if (stiffness.active())
        AddJacobian(joints_[j], first, joint::Derivative::kDisplacement, stiffness);
      if (damping_tangent.active() && joints_[j].rate_dependent())
        AddJacobian(joints_[j], first, joint::Derivative::kVelocity, damping_tangent);
    }
    return Status::Ok();
  }

  void Commit() {
    for (joint::JointOperator& joint : joints_) joint.Commit();
  }

 private:
  // A joint's Jacobian on a flexible body's modal coordinates (from `first` on): sparse for
  // an unreduced body's joint, dense for a reduced one's.
  static void AddJacobian(joint::JointOperator& joint, int first, joint::Derivative derivative,
                          MatrixAssembly& out) {
    if (joint.relative().is_sparse()) {
      solvers::SparseMatrix jacobian;
      joint.Jacobian(jacobian, derivative);
      out.AddBlock(first, first, jacobian);
    } else {
      MatX jacobian;
      joint.Jacobian(jacobian, derivative);
      out.AddBlock(first, first, jacobian);
    }
  }

  int frame_ = 0;
  std::vector<int> bodies_;
  std::vector<joint::JointOperator> joints_;
  std::vector<int> joint_bodies_;
};

}  // namespace jointdyn::mbs
