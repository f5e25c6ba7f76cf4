// The observer of a typed run from Python: progress and notes go to a Python callable (with
// the GIL), which also checks for Ctrl-C. A callable that raises, or Ctrl-C, requests the
// analysis to stop (core/stop.h: it ends at its next step with its results so far); the
// exception is raised to the caller after the run (Rethrow). `Base`: the analysis'
// observer type (analysis::Observer, TransientObserver, ...), whose per-step calls keep
// their defaults.
#pragma once

#include <pybind11/pybind11.h>

#include <csignal>
#include <optional>
#include <string>
#include <utility>

#include "core/stop.h"

namespace jointdyn::python {

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
