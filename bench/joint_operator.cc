// The reduced joint operator (joint/joint_operator.h) for 10^4 contact pairs and r = 100
// modes: a random dense R V (3 x 10^4 x 100, 24 MB, far beyond the caches), linear penalty
// 5e4 N/mm^3 and three-parameter Coulomb (seed 003 section 4.1.1: mu 0.15, stick 1e4
// N/mm^3), initial gaps chosen so that a third of the pairs is open and the closed pairs
// split between stick and slip. Time per evaluation of
//   - forces: Evaluate() (z = R V x, the laws) + Forces() (f = (R V)^T A t): 2 passes over R V;
//   - forces + Jacobian: also Jacobian() ((R V)^T blockdiag(A_i D_i) (R V): a pass that
//     writes the scaled copy W, then the product R^T W, 2 r^2 3 n_pairs flops),
// and the achieved bandwidth (bytes of R V-sized arrays streamed per evaluation / time)
// against a triad measured in the same run; the Jacobian's product is compute-bound, so its
// GFLOP/s are printed too. Best of 5 (forces: of 20) on a shared machine.
//
//   ./build/bench/joint_operator
#include "joint/joint_operator.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>

#include "bench/bandwidth.h"
#include "core/clock.h"
#include "laws/coulomb.h"
#include "laws/normal_laws.h"

using namespace jointdyn;

int main() {
  const int pairs = 10000, r = 100;
  const double eps = 5e13, c1 = 1e13, mu = 0.15;          // [Pa/m], [Pa/m], [-]
  const double penetration = 1e-6;                        // closed pairs' gap -1 um [m]
  const double slip_scale = mu * eps * penetration / c1;  // the stick limit of |s| [m]
  std::mt19937 random(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  joint::DenseRows rv(3 * pairs, r);
  for (int i = 0; i < rv.rows(); ++i)
    for (int j = 0; j < r; ++j) rv(i, j) = normal(random) / std::sqrt(double(r));
  VecX x(r);
  for (int j = 0; j < r; ++j) x(j) = slip_scale * normal(random);  // |z| ~ the stick limit
  const VecX z = rv * x;
  VecX gap0(pairs), area = VecX::Constant(pairs, 1e-6);
  for (int i = 0; i < pairs; ++i)
    gap0(i) = (i % 3 == 0 ? penetration : -penetration) - z(3 * i + 2);
  joint::JointOperator op(
      joint::PairProjection(rv), gap0, area,
      {.normal = std::make_shared<laws::LinearPenaltyLaw>(laws::LinearPenaltyParams{.eps = eps}),
       .tangential = std::make_shared<laws::CoulombLaw>(
           laws::CoulombParams{.c1 = c1, .c2 = 5e11, .mu = mu}, 2)});

  VecX f;
  MatX jacobian(r, r);
  if (!op.Evaluate(x)) return 1;
  int open = 0, stick = 0, slip = 0;
  for (int i = 0; i < pairs; ++i) {
    const laws::ContactState s = op.Output(i).state;
    open += s == laws::ContactState::kOpen, stick += s == laws::ContactState::kStick;
    slip += s == laws::ContactState::kSlip;
  }
  const double forces = bench::BestSeconds(20, [&] {
    (void)op.Evaluate(x);
    op.Forces(f);
  });
  const double with_jacobian = bench::BestSeconds(5, [&] {
    (void)op.Evaluate(x);
    op.Forces(f);
    op.Jacobian(jacobian);
  });
  const double triad = bench::TriadBandwidth();
  const double rv_bytes = sizeof(double) * double(rv.size());
  const double forces_bytes = 2.0 * rv_bytes;                   // Apply, ApplyTranspose
  const double jacobian_bytes = forces_bytes + 3.0 * rv_bytes;  // + read R, write W; read R, W
  const double flops = 2.0 * r * r * 3.0 * pairs;               // R^T W
  std::printf("joint operator: %d pairs (%d open, %d stick, %d slip), r = %d, R V %.1f MB\n", pairs,
              open, stick, slip, r, rv_bytes / 1e6);
  std::printf("triad bandwidth: %.2f GB/s\n\n", triad / 1e9);
  std::printf("%-22s %12s %14s %12s %12s\n", "evaluation", "time [ms]", "bytes [MB]", "GB/s",
              "of triad");
  std::printf("%-22s %12.3f %14.1f %12.2f %11.0f%%\n", "forces", 1e3 * forces, forces_bytes / 1e6,
              forces_bytes / forces / 1e9, 100.0 * forces_bytes / forces / triad);
  std::printf("%-22s %12.3f %14.1f %12.2f %11.0f%%\n", "forces + Jacobian", 1e3 * with_jacobian,
              jacobian_bytes / 1e6, jacobian_bytes / with_jacobian / 1e9,
              100.0 * jacobian_bytes / with_jacobian / triad);
  std::printf(
      "\nJacobian product R^T W: %.2f GFLOP/s (counting %.2f GFLOP in forces + Jacobian "
      "- forces time)\n",
      flops / (with_jacobian - forces) / 1e9, flops / 1e9);
  return 0;
}
