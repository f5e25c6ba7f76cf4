// Assembly throughput of the fe layer on the friction bar of seed 003 section 4.1
// (fe/gmsh_structures.h, non-matching joint, sheet 2 meshed 1.5 times coarser): wall and
// CPU time per million DOFs (CPU time is the steadier figure on a shared machine) and peak
// memory for the sparse K and M of hex8, hex20 and tet10 meshes at three element sizes,
// the largest >= 500 000 DOFs. Meshing (Gmsh) is timed apart from assembly. Each case runs
// in its own child process, so that its peak resident memory (VmHWM) is its own; the peak
// is reset after meshing (/proc/self/clear_refs), so that the assembly peak is not Gmsh's.
//
// Ratios measured in the same run:
//   - stream ratio: assembly (wall) time / the time a memory-bandwidth loop (triad) needs to
//     write the result's bytes (values and row indices of K and M) once;
//   - memory ratio: peak resident memory during assembly / the bytes of the mesh and of K
//     and M (the process's libraries, Gmsh's among them, count in the peak).
//
//   ./build/bench/fe_assembly [--quick]   (--quick: the smallest size of each type only)
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "bench/bandwidth.h"
#include "core/clock.h"
#include "fe/assembly.h"
#include "fe/gmsh_structures.h"

using namespace jointdyn;

namespace {

// Peak resident set of this process [bytes] (Linux /proc/self/status VmHWM).
double PeakResidentBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return 1024.0 * std::stod(line.substr(6));
  }
  return 0.0;
}

// Resets the peak resident set (VmHWM) to the current one (Linux >= 4.0).
void ResetPeakResident() { std::ofstream("/proc/self/clear_refs") << "5"; }

struct Case {
  fe::ElementType type;
  double h;  // [m] element size in sheet 1
};

struct Figures {
  double dofs, elements, nnz_k, nnz_m, mesh_seconds, pattern_seconds, element_seconds, cpu_seconds,
      mesh_peak_bytes, peak_bytes, matrix_bytes, mesh_bytes;
};

Figures Run(const Case& c) {
  Figures f{};
  fe::FrictionBarOptions options;
  options.mesh.mesh_size = c.h;
  options.mesh.non_matching = true;
  const bool hex = c.type == fe::ElementType::kHex8 || c.type == fe::ElementType::kHex20;
  options.mesh.shape = hex ? fe::CellShape::kHex : fe::CellShape::kTet;
  options.mesh.order = c.type == fe::ElementType::kHex8 || c.type == fe::ElementType::kTet4
                           ? fe::ElementOrder::kLinear
                           : fe::ElementOrder::kQuadratic;
  Clock::time_point start = Clock::now();
  const fe::Mesh mesh = fe::BuildFrictionBar(options);
  f.mesh_seconds = Seconds(start);
  f.mesh_peak_bytes = PeakResidentBytes();
  ResetPeakResident();
  const std::clock_t cpu_start = std::clock();
  const fe::AssemblyResult result =
      fe::Assemble(mesh, {{"sheet_1", fe::ElasticMaterial{}}, {"sheet_2", fe::ElasticMaterial{}}});
  f.cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  f.dofs = result.num_dofs;
  f.elements = result.num_elements;
  f.nnz_k = result.stiffness.nonZeros();
  f.nnz_m = result.mass.nonZeros();
  f.pattern_seconds = result.pattern_seconds;
  f.element_seconds = result.element_seconds;
  f.matrix_bytes = (f.nnz_k + f.nnz_m) * (sizeof(double) + sizeof(int)) + 2.0 * 4 * f.dofs;
  f.mesh_bytes = 24.0 * mesh.num_nodes();
  for (const fe::ElementBlock& block : mesh.blocks) f.mesh_bytes += 4.0 * block.connectivity.size();
  f.peak_bytes = PeakResidentBytes();
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const double bandwidth = bench::TriadBandwidth();
  std::printf("triad bandwidth: %.2f GB/s\n\n", bandwidth / 1e9);
  const std::vector<Case> cases = {
      {fe::ElementType::kHex8, 2e-3},    {fe::ElementType::kHex8, 1e-3},
      {fe::ElementType::kHex8, 0.5e-3},  {fe::ElementType::kHex20, 3e-3},
      {fe::ElementType::kHex20, 1.6e-3}, {fe::ElementType::kHex20, 0.85e-3},
      {fe::ElementType::kTet10, 3e-3},   {fe::ElementType::kTet10, 1.8e-3},
      {fe::ElementType::kTet10, 1.1e-3},
  };
  std::printf(
      "| type | h [mm] | DOFs | elements | nnz K | nnz M | meshing [s] | mesh peak RSS [MB] | "
      "pattern [s] | elements [s] | s per MDOF | CPU s per MDOF | stream ratio | "
      "assembly peak RSS [MB] | memory ratio |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < cases.size(); ++i) {
    if (quick && i % 3 != 0) continue;
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) return 2;
    const pid_t child = fork();
    if (child == 0) {
      close(pipe_fds[0]);
      const Figures f = Run(cases[i]);
      const ssize_t written = write(pipe_fds[1], &f, sizeof f);
      _exit(written == sizeof f ? 0 : 1);
    }
    close(pipe_fds[1]);
    Figures f{};
    const ssize_t got = read(pipe_fds[0], &f, sizeof f);
    close(pipe_fds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    if (got != sizeof f || status != 0) {
      std::fprintf(stderr, "case %zu failed\n", i);
      return 3;
    }
    const double assembly = f.pattern_seconds + f.element_seconds;
    std::printf(
        "| %s | %.2f | %.0f | %.0f | %.3g | %.3g | %.2f | %.0f | %.3f | %.3f | %.3f | %.3f | %.0f "
        "| "
        "%.0f | %.2f |\n",
        fe::Name(cases[i].type), 1e3 * cases[i].h, f.dofs, f.elements, f.nnz_k, f.nnz_m,
        f.mesh_seconds, f.mesh_peak_bytes / 1e6, f.pattern_seconds, f.element_seconds,
        assembly / (f.dofs / 1e6), f.cpu_seconds / (f.dofs / 1e6),
        assembly / (f.matrix_bytes / bandwidth), f.peak_bytes / 1e6,
        f.peak_bytes / (f.matrix_bytes + f.mesh_bytes));
    std::fflush(stdout);
  }
  return 0;
}
