// The calibration probe: two tiny real jobs on 2 CPU ranks through mpirun (a GPipe
// pipeline for the hand-offs and the MLP's matrix multiplies, an FSDP job for the
// all-gathers), 2 steps and 1 step: mostly the two mpirun starts (3.2-3.4 s measured on
// the 2-core development machine under a load average of 10). The result is cached per machine and build
// under $XDG_CACHE_HOME/shardlab/ (else ~/.cache/shardlab/); a cache that cannot be
// read, is not a calibration, or was measured on another machine or build is
// ignored and measured again.
#pragma once

#include "job/Calibration.h"
#include "launcher/LaunchOptions.h"

#include <filesystem>
#include <optional>
#include <string>

namespace shardlab {

// The machine and build a calibration belongs to: host name, version, the worker's size and time.
std::string calibrationKey(const std::string& workerPath);
std::filesystem::path calibrationCachePath();

// The cached calibration when it is valid for `key`; nullopt otherwise (missing or corrupt).
std::optional<Calibration> readCachedCalibration(const std::filesystem::path& file, const std::string& key);

// Measures now (and caches the result). `options` gives the mpirun to use.
// nullopt with `error` set when a probe job fails.
std::optional<Calibration> measureCalibration(const LaunchOptions& options, const std::string& workerPath,
                                              std::string& error);

// The cached calibration, or a fresh one when there is none valid.
std::optional<Calibration> machineCalibration(const LaunchOptions& options, const std::string& workerPath,
                                              std::string& error);

} // namespace shardlab
