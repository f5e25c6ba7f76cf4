// Assembly throughput of the fe layer: wall and CPU time per million DOFs (CPU time is the
// steadier figure on a shared machine) and peak memory for the
// sparse K and M of structured boxes (bar-shaped, 4 : 1 : 1) of hex8, hex20 and tet10
// elements at three sizes, the largest >= 500 000 DOFs. Each case runs in its own child
// process, so that its peak resident memory (VmHWM) is its own.
//
// Ratios measured in the same run:
//   - stream ratio: assembly (wall) time / the time a memory-bandwidth loop (triad) needs to
//     write the result's bytes (values and row indices of K and M) once;
//   - memory ratio: peak resident memory / the bytes of the mesh and of K and M.
//
//   ./build/bench/fe_assembly [--quick]   (--quick: the smallest size of each type only)
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "fe/assembly.h"
#include "fe/structured_mesh.h"

using namespace jointdyn;
using Clock = std::chrono::steady_clock;

namespace {

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

// Peak resident set of this process [bytes] (Linux /proc/self/status VmHWM).
double PeakResidentBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return 1024.0 * std::stod(line.substr(6));
  }
  return 0.0;
}

// Sustained write bandwidth of a triad a = b + s c over arrays far larger than the caches
// [bytes/s], counting the three streams (best of 5).
double TriadBandwidth() {
  const size_t n = size_t{1} << 24;  // 3 x 128 MiB
  std::vector<double> a(n, 0.0), b(n, 1.0), c(n, 2.0);
  double best = 1e30;
  for (int repeat = 0; repeat < 5; ++repeat) {
    const Clock::time_point start = Clock::now();
    for (size_t i = 0; i < n; ++i) a[i] = b[i] + 0.5 * c[i];
    best = std::min(best, Seconds(start));
    if (a[n / 2] != 2.0) std::abort();  // keeps the loop
  }
  return 3.0 * sizeof(double) * n / best;
}

struct Case {
  fe::ElementType type;
  int k;  // divisions 4k x k x k
};

struct Figures {
  double dofs, elements, nnz_k, nnz_m, mesh_seconds, pattern_seconds, element_seconds, cpu_seconds,
      peak_bytes, matrix_bytes, mesh_bytes;
};

Figures Run(const Case& c) {
  Figures f{};
  fe::BoxMeshOptions options;
  options.size = Eigen::Vector3d(0.2, 0.05, 0.05);
  options.divisions = {4 * c.k, c.k, c.k};
  options.type = c.type;
  Clock::time_point start = Clock::now();
  const fe::Mesh mesh = fe::MakeBoxMesh(options);
  f.mesh_seconds = Seconds(start);
  const std::clock_t cpu_start = std::clock();
  const fe::AssemblyResult result = fe::Assemble(mesh, {{"box", fe::ElasticMaterial{}}});
  f.cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  f.dofs = result.num_dofs;
  f.elements = result.num_elements;
  f.nnz_k = result.stiffness.nonZeros();
  f.nnz_m = result.mass.nonZeros();
  f.pattern_seconds = result.pattern_seconds;
  f.element_seconds = result.element_seconds;
  f.matrix_bytes = (f.nnz_k + f.nnz_m) * (sizeof(double) + sizeof(int)) + 2.0 * 4 * f.dofs;
  f.mesh_bytes = 24.0 * mesh.num_nodes() + 4.0 * mesh.blocks[0].connectivity.size();
  f.peak_bytes = PeakResidentBytes();
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const double bandwidth = TriadBandwidth();
  std::printf("triad bandwidth: %.2f GB/s\n\n", bandwidth / 1e9);
  const std::vector<Case> cases = {
      {fe::ElementType::kHex8, 14}, {fe::ElementType::kHex8, 22},  {fe::ElementType::kHex8, 35},
      {fe::ElementType::kHex20, 9}, {fe::ElementType::kHex20, 14}, {fe::ElementType::kHex20, 22},
      {fe::ElementType::kTet10, 7}, {fe::ElementType::kTet10, 11}, {fe::ElementType::kTet10, 18},
  };
  std::printf(
      "| type | DOFs | elements | nnz K | nnz M | pattern [s] | elements [s] | s per MDOF | "
      "CPU s per MDOF | stream ratio | peak RSS [MB] | memory ratio |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
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
        "| %s | %.0f | %.0f | %.3g | %.3g | %.3f | %.3f | %.3f | %.3f | %.0f | %.0f | %.2f |\n",
        fe::Name(cases[i].type), f.dofs, f.elements, f.nnz_k, f.nnz_m, f.pattern_seconds,
        f.element_seconds, assembly / (f.dofs / 1e6), f.cpu_seconds / (f.dofs / 1e6),
        assembly / (f.matrix_bytes / bandwidth), f.peak_bytes / 1e6,
        f.peak_bytes / (f.matrix_bytes + f.mesh_bytes));
    std::fflush(stdout);
  }
  return 0;
}
