// The full nonlinear static solution of a preloaded lap joint, two ways, timed in one run
// (issue 18): `analysis: static` against the earlier route, `analysis: reduction` with a
// preload (which solves the same full static problem on the way to its preload mode, after
// Craig-Bampton, and then the TVDs and joint modes). The model is
// examples/reduction/friction_bar_preload.yaml (the seed 003 friction bar, tet10,
// non-matching, 6 kN at each outer washer, linear penalty 5e4 N/mm^3, frictionless) read
// through its model-file options at the element size given on the command line; the static
// analysis takes the same FE model, the preload forces as its loads and the joint-mode
// normal law as its joint's.
//
// Prints the model size, the static solution's Newton iterations, factorizations, time per
// iteration and total, the reduction's preload-stage and total times, their ratio, and the
// largest difference between the two full solutions' displacements (they solve the same
// equations: it must be at the solver tolerance). Then the static analysis reduced on the
// example's basis (its boundary, vibration modes and joint modes: `reduction` keys): its
// time, its ratio to the full one and its displacement error against the full solution.
//
//   ./build/bench/static_preload [element size in mm, default 5.0]
#include <cstdio>
#include <cstdlib>

#include "analysis/reduction.h"
#include "analysis/static.h"
#include "core/clock.h"
#include "model/model_node.h"
#include "model/reduction_reader.h"

using namespace jointdyn;

int main(int argc, char** argv) {
  const double size_mm = argc > 1 ? std::atof(argv[1]) : 5.0;
  if (!(size_mm > 0.0)) {
    std::fprintf(stderr, "usage: static_preload [element size in mm > 0]\n");
    return 2;
  }
  const model::ModelNode root = model::ModelNode::LoadFile(
      JOINTDYN_SOURCE_DIR "/examples/reduction/friction_bar_preload.yaml");
  analysis::ReductionOptions reduction = model::ReadReduction(root);
  reduction.fe.friction_bar.mesh.mesh_size = size_mm * 1e-3;

  analysis::StaticOptions statics;
  statics.fe = reduction.fe;
  statics.loads = {{.loads = reduction.preload->loads}};
  statics.joints = {
      {.contact = reduction.joint_modes->contact, .normal = reduction.joint_modes->normal_law}};
  statics.solver = reduction.preload->solver;

  analysis::StaticObserver quiet_static;
  const Clock::time_point static_start = Clock::now();
  const analysis::StaticResult solved = analysis::RunStatic(statics, quiet_static);
  const double static_seconds = Seconds(static_start);
  if (!solved.status) {
    std::fprintf(stderr, "static: %s\n", solved.status.message.c_str());
    return 3;
  }
  analysis::Observer quiet;
  const Clock::time_point reduction_start = Clock::now();
  const analysis::ReductionResult reduced = analysis::RunReduction(reduction, quiet);
  const double reduction_seconds = Seconds(reduction_start);
  if (!reduced.status || !reduced.joint || !reduced.joint->preload) {
    std::fprintf(stderr, "reduction: %s\n", reduced.status.message.c_str());
    return 3;
  }

  analysis::StaticOptions reduced_statics = statics;
  reduced_statics.reduction = analysis::StaticReduction{
      .cms = {.boundary = reduction.boundary,
              .vibration_modes = reduction.craig_bampton.fixed_interface_modes,
              .free_free = reduction.free_free},
      .joint_modes = reduction.joint_modes};
  const Clock::time_point reduced_start = Clock::now();
  const analysis::StaticResult solved_reduced = analysis::RunStatic(reduced_statics, quiet_static);
  const double reduced_seconds = Seconds(reduced_start);
  if (!solved_reduced.status) {
    std::fprintf(stderr, "reduced static: %s\n", solved_reduced.status.message.c_str());
    return 3;
  }

  const joint::StaticResult& s = solved.steps.back().solve;
  const joint::StaticResult& p = reduced.joint->preload->full;
  const fe::DofMap& dofs = *reduced.model.dofs;
  const VecX preload_displacement = dofs.Expand(p.q).head(dofs.num_mesh_dofs());
  const double difference = (preload_displacement - solved.displacement).lpNorm<Eigen::Infinity>() /
                            solved.displacement.lpNorm<Eigen::Infinity>();
  std::printf("friction bar, tet10 non-matching, element size %.3g mm: %d free DOFs, %d pairs\n",
              size_mm, solved.free_dofs, solved.joint_pairs.at(0));
  std::printf(
      "static analysis:    %d Newton iterations, %d factorizations (%d reused), %.3f s per "
      "iteration; static solution %.2f s, run %.2f s\n",
      s.iterations, s.factorizations, s.reused_factorizations, s.seconds / s.iterations, s.seconds,
      static_seconds);
  std::printf(
      "reduction route:    %d Newton iterations, %d factorizations; preload stage %.2f s, run "
      "%.2f s (Craig-Bampton, TVDs, joint modes included)\n",
      p.iterations, p.factorizations, p.seconds, reduction_seconds);
  std::printf("ratio reduction route / static analysis: %.1f (run), %.2f (static solution)\n",
              reduction_seconds / static_seconds, p.seconds / s.seconds);
  std::printf("largest displacement difference between the two: %.2e of the largest\n", difference);
  const joint::StaticResult& r = solved_reduced.steps.back().solve;
  std::printf(
      "reduced static:     %d coordinates, %d Newton iterations, basis %.2f s, static solution "
      "%.3f s, run %.2f s; ratio full / reduced run %.1f; largest displacement error %.2e of "
      "the largest\n",
      solved_reduced.coordinates, r.iterations, solved_reduced.basis_seconds, r.seconds,
      reduced_seconds, static_seconds / reduced_seconds,
      (solved_reduced.displacement - solved.displacement).lpNorm<Eigen::Infinity>() /
          solved.displacement.lpNorm<Eigen::Infinity>());
  return 0;
}
