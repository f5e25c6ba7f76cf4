// Stages of the model reduction on a structured steel bar (hex8, 200 x 20 x 6 mm, the size
// of the seed 003 friction bar's two stacked sheets; about 203 000 DOFs; the friction bar
// mesh replaces it once the Gmsh front end is in), timed in one run:
//
//   1. Craig-Bampton of the free bar with the mount and tip reference nodes (rigid
//      couplings of the end faces) as the 12 boundary DOFs and v = 10 fixed-interface
//      modes: extraction of K_ii, factorization, Lanczos, constraint modes, projection;
//      then free-free orthogonalization (seed 003 sec. 4.1: m = 16 modes remain).
//   2. The solve machinery of the trial-vector-derivative stage (2 m^2 = 512 static
//      solutions with one factor, issue 6): the clamped bar's K factored once, then
//      512 right-hand sides (random nodal forces on the top face, like the fictive contact
//      forces of the joint) in blocks of 32, 64 and 512 columns against one column at a
//      time (on the first 16 only), as solves per second and their ratio.
//   3. POD of the 512 solutions (g = 50 modes): weighted (W = K) and unweighted through the
//      Gram matrix,
//      and, on the first 128 columns, the Gram route against Eigen's thin BDCSVD as the
//      ratio of their times (the measured reason for pod.h's choice).
//
//   ./build/bench/reduction_stages [--quick]   (--quick: a 25 000-DOF bar, for checking)
#include <Eigen/SVD>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <tuple>

#include "core/clock.h"
#include "fe/assembly.h"
#include "fe/constraints.h"
#include "fe/structured_mesh.h"
#include "reduction/craig_bampton.h"
#include "reduction/free_free.h"
#include "reduction/pod.h"
#include "solvers/sparse_cholesky.h"

using namespace jointdyn;

namespace {

struct Model {
  fe::DofMap dofs;
  solvers::SparseMatrix k, m;
};

Model MakeBar(const fe::Mesh& mesh, const fe::AssemblyResult& assembled, bool clamped) {
  fe::ConstraintSpec spec;
  spec.reference_nodes = {{"mount", Vec3(0.0, 0.01, 0.003)}, {"tip", Vec3(0.2, 0.01, 0.003)}};
  spec.couplings = {{fe::CouplingKind::kRigid, "mount", "xmin"},
                    {fe::CouplingKind::kRigid, "tip", "xmax"}};
  if (clamped) spec.supports = {{"mount", {}}};
  fe::DofMap dofs(mesh, spec);
  solvers::SparseMatrix k = dofs.Reduce(assembled.stiffness);
  solvers::SparseMatrix m = clamped ? solvers::SparseMatrix() : dofs.Reduce(assembled.mass);
  return {std::move(dofs), std::move(k), std::move(m)};
}

void Fail(const std::string& what, const Status& status) {
  std::fprintf(stderr, "%s: %s\n", what.c_str(), status.message.c_str());
  std::exit(3);
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  fe::BoxMeshOptions options;
  options.size = Vec3(0.2, 0.02, 0.006);
  options.divisions = quick ? std::array<int, 3>{100, 10, 6} : std::array<int, 3>{200, 20, 15};
  options.type = fe::ElementType::kHex8;
  Clock::time_point start = Clock::now();
  const fe::Mesh mesh = fe::MakeBoxMesh(options);
  const fe::AssemblyResult assembled = fe::Assemble(mesh, {{"box", fe::ElasticMaterial{}}});
  std::printf("mesh and assembly: %d mesh DOFs, %d hex8 elements, nnz K %.3g: %.2f s\n",
              assembled.num_dofs, assembled.num_elements,
              static_cast<double>(assembled.stiffness.nonZeros()), Seconds(start));

  // 1. Craig-Bampton and free-free orthogonalization of the free bar.
  {
    const Model bar = MakeBar(mesh, assembled, /*clamped=*/false);
    const std::vector<reduction::BoundaryDof> boundary =
        reduction::ReferenceNodeBoundary(bar.dofs, {"mount", "tip"});
    start = Clock::now();
    const reduction::CraigBamptonResult cb =
        reduction::CraigBampton(bar.k, bar.m, boundary, {.fixed_interface_modes = 10});
    const double cb_seconds = Seconds(start);
    if (!cb.status) Fail("Craig-Bampton", cb.status);
    const reduction::FreeFreeResult free =
        reduction::OrthogonalizeToFreeFree(cb.basis, cb.stiffness, cb.mass);
    if (!free.status) Fail("free-free orthogonalization", free.status);
    std::printf("\n%s%s", reduction::Summary(cb).c_str(), reduction::Summary(free).c_str());
    std::printf(
        "\n| stage | time [s] | share |\n|---|---|---|\n"
        "| partition (K_ii, K_ib, M_ii) | %.2f | %.0f %% |\n"
        "| factor K_ii (%.3g nonzeros in L) | %.2f | %.0f %% |\n"
        "| eigen (Lanczos, %d solves) | %.2f | %.0f %% |\n"
        "| constraint modes (%d right-hand sides, one block) | %.2f | %.0f %% |\n"
        "| projection V^T K V, V^T M V | %.2f | %.0f %% |\n"
        "| free-free orthogonalization | %.4f | %.1f %% |\n"
        "| Craig-Bampton total | %.2f | 100 %% |\n",
        cb.partition_seconds, 100 * cb.partition_seconds / cb_seconds, cb.factor_nonzeros,
        cb.factor_seconds, 100 * cb.factor_seconds / cb_seconds, cb.eigen_operator_applications,
        cb.eigen_seconds, 100 * cb.eigen_seconds / cb_seconds, cb.num_boundary,
        cb.constraint_seconds, 100 * cb.constraint_seconds / cb_seconds, cb.projection_seconds,
        100 * cb.projection_seconds / cb_seconds, free.seconds, 100 * free.seconds / cb_seconds,
        cb_seconds);
    std::fflush(stdout);
  }

  // 2. One factor, many right-hand sides: blocked against one at a time.
  const Model bar = MakeBar(mesh, assembled, /*clamped=*/true);
  const int n = static_cast<int>(bar.k.rows());
  solvers::SparseCholesky factor;
  start = Clock::now();
  if (Status status = factor.Factor(bar.k); !status) Fail("factor K", status);
  const double factor_seconds = Seconds(start);
  const int columns = 512, single = 16;
  MatX rhs = MatX::Zero(n, columns);
  std::mt19937 rng(1);
  std::normal_distribution<double> force(0.0, 1.0);  // [N]
  for (int node : mesh.node_sets.at("zmax")) {
    for (int c = 0; c < 3; ++c) {
      const int free = bar.dofs.FreeIndex(bar.dofs.MeshDof(node, c));
      if (free < 0) continue;
      for (int j = 0; j < columns; ++j) rhs(free, j) = force(rng);
    }
  }
  std::printf("\nclamped bar: %d DOFs, factor of K %.2f s (%.3g nonzeros in L)\n", n,
              factor_seconds, factor.factor_nonzeros());
  std::printf(
      "\n| right-hand sides per solve | solves | time [s] | solves per s | ratio to one "
      "at a time |\n|---|---|---|---|---|\n");
  start = Clock::now();
  for (int j = 0; j < single; ++j) {
    const VecX x = factor.Solve(VecX(rhs.col(j)));
    if (!x.allFinite()) return 3;
  }
  const double single_rate = single / Seconds(start);
  std::printf("| 1 | %d | %.2f | %.2f | 1 |\n", single, single / single_rate, single_rate);
  std::fflush(stdout);
  MatX solutions;
  for (int block : {32, 64, 512}) {
    start = Clock::now();
    MatX x;
    for (int j = 0; j < columns; j += block) {
      factor.Solve(rhs.middleCols(j, block), x);
      if (block == columns) solutions = std::move(x);
    }
    const double seconds = Seconds(start);
    std::printf("| %d | %d | %.2f | %.1f | %.1f |\n", block, columns, seconds, columns / seconds,
                columns / seconds / single_rate);
    std::fflush(stdout);
  }
  rhs.resize(0, 0);

  // 3. POD of the 512 solutions.
  start = Clock::now();
  const reduction::PodResult weighted = reduction::WeightedPod(solutions, bar.k, {.modes = 50});
  const double weighted_seconds = Seconds(start);
  if (!weighted.status) Fail("weighted POD", weighted.status);
  start = Clock::now();
  const reduction::PodResult plain = reduction::Pod(solutions, {.modes = 50});
  const double plain_seconds = Seconds(start);
  if (!plain.status) Fail("POD", plain.status);
  std::printf(
      "\n| POD of %d snapshots (%d DOFs), g = 50 modes | Gram [s] | eigen [s] | modes [s] | total "
      "[s] | rank | "
      "w(10) | w(50) |\n|---|---|---|---|---|---|---|---|\n",
      columns, n);
  for (const auto& [name, pod, seconds] :
       {std::tuple{"weighted (W = K)", &weighted, weighted_seconds},
        std::tuple{"unweighted", &plain, plain_seconds}}) {
    std::printf("| %s | %.2f | %.3f | %.2f | %.2f | %d | %.4f | %.4f |\n", name, pod->gram_seconds,
                pod->eigen_seconds, pod->modes_seconds, seconds, pod->rank, pod->ratio(9),
                pod->ratio(49));
  }
  const MatX subset = solutions.leftCols(128);
  solutions.resize(0, 0);
  start = Clock::now();
  const reduction::PodResult gram = reduction::Pod(subset, {.normalize_columns = false});
  const double gram_seconds = Seconds(start);
  start = Clock::now();
  const Eigen::BDCSVD<MatX> svd(subset, Eigen::ComputeThinU);
  const double svd_seconds = Seconds(start);
  if (!gram.status) Fail("POD of 128", gram.status);
  std::printf(
      "\nPOD of the first 128 snapshots (not normalized): Gram route %.2f s, thin BDCSVD %.2f s "
      "(ratio %.1f); largest POV against sigma_1^2: %.1e relative\n",
      gram_seconds, svd_seconds, svd_seconds / gram_seconds,
      std::abs(gram.values(0) - std::pow(svd.singularValues()(0), 2)) / gram.values(0));
  return 0;
}
