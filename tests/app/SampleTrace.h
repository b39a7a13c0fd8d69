// Small traces built in code through TraceWriter for model tests. They are
// synthetic: tests that claim to show a real run use shardlab-run instead.
#pragma once

#include "trace/TraceReader.h"
#include "trace/TraceWriter.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace sample {

namespace st = shardlab::trace;

struct Options {
  int ranks = 2;
  int steps = 2;
  bool oomOnRank1 = false;
  int blocks = 2; // units: embed, block0 .. block{blocks-1}, head
};

inline std::vector<std::string> units(int blocks = 2) {
  std::vector<std::string> names{"embed"};
  for (int b = 0; b < blocks; ++b) names.push_back("block" + std::to_string(b));
  names.push_back("head");
  return names;
}

// FSDP-like: per unit all-gather -> gathered +, forward, gathered -, then backward
// with all-gather, backward, reduce-scatter; an optimizer; a step record.
inline std::string fsdpText(const Options& o = {}) {
  char* buf = nullptr;
  std::size_t size = 0;
  std::FILE* f = open_memstream(&buf, &size);
  const int U = o.blocks + 2;
  st::TraceWriter w(f, units(o.blocks));
  w.writeHeader();
  nlohmann::json job = {{"strategy", "fsdp"}, {"ranks", o.ranks}, {"device", "cpu"}, {"steps", o.steps},
                        {"model", {{"parameters", 4096}, {"units", units(o.blocks)}}}};
  if (o.oomOnRank1) job["memory_budget"] = 20000;
  w.writeJob(job);
  for (int r = 0; r < o.ranks; ++r)
    w.writeRank(r, {{"host", "localhost"}, {"device", "cpu"}, {"device_name", "CPU rank (Open MPI, shared memory)"}, {"pid", 100 + r}});
  const std::int64_t unitBytes = 1024 * o.ranks; // full unit; each rank holds 1024
  const st::RankMask all = (st::RankMask{1} << o.ranks) - 1;
  for (int r = 0; r < o.ranks; ++r) {
    std::int64_t t = 1000;
    std::int64_t cat[st::kCategoryCount] = {};
    std::int64_t total = 0;
    auto mem = [&](st::Category c, int unit, std::int64_t delta) {
      st::Event e;
      e.record = st::Record::Memory;
      e.rank = r;
      e.t0 = e.t1 = t;
      e.category = c;
      e.unit = unit;
      e.bytes = delta;
      cat[static_cast<int>(c)] += delta;
      total += delta;
      e.value = cat[static_cast<int>(c)];
      e.total = total;
      w.write(e);
    };
    auto span = [&](st::Record rec, st::Kind k, int unit, int step, std::int64_t dur, std::int64_t bytes = 0) {
      st::Event e;
      e.record = rec;
      e.kind = k;
      e.rank = r;
      e.unit = unit;
      e.step = step;
      e.micro = rec == st::Record::Idle ? -1 : -1;
      e.t0 = t;
      e.t1 = t + dur;
      e.bytes = bytes;
      e.participants = rec == st::Record::Collective ? all : 0;
      e.rows = 1;
      e.cols = static_cast<std::int32_t>(bytes / 4);
      w.write(e);
      t += dur;
    };
    for (int u = 0; u < U; ++u) mem(st::Category::ParamShard, u, 1024);
    t += 500; // shards are in place before the first step starts
    for (int s = 0; s < o.steps; ++s) {
      for (int u = 0; u < U; ++u) {
        mem(st::Category::GatheredParams, u, unitBytes);
        span(st::Record::Collective, st::Kind::AllGather, u, s, 4000, unitBytes);
        span(st::Record::Op, st::Kind::Forward, u, s, 10000 + 1000 * r);
        mem(st::Category::GatheredParams, u, -unitBytes);
      }
      for (int u = U - 1; u >= 0; --u) {
        if (o.oomOnRank1 && r == 1 && s == 0 && u == 2) {
          st::Event e;
          e.record = st::Record::OutOfMemory;
          e.rank = r;
          e.t0 = e.t1 = t;
          e.category = st::Category::GatheredParams;
          e.unit = u;
          e.bytes = unitBytes;
          e.value = 20000;
          e.total = total;
          w.write(e);
          w.flush();
          std::fclose(f);
          std::string text(buf, size);
          std::free(buf);
          return text;
        }
        mem(st::Category::GatheredParams, u, unitBytes);
        span(st::Record::Collective, st::Kind::AllGather, u, s, 4000, unitBytes);
        mem(st::Category::Grads, u, unitBytes);
        span(st::Record::Op, st::Kind::Backward, u, s, 20000);
        mem(st::Category::GatheredParams, u, -unitBytes);
        span(st::Record::Collective, st::Kind::ReduceScatter, u, s, 5000, unitBytes);
        mem(st::Category::GradShard, u, 1024);
        mem(st::Category::Grads, u, -unitBytes);
      }
      if (r == 0) span(st::Record::Idle, st::Kind::WaitCollective, -1, s, 3000);
      span(st::Record::Op, st::Kind::Optimizer, -1, s, 2000);
      for (int u = 0; u < U; ++u) mem(st::Category::GradShard, u, -1024);
      st::Event step;
      step.record = st::Record::Step;
      step.rank = r;
      step.t0 = step.t1 = t;
      step.step = s;
      step.loss = 5.0 * 100 / (s + 1);
      step.value = 100;
      w.write(step);
    }
    st::Event end;
    end.record = st::Record::End;
    end.rank = r;
    end.t0 = end.t1 = t;
    w.write(end);
  }
  w.flush();
  std::fclose(f);
  std::string text(buf, size);
  std::free(buf);
  return text;
}

} // namespace sample
