// The observer of a typed run from Python: progress, notes and per-step data go to a Python
// callable (with the GIL) as event dicts. A callable that raises requests the analysis to
// stop (core/stop.h: it ends at its next step with its results so far); the exception is
// raised to the caller after the run (Rethrow). `Base`: the analysis' observer type
// (analysis::Observer, TransientObserver, ...). Ctrl-C while C++ computes: StopOnInterrupt.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <signal.h>

#include <array>
#include <csignal>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "analysis/belt_drive.h"
#include "analysis/criteria.h"
#include "analysis/joint_dynamics.h"
#include "analysis/multibody.h"
#include "analysis/static.h"
#include "analysis/transient.h"
#include "core/stop.h"

namespace jointdyn::python {

// While it lives (around a computation that runs without the GIL, when Python cannot run
// its own handler), SIGINT requests a stop (core/stop.h) instead of raising
// KeyboardInterrupt later: the analysis ends at its next step with its results so far,
// status "interrupted by SIGINT". The previous handler (Python's) comes back after.
class StopOnInterrupt {
 public:
  StopOnInterrupt() {
    struct sigaction action {};
    action.sa_handler = [](int signal) { RequestStop(signal); };
    sigemptyset(&action.sa_mask);
    installed_ = sigaction(SIGINT, &action, &previous_) == 0;
  }
  ~StopOnInterrupt() {
    if (installed_) sigaction(SIGINT, &previous_, nullptr);
  }
  StopOnInterrupt(const StopOnInterrupt&) = delete;
  StopOnInterrupt& operator=(const StopOnInterrupt&) = delete;

 private:
  struct sigaction previous_ {};
  bool installed_ = false;
};

template <class Base>
class PythonObserver : public Base {
 public:
  explicit PythonObserver(pybind11::object callback) : callback_(std::move(callback)) {}

  void Progress(const std::string& task, int done, int total) override {
    Send([&] {
      return pybind11::dict(pybind11::arg("kind") = "progress", pybind11::arg("task") = task,
                            pybind11::arg("done") = done, pybind11::arg("total") = total);
    });
  }
  void Note(const std::string& text) override {
    Send([&] {
      return pybind11::dict(pybind11::arg("kind") = "note", pybind11::arg("text") = text);
    });
  }
  // After the run, with the GIL: raises what the callback raised.
  void Rethrow() {
    ClearStopRequest();
    if (!error_) return;
    pybind11::error_already_set error = std::move(*error_);
    error_.reset();
    throw error;
  }

 protected:
  // Calls the callback (if any) with the event `make` builds, with the GIL; an exception in
  // it requests the stop and is kept for Rethrow.
  template <class Make>
  void Send(Make make) {
    if (callback_.is_none() || error_) return;  // is_none: no reference count, no GIL
    pybind11::gil_scoped_acquire gil;
    try {
      callback_(make());
    } catch (pybind11::error_already_set& error) {
      error_ = std::move(error);
      RequestStop(SIGINT);
    }
  }

 private:
  pybind11::object callback_;
  std::optional<pybind11::error_already_set> error_;
};

// Per-step data of the analyses that have them, as events: {'kind': 'sample', 'row': [..]}
// (transient: the values of its columns), {'kind': 'step', 'index', 't', 'force_n' (per
// support), 'open_pairs', 'sticking_pairs', 'slipping_pairs'} (static), {'kind': 'sample',
// 'run', 'time', 'measure', 'gap_norm_m', 'normal_force_n'} (joint_dynamics).
// (multibody, belt_drive: likewise).
template <class Base>
class SamplePythonObserver final : public PythonObserver<Base> {
 public:
  using PythonObserver<Base>::PythonObserver;
  void Sample(const std::vector<double>& row) override {
    this->Send([&] {
      return pybind11::dict(pybind11::arg("kind") = "sample", pybind11::arg("row") = row);
    });
  }
};
using TransientPythonObserver = SamplePythonObserver<analysis::TransientObserver>;
using MultibodyPythonObserver = SamplePythonObserver<analysis::MultibodyObserver>;
using BeltDrivePythonObserver = SamplePythonObserver<analysis::BeltDriveObserver>;

class StaticPythonObserver final : public PythonObserver<analysis::StaticObserver> {
 public:
  using PythonObserver::PythonObserver;
  void Step(const analysis::StaticStep& step, std::span<const joint::JointOperator>,
            const VecX&) override {
    Send([&] {
      pybind11::list forces;
      for (const analysis::Reaction& r : step.reactions)
        forces.append(pybind11::make_tuple(r.force.x(), r.force.y(), r.force.z()));
      return pybind11::dict(pybind11::arg("kind") = "step", pybind11::arg("index") = step.index,
                            pybind11::arg("t") = step.t, pybind11::arg("force_n") = forces,
                            pybind11::arg("open_pairs") = step.joints.open_pairs,
                            pybind11::arg("sticking_pairs") = step.joints.sticking_pairs,
                            pybind11::arg("slipping_pairs") = step.joints.slipping_pairs);
    });
  }
};

class JointDynamicsPythonObserver final : public PythonObserver<analysis::JointDynamicsObserver> {
 public:
  using PythonObserver::PythonObserver;
  void Sample(const analysis::DynamicRun& run, double time,
              const std::array<double, analysis::kCriteria>& criteria, const VecX&) override {
    Send([&] {
      pybind11::dict event(pybind11::arg("kind") = "sample", pybind11::arg("run") = run.name,
                           pybind11::arg("time") = time);
      for (int c = 0; c < analysis::kCriteria; ++c)
        event[pybind11::str(analysis::kCriterionNames[c].column)] = criteria[c];
      return event;
    });
  }
};

}  // namespace jointdyn::python
