// The observer of a typed run from Python: progress and notes go to a Python callable (with
// the GIL), which also checks for Ctrl-C. A callable that raises, or Ctrl-C, requests the
// analysis to stop (core/stop.h: it ends at its next step with its results so far); the
// exception is raised to the caller after the run (Rethrow). `Base`: the analysis'
// observer type (analysis::Observer, TransientObserver, ...), whose per-step calls keep
// their defaults.
#pragma once

#include <pybind11/pybind11.h>
#include <signal.h>

#include <csignal>
#include <optional>
#include <string>
#include <utility>

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
class PythonObserver final : public Base {
 public:
  explicit PythonObserver(pybind11::object callback) : callback_(std::move(callback)) {}

  void Progress(const std::string& task, int done, int total) override {
    pybind11::gil_scoped_acquire gil;
    Call(pybind11::dict(pybind11::arg("kind") = "progress", pybind11::arg("task") = task,
                        pybind11::arg("done") = done, pybind11::arg("total") = total));
  }
  void Note(const std::string& text) override {
    pybind11::gil_scoped_acquire gil;
    Call(pybind11::dict(pybind11::arg("kind") = "note", pybind11::arg("text") = text));
  }
  // After the run, with the GIL: raises what the callback raised, or KeyboardInterrupt.
  void Rethrow() {
    ClearStopRequest();
    if (!error_) return;
    pybind11::error_already_set error = std::move(*error_);
    error_.reset();
    throw error;
  }

 private:
  void Call(const pybind11::dict& event) {  // with the GIL
    if (error_) return;
    try {
      if (PyErr_CheckSignals() != 0) throw pybind11::error_already_set();
      if (!callback_.is_none()) callback_(event);
    } catch (pybind11::error_already_set& error) {
      error_ = std::move(error);
      RequestStop(SIGINT);
    }
  }

  pybind11::object callback_;
  std::optional<pybind11::error_already_set> error_;
};

}  // namespace jointdyn::python
