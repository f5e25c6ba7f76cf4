// Throughput of every interface law (tangential and normal): one evaluation (traction, consistent
// tangent, trial history) per point over 10^6 points with their own histories, against a plain copy
// loop over the same data (read the inputs and the committed history, write the trial history): the
// memory-bound baseline. Reported per law: ns_per_point, copy_ns_per_point (measured in the same
// run) and ratio = law / copy.
//
//   ./build/bench/law_throughput [--benchmark_filter=coulomb]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <random>

#include "model/law_registry.h"

namespace {

using namespace jointdyn;

constexpr size_t kPoints = 1'000'000;

struct PointData {
  std::vector<laws::TangentialInput> inputs;
  std::vector<double> committed, trial;
};

// Random inputs around the example scales, histories after one random committed step,
// so the points are a mix of stick and slip as in a real joint.
PointData MakeData(const laws::TangentialLaw& law, double slip, double pressure) {
  PointData data;
  const size_t n = law.state_size();
  data.committed.resize(kPoints * n);
  data.trial.resize(kPoints * n);
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  laws::TangentialResponse out;
  for (size_t i = 0; i < kPoints; ++i) {
    const std::span<double> c(data.committed.data() + i * n, n);
    law.InitState(c);
    const laws::TangentialInput first{slip * Vec2(unit(rng), unit(rng)), pressure, 1e-4};
    const std::span<double> t(data.trial.data() + i * n, n);
    (void)law.Evaluate(first, c, t, out);
    std::copy(t.begin(), t.end(), c.begin());
    data.inputs.push_back({first.slip + 0.5 * slip * Vec2(unit(rng), unit(rng)),
                           pressure * (1 + 0.2 * unit(rng)), 1e-4});
  }
  return data;
}

// Best of five copy passes over the same bytes the law reads and writes [ns per point].
double CopyNanosecondsPerPoint(PointData& data, size_t state_size) {
  double best = 1e300;
  for (int rep = 0; rep < 5; ++rep) {
    const auto start = std::chrono::steady_clock::now();
    double sum = 0.0;
    for (size_t i = 0; i < kPoints; ++i) {
      const laws::TangentialInput& in = data.inputs[i];
      sum += in.slip.x() + in.pressure;
      std::memcpy(data.trial.data() + i * state_size, data.committed.data() + i * state_size,
                  state_size * sizeof(double));
    }
    benchmark::DoNotOptimize(sum);
    benchmark::ClobberMemory();
    best = std::min(
        best,
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
            kPoints);
  }
  return best;
}

// Runs `pass` (one evaluation of all points) as the timed benchmark body and reports
// ns_per_point, the baseline copy_ns_per_point and their ratio.
template <class Pass>
void TimePasses(benchmark::State& state, double copy_ns, Pass pass) {
  double law_seconds = 0.0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    pass();
    benchmark::ClobberMemory();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    state.SetIterationTime(seconds);
    law_seconds += seconds;
  }
  const double ns = 1e9 * law_seconds / (double(state.iterations()) * kPoints);
  state.counters["ns_per_point"] = ns;
  state.counters["copy_ns_per_point"] = copy_ns;
  state.counters["ratio"] = ns / copy_ns;
}

void EvaluateLaw(benchmark::State& state, const model::TangentialSpec* spec) {
  const auto law = model::BuildExample(*spec);
  const size_t n = law->state_size();
  PointData data = MakeData(*law, spec->example_slip, spec->example_pressure);
  const double copy_ns = CopyNanosecondsPerPoint(data, n);
  laws::TangentialResponse out;
  TimePasses(state, copy_ns, [&] {
    double sum = 0.0;
    for (size_t i = 0; i < kPoints; ++i) {
      (void)law->Evaluate(data.inputs[i], {data.committed.data() + i * n, n},
                          {data.trial.data() + i * n, n}, out);
      sum += out.traction.x() + out.d_traction_d_slip(0, 0);
    }
    benchmark::DoNotOptimize(sum);
  });
  state.counters["state_doubles"] = double(n);
}

// Normal laws are stateless: the baseline reads the gap and gap rate of each point and
// writes a pressure and a tangent, as the law does.
void EvaluateNormalLaw(benchmark::State& state, const model::NormalSpec* spec) {
  const auto law = model::BuildExample(*spec);
  std::vector<double> gap(kPoints), rate(kPoints), pressure(kPoints), tangent(kPoints);
  std::mt19937 rng(2);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (size_t i = 0; i < kPoints; ++i) {
    gap[i] = law->contact_onset_gap() - spec->example_slip * (1.0 + unit(rng));
    rate[i] = 1e-3 * unit(rng);
  }
  double copy_ns = 1e300;
  for (int rep = 0; rep < 5; ++rep) {
    const auto start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < kPoints; ++i) {
      pressure[i] = gap[i];
      tangent[i] = rate[i];
    }
    benchmark::ClobberMemory();
    copy_ns = std::min(
        copy_ns,
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
            kPoints);
  }
  TimePasses(state, copy_ns, [&] {
    for (size_t i = 0; i < kPoints; ++i) {
      const laws::NormalResponse r = law->Evaluate(gap[i], rate[i]);
      pressure[i] = r.pressure;
      tangent[i] = r.d_pressure_d_gap;
    }
  });
}

}  // namespace

int main(int argc, char** argv) {
  for (const auto& spec : model::TangentialLawSpecs())
    benchmark::RegisterBenchmark(spec.type.c_str(), EvaluateLaw, &spec)
        ->Unit(benchmark::kMillisecond)
        ->UseManualTime()
        ->MinTime(0.5);
  for (const auto& spec : model::NormalLawSpecs())
    benchmark::RegisterBenchmark(("normal/" + spec.type).c_str(), EvaluateNormalLaw, &spec)
        ->Unit(benchmark::kMillisecond)
        ->UseManualTime()
        ->MinTime(0.5);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
