#include "analysis/bolts.h"

#include <cmath>
#include <string>

#include "core/error.h"
#include "fe/beam.h"

namespace jointdyn::analysis {

void ValidatePreloads(const std::vector<BoltPreload>& preloads, const fe::FeModelSpec& fe,
                      const std::string& list) {
  std::vector<bool> preloaded(fe.beams.size(), false);
  for (size_t i = 0; i < preloads.size(); ++i) {
    const BoltPreload& preload = preloads[i];
    const std::string key = list + "[" + std::to_string(i) + "]";
    if (preload.beam < 0 || preload.beam >= static_cast<int>(fe.beams.size()))
      throw InputError(key + ".beam", std::to_string(preload.beam),
                       "must index a beam (key beams): a preload acts along a beam bolt");
    if (preloaded[preload.beam])
      throw InputError(key + ".beam", std::to_string(preload.beam), "is preloaded twice");
    preloaded[preload.beam] = true;
    if (!(preload.force > 0.0 && std::isfinite(preload.force)))
      throw InputError(key + ".force", FormatValue(preload.force), "must be > 0 (a tension)");
  }
}

double Bolt::Elongation(const VecX& x) const { return (axis.transpose() * x)(0); }

std::vector<Bolt> MakeBolts(const std::vector<BoltPreload>& preloads, const fe::FeModelSpec& fe,
                            const fe::FeModel& model, const solvers::SparseMatrix& transform) {
  const fe::DofMap& dofs = *model.dofs;
  std::vector<Bolt> bolts;
  for (const BoltPreload& preload : preloads) {
    const fe::BeamSpec& beam = fe.beams[preload.beam];
    const auto position = [&](const std::string& name) {
      return model.reference_nodes[dofs.ReferenceIndex(name)].position;
    };
    const Vec3 axis = position(beam.b) - position(beam.a);
    const double length = axis.norm();
    VecX g = VecX::Zero(dofs.num_dofs());
    for (int c = 0; c < 3; ++c) {
      g(dofs.ReferenceDof(beam.b, c)) = axis(c) / length;
      g(dofs.ReferenceDof(beam.a, c)) = -axis(c) / length;
    }
    const VecX a = transform.transpose() * g;
    const double area = fe::BeamSection::Circular(beam.diameter, beam.material.poisson_ratio).area;
    bolts.push_back({.axis = a.sparseView(),
                     .stiffness = beam.material.youngs_modulus * area / length,
                     .preload = preload.force});
  }
  return bolts;
}

solvers::SparseMatrix WithoutBoltStiffness(const solvers::SparseMatrix& stiffness,
                                           const std::vector<Bolt>& bolts) {
  solvers::SparseMatrix k = stiffness;
  for (const Bolt& bolt : bolts) k -= bolt.stiffness * (bolt.axis * bolt.axis.transpose());
  return k;
}

VecX BoltLoad(const std::vector<Bolt>& bolts, bool preload, Eigen::Index size) {
  VecX f = VecX::Zero(size);
  for (const Bolt& bolt : bolts)
    f -= (preload ? bolt.preload : bolt.stiffness * bolt.shortening) * VecX(bolt.axis);
  return f;
}

void LockBolts(std::vector<Bolt>& bolts, const VecX& x) {
  for (Bolt& bolt : bolts) bolt.shortening = bolt.preload / bolt.stiffness - bolt.Elongation(x);
}

}  // namespace jointdyn::analysis
