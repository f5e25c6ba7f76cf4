// Stages of the reduction with joint modes (issue 6) on the seed 003 friction bar, timed in
// one run. The model is examples/reduction/friction_bar_joint_modes.yaml (tet10, non-matching,
// bolts coupled rigidly, clamp and tip as the Craig-Bampton boundary, diagonal-scaled area
// weights (positive on the quadratic faces), pairs of
// sheet_1_joint on sheet_2_joint), read and built by the io layer, at the element size given
// on the command line:
//
//   1. Craig-Bampton (v = 10, 12 boundary DOFs): K_ii factor, Lanczos, constraint modes;
//      free-free orthogonalization (m = 16 modes).
//   2. TVDs of the m = 16 modes (2 m^2 = 512 right-hand sides, linear penalty 5e4 N/mm^3 on
//      the pairs' area weights, deflection 1 um): fictive forces and blocked solves (256
//      columns per solve) with Craig-Bampton's factor; then the same with one right-hand side
//      per solve on the 62 preload-related columns of mode 1 (focus {0}), as solves per
//      second and their ratio, measured in the same run.
//   3. Joint modes by each method (g from w(g) >= 0.98) and ExtendBasis of the wPOD modes.
//
//   ./build/bench/joint_modes [element size in mm, default 2.0]
#include "reduction/joint_modes.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "core/clock.h"
#include "joint/contact_kinematics.h"
#include "model/fe_reader.h"
#include "model/model_node.h"
#include "reduction/craig_bampton.h"
#include "reduction/free_free.h"
#include "reduction/trial_vector_derivatives.h"

using namespace jointdyn;

namespace {

void Check(const std::string& what, const Status& status) {
  if (status) return;
  std::fprintf(stderr, "%s: %s\n", what.c_str(), status.message.c_str());
  std::exit(3);
}

// Peak resident set size of this process [MB] (VmHWM).
double PeakMegabytes() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::atof(line.c_str() + 6) / 1024.0;
  }
  return 0.0;
}

constexpr double kPenalty = 5e13;  // 5e4 N/mm^3 (seed 003 section 4.1) [Pa/m]

}  // namespace

int main(int argc, char** argv) {
  const double size_mm = argc > 1 ? std::atof(argv[1]) : 2.0;
  if (!(size_mm > 0.0)) {
    std::fprintf(stderr, "usage: joint_modes [element size in mm > 0]\n");
    return 2;
  }
  const model::ModelNode root = model::ModelNode::LoadFile(
      std::string(JOINTDYN_SOURCE_DIR) + "/examples/reduction/friction_bar_joint_modes.yaml");
  fe::FeModelSpec spec = model::ReadFeModelSpec(root);
  spec.friction_bar.mesh.mesh_size = size_mm * 1e-3;
  Clock::time_point start = Clock::now();
  const fe::FeModel model = fe::BuildFeModel(spec);
  const double build_seconds = Seconds(start);
  const fe::DofMap& dofs = *model.dofs;
  const solvers::SparseMatrix k = dofs.Reduce(model.stiffness);
  const solvers::SparseMatrix m = dofs.Reduce(model.mass);
  const joint::ContactKinematics kinematics =
      joint::BuildContactKinematics(model.mesh, model.contacts.at(0));
  const reduction::NormalRows normals =
      reduction::SelectNormalRows(joint::OnIndependentDofs(kinematics.relative, dofs).sparse());
  const int pairs = static_cast<int>(normals.rows());
  std::printf(
      "friction bar, tet10 non-matching, element size %.3g mm: %d free DOFs, %d pairs; mesh "
      "%.1f s, assembly %.1f s, pairing %.1f s (model %.1f s)\n",
      size_mm, dofs.num_free_dofs(), pairs, model.times.mesh, model.times.assembly,
      model.times.pairing, build_seconds);
  std::fflush(stdout);

  // 1. Craig-Bampton and free-free modes.
  const reduction::CraigBamptonResult cb =
      reduction::CraigBampton(k, m, reduction::ReferenceNodeBoundary(dofs, {"clamp", "tip"}),
                              {.fixed_interface_modes = 10});
  Check("Craig-Bampton", cb.status);
  const reduction::FreeFreeResult free =
      reduction::OrthogonalizeToFreeFree(cb.basis, cb.stiffness, cb.mass);
  Check("free-free", free.status);
  std::printf("%s%s", reduction::Summary(cb).c_str(), reduction::Summary(free).c_str());
  std::fflush(stdout);
  const solvers::SparseCholesky& factor = *cb.interior_factor;
  const std::vector<int>& rows = cb.interior_dofs;
  const MatX& basis = free.basis.vectors;
  const int modes = free.basis.size();

  // 2. TVDs: blocked, then one at a time on the preload-related columns of mode 1.
  const reduction::PairContactStiffness stiffness = [&](int p, double gap) {
    return gap < 0.0 ? kinematics.area(p) * kPenalty : 0.0;
  };
  const reduction::TvdResult tvd = reduction::ComputeTrialVectorDerivatives(
      basis, normals, kinematics.initial_gap, stiffness, factor, rows, {}, {.block_size = 256});
  Check("TVDs", tvd.status);
  const reduction::TvdResult single = reduction::ComputeTrialVectorDerivatives(
      basis, normals, kinematics.initial_gap, stiffness, factor, rows, {0}, {.block_size = 1});
  Check("TVDs one at a time", single.status);
  const auto force_rows = (tvd.forces.array() != 0.0).rowwise().any().count();
  std::printf(
      "TVDs: %d columns of m = %d, %d zero deflections of %d; fictive forces nonzero on %ld of "
      "%ld rows\n",
      tvd.solves, modes, tvd.zero_deflections, 2 * modes, static_cast<long>(force_rows),
      static_cast<long>(tvd.forces.rows()));
  std::fflush(stdout);

  // 3. Joint modes, each method.
  struct MethodRow {
    reduction::JointModeMethod method;
    reduction::JointModeResult result;
  };
  std::vector<MethodRow> methods;
  for (const auto method :
       {reduction::JointModeMethod::kWeightedPodOfTvds, reduction::JointModeMethod::kPodOfTvds,
        reduction::JointModeMethod::kPodOfForces}) {
    methods.push_back({method, reduction::ComputeJointModes(
                                   tvd, factor, rows, {.method = method, .target_ratio = 0.98})});
    Check(reduction::Name(method), methods.back().result.status);
  }
  start = Clock::now();
  const reduction::ExtendResult extended = reduction::ExtendBasis(
      free.basis, methods[0].result.modes, k, reduction::VectorKind::kJointMode, "joint");
  const double extend_seconds = Seconds(start);
  Check("ExtendBasis", extended.status);

  std::printf("\n| stage | time [s] |\n|---|---|\n");
  std::printf("| K_ii factor (%.3g nonzeros in L) | %.2f |\n", cb.factor_nonzeros,
              cb.factor_seconds);
  std::printf("| Lanczos (%d solves) | %.2f |\n", cb.eigen_operator_applications, cb.eigen_seconds);
  std::printf("| constraint modes (%d) | %.2f |\n", cb.num_boundary, cb.constraint_seconds);
  std::printf("| free-free orthogonalization | %.3f |\n", free.seconds);
  std::printf("| TVD forces (%d pairs, %d deflections) | %.2f |\n", pairs, 2 * modes,
              tvd.force_seconds);
  std::printf("| TVD solves (%d, blocks of 256) | %.2f |\n", tvd.solves, tvd.solve_seconds);
  for (const MethodRow& row : methods) {
    const int g = static_cast<int>(row.result.modes.cols());
    std::printf("| %s (rank %d, g = %d at w = %.4f) | %.2f", reduction::Name(row.method),
                row.result.rank, g, row.result.ratio(g - 1), row.result.pod_seconds);
    if (row.method == reduction::JointModeMethod::kPodOfForces)
      std::printf(" + %.2f solve", row.result.solve_seconds);
    std::printf(" |\n");
  }
  std::printf("| ExtendBasis (%d wPOD modes, %d dropped) | %.2f |\n",
              static_cast<int>(methods[0].result.modes.cols()), extended.dropped, extend_seconds);
  std::printf(
      "\n| TVD solves | right-hand sides | time [s] | solves per s |\n|---|---|---|---|\n"
      "| blocked (256 per solve) | %d | %.2f | %.1f |\n"
      "| one at a time (focus {0}) | %d | %.2f | %.1f |\n",
      tvd.solves, tvd.solve_seconds, tvd.solves_per_second(), single.solves, single.solve_seconds,
      single.solves_per_second());
  std::printf("blocked / one at a time: %.1f x per solve; peak RSS %.0f MB\n",
              tvd.solves_per_second() / single.solves_per_second(), PeakMegabytes());
  return 0;
}
