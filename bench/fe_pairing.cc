// Contact pairing time per pair on the friction bar (seed 003 section 4.1) with
// non-matching hex8 meshes at three element sizes, the largest joint with >= 10 000
// slave nodes: the bucket-grid search against the all-faces search (every master face a
// candidate, O(n m)) measured in the same run on the two smaller meshes, and the time per
// pair against the pair count (constant for O(n) pairing).
//
//   ./build/bench/fe_pairing
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "fe/contact_pairing.h"
#include "fe/gmsh_structures.h"

namespace {

using namespace jointdyn;
using namespace jointdyn::fe;

// Best of `repeats` pairing wall times [s].
double BestSeconds(const Mesh& mesh, const ContactSurface& slave, const ContactSurface& master,
                   const PairingOptions& options, int repeats, PairingResult& result) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    result = PairSurfaces(mesh, slave, master, options);
    best = std::min(best, result.seconds);
  }
  return best;
}

}  // namespace

int main() {
  std::printf("%10s %10s %12s %10s %12s %14s\n", "h [mm]", "pairs", "master faces", "mesh [s]",
              "pairing [s]", "us per pair");
  double first_per_pair = 0.0, last_per_pair = 0.0;
  int first_pairs = 0, last_pairs = 0;
  for (double h : {2.4e-3, 1.2e-3, 0.55e-3}) {
    FrictionBarOptions options;
    options.mesh = {.mesh_size = h, .non_matching = true};  // sheet 2 is 1.5 h
    const auto start = std::chrono::steady_clock::now();
    const Mesh mesh = BuildFrictionBar(options);
    const double mesh_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const ContactSurface slave = SurfaceFromFaceSet(mesh, "sheet_1_joint");  // the finer side
    const ContactSurface master = SurfaceFromFaceSet(mesh, "sheet_2_joint");
    PairingResult result;
    const double seconds = BestSeconds(mesh, slave, master, {}, 3, result);
    const int pairs = static_cast<int>(result.pairs.size());
    const double per_pair = seconds / pairs;
    std::printf("%10.2f %10d %12d %10.2f %12.4f %14.3f\n", h * 1e3, pairs, master.faces.size(),
                mesh_seconds, seconds, 1e6 * per_pair);
    if (first_pairs == 0) first_pairs = pairs, first_per_pair = per_pair;
    if (h > 1e-3) {
      PairingOptions all;
      all.search = CandidateSearch::kAllFaces;
      PairingResult brute;
      const double brute_per_pair = BestSeconds(mesh, slave, master, all, 1, brute) / pairs;
      std::printf("           all-faces search: %.3f us per pair = %.1f x the bucket grid\n",
                  1e6 * brute_per_pair, brute_per_pair / per_pair);
    }
    last_pairs = pairs, last_per_pair = per_pair;
    std::printf("           %s\n", result.Summary().c_str());
  }
  std::printf("time per pair, largest / smallest mesh: %.2f for %.1f x the pairs (1 for O(n))\n",
              last_per_pair / first_per_pair, static_cast<double>(last_pairs) / first_pairs);
  return 0;
}
