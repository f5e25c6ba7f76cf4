// Linear solvers for the time integrator's Newton (solvers/linear_solver.h) on the two
// matrices of jointed-structure dynamics, the HHT iteration matrix
//   A = M + beta h^2 (K + J)   (h = 10 us, beta = 0.4225: HHT alpha = -0.3),
//   - full model: the friction bar of seed 003 section 4.1.1 (tet10, bench/
//     friction_bar_study.h) with the Coulomb joint's tangent J evaluated at the free
//     (contact-less) static deflection under 50 N at the tip, so that it holds open, stick
//     and slip pairs (slip tangents are unsymmetric);
//   - reduced model: r = 100 (a random dense matrix, diagonally dominant, unsymmetric),
//     stored sparse with every entry for the sparse solvers, dense for dense LU (as the
//     reduced JointedSystem holds it).
// Times (best of 3) of the first factorization (symbolic + numeric), a refactorization of
// the same pattern (numeric only: what Newton does) and a solve, for Eigen's SparseLU,
// UMFPACK and dense LU; for the full model also CHOLMOD's Cholesky of the symmetric part
// (the static solver's modified Newton). Ratios are to SparseLU in the same run.
//
//   ./build/bench/linear_solvers [mesh size in m, default 4e-3]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "bench/bandwidth.h"
#include "bench/friction_bar_study.h"
#include "core/clock.h"
#include "solvers/linear_solver.h"
#include "solvers/sparse_cholesky.h"

using namespace jointdyn;

namespace {

struct Times {
  double first = 0.0, refactor = 0.0, solve = 0.0;
};

Times Measure(solvers::LinearSolverKind kind, const solvers::Matrix& a, const VecX& b,
              double& residual) {
  Times t;
  VecX x;
  t.first = bench::BestSeconds(3, [&] {
    auto solver = solvers::MakeLinearSolver(kind, static_cast<int>(a.rows()));
    if (!solver->Factor(a)) std::abort();
  });
  auto solver = solvers::MakeLinearSolver(kind, static_cast<int>(a.rows()));
  if (!solver->Factor(a)) std::abort();
  t.refactor = bench::BestSeconds(3, [&] {
    if (!solver->Factor(a)) std::abort();
  });
  t.solve = bench::BestSeconds(3, [&] {
    if (!solver->Solve(b, x)) std::abort();
  });
  residual = (a * x - b).lpNorm<Eigen::Infinity>() / b.lpNorm<Eigen::Infinity>();
  return t;
}

void Row(const char* name, const Times& t, const Times& base, double residual) {
  std::printf("  %-26s %10.4f %10.4f %10.5f %8.2f %8.2f %10.1e\n", name, t.first, t.refactor,
              t.solve, base.refactor / t.refactor, base.solve / t.solve, residual);
}

void Header() {
  std::printf("  %-26s %10s %10s %10s %8s %8s %10s\n", "solver", "first [s]", "refac [s]",
              "solve [s]", "x refac", "x solve", "residual");
}

}  // namespace

int main(int argc, char** argv) {
  const double h = argc > 1 ? std::atof(argv[1]) : 4e-3;
  const double step = 1e-5, beta = 0.25 * 1.3 * 1.3;

  // Full model.
  const analysis::JointDynamicsSystem bar = bench::FrictionBarSystem(h);
  const joint::JointedSystem& system = *bar.system;
  const int n = system.size();
  VecX load;
  system.ExternalForce(1.0, load);  // 50 N after the step
  solvers::SparseCholesky cholesky;
  if (!cholesky.Factor(system.stiffness().sparse())) return 1;
  const VecX q = cholesky.Solve(load);
  joint::JointOperator joint = system.joints()[0];
  if (!joint.Evaluate(q)) return 1;
  solvers::SparseMatrix j;
  joint.Jacobian(j);
  int open = 0, stick = 0, slip = 0;
  for (int i = 0; i < joint.num_pairs(); ++i) {
    const laws::ContactState s = joint.Output(i).state;
    open += s == laws::ContactState::kOpen, stick += s == laws::ContactState::kStick;
    slip += s == laws::ContactState::kSlip;
  }
  solvers::SparseMatrix a =
      system.mass().sparse() + beta * step * step * (system.stiffness().sparse() + j);
  a.makeCompressed();
  const solvers::SparseMatrix a_t = a.transpose();
  const double asymmetry = solvers::MaxAbsEntry(solvers::SparseMatrix(a - a_t));
  std::printf(
      "friction bar tet10 h = %.1f mm: %d DOFs, %ld nonzeros, %d pairs (%d open, %d "
      "stick, %d slip), max |A - A^T| / max |A| = %.1e\n",
      1e3 * h, n, static_cast<long>(a.nonZeros()), joint.num_pairs(), open, stick, slip,
      asymmetry / solvers::MaxAbsEntry(a));
  Header();
  double residual = 0.0;
  const VecX b = load;
  const Times sparse = Measure(solvers::LinearSolverKind::kSparseLU, a, b, residual);
  Row("Eigen SparseLU", sparse, sparse, residual);
  const Times umfpack = Measure(solvers::LinearSolverKind::kUmfpackLU, a, b, residual);
  Row("UMFPACK", umfpack, sparse, residual);
  {
    const solvers::SparseMatrix sym = 0.5 * (a + a_t);
    Times t;
    solvers::SparseCholesky c;
    t.first = bench::BestSeconds(3, [&] {
      solvers::SparseCholesky fresh;
      if (!fresh.Factor(sym)) std::abort();
    });
    if (!c.Factor(sym)) return 1;
    t.refactor = bench::BestSeconds(3, [&] {
      if (!c.Refactor(sym)) std::abort();
    });
    VecX x;
    t.solve = bench::BestSeconds(3, [&] { x = c.Solve(b); });
    // One modified-Newton step: the residual of the unsymmetric system after it.
    Row("CHOLMOD (symmetric part)", t, sparse,
        (a * x - b).lpNorm<Eigen::Infinity>() / b.lpNorm<Eigen::Infinity>());
  }

  // Reduced model.
  const int r = 100;
  std::mt19937 random(3);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  MatX dense(r, r);
  for (int i = 0; i < r; ++i)
    for (int k = 0; k < r; ++k) dense(i, k) = uniform(random) + (i == k ? 2.0 * r : 0.0);
  solvers::SparseMatrix reduced(r, r);
  for (int k = 0; k < r; ++k)
    for (int i = 0; i < r; ++i) reduced.insert(i, k) = dense(i, k);
  reduced.makeCompressed();
  const VecX rb = VecX::Ones(r);
  std::printf("\nreduced r = %d, every entry stored\n", r);
  Header();
  const Times rsparse = Measure(solvers::LinearSolverKind::kSparseLU, reduced, rb, residual);
  Row("Eigen SparseLU", rsparse, rsparse, residual);
  const Times rumf = Measure(solvers::LinearSolverKind::kUmfpackLU, reduced, rb, residual);
  Row("UMFPACK", rumf, rsparse, residual);
  const Times rdense = Measure(solvers::LinearSolverKind::kDenseLU, dense, rb, residual);
  Row("dense LU", rdense, rsparse, residual);
  return 0;
}
