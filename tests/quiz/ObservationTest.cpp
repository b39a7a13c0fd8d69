// Observation questions and evidence moments against traces of REAL runs
// (shardlab-run -> mpirun), shared across tests through RealRuns.h.
#include "quiz/observations/EvidenceMoment.h"
#include "quiz/bank/KnownIds.h"
#include "quiz/bank/LabLoader.h"
#include "quiz/observations/Observation.h"
#include "quiz/observations/ObservationText.h"
#include "RealRuns.h"
#include "TestSupport.h"

#include <cmath>
#include <cstdio>
#include <set>

using namespace shardlab::quiz;
using namespace shardlab::quiz::test;
namespace st = shardlab::trace;

namespace {

std::optional<ObservedQuestion> ask(const std::string& templateId, const RealRun& a, const RealRun* b = nullptr) {
  const std::vector<std::string> only{templateId};
  auto qs = observe(a.trace, b ? &b->trace : nullptr, &only);
  if (qs.empty()) return std::nullopt;
  return qs.front();
}

// Every generated question: 4 choices, exactly one correct, distinct in every
// language, all texts present, a known lesson and moment, found in the run.
void expectWellFormed(const ObservedQuestion& q) {
  SCOPED_TRACE(q.templateId);
  EXPECT_EQ(q.question.id, "obs-" + q.templateId);
  EXPECT_TRUE(isWellFormedId(q.question.id));
  ASSERT_EQ(q.question.choices.size(), 4u);
  int correct = 0;
  for (const auto& c : q.question.choices) correct += c.correct ? 1 : 0;
  EXPECT_EQ(correct, 1);
  for (const char* lang : {"en", "fr", "ru"}) {
    EXPECT_FALSE(q.question.text.get(lang).empty()) << lang;
    EXPECT_TRUE(q.question.text.has(lang)) << lang;
    EXPECT_FALSE(q.question.explanation.get(lang).empty()) << lang;
    std::set<std::string> texts;
    for (const auto& c : q.question.choices) {
      EXPECT_TRUE(c.text.has(lang)) << lang;
      texts.insert(c.text.get(lang));
    }
    EXPECT_EQ(texts.size(), 4u) << lang << ": choices must differ";
  }
  ASSERT_TRUE(q.question.evidence.has_value());
  EXPECT_TRUE(isKnownLessonId(q.question.evidence->lesson)) << q.question.evidence->lesson;
  EXPECT_TRUE(isKnownMomentId(q.question.evidence->moment)) << q.question.evidence->moment;
}

std::string correctText(const ObservedQuestion& q, const char* lang = "en") {
  return q.question.choices[q.question.correctIndex()].text.get(lang);
}

} // namespace

TEST(ObservationRegistry, HasAtLeastTenDistinctWellFormedIds) {
  const auto ids = observationTemplateIds();
  EXPECT_GE(ids.size(), 10u);
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), ids.size());
  for (const auto& id : ids) {
    EXPECT_TRUE(isWellFormedId(id)) << id;
    EXPECT_NE(findObservationTemplate(id), nullptr) << id;
  }
  EXPECT_EQ(findObservationTemplate("no-such-template"), nullptr);
}

TEST(ObservationRegistry, ExampleLabsValidateAgainstTheTemplates) {
  const auto lessons = LessonLibrary::loadDirectory(assetsDir() / "lessons", &bank());
  const auto ids = observationTemplateIds();
  const LabLoader loader(bank(), lessons, std::set<std::string>(ids.begin(), ids.end()));
  for (const char* lab : {"fsdp-intro.json", "model-parallel-intro.json"}) {
    Diagnostics d;
    EXPECT_TRUE(loader.load(assetsDir() / "labs" / lab, d).has_value()) << d.toString();
  }
}

TEST(ObservationTemplates, EmptyTraceYieldsNoQuestion) {
  const st::Trace empty;
  EXPECT_TRUE(observe(empty).empty());
  for (const auto& m : knownMomentIds()) EXPECT_FALSE(findMoment(empty, m).has_value()) << m;
}

TEST(ObservationTemplates, CollectiveCountFsdpIsTwoPerUnit) {
  const auto& run = fsdpRun();
  REQUIRE_RUN(run);
  const auto q = ask("collective-count", run);
  ASSERT_TRUE(q);
  expectWellFormed(*q);
  const auto units = static_cast<double>(run.trace.units.size());
  ASSERT_TRUE(q->numeric);
  EXPECT_EQ(q->numeric->value, 2 * units); // FULL_SHARD: gathered for forward and again for backward
  EXPECT_EQ(run.summary.collectives.at("all_gather").count, static_cast<std::int64_t>(2 * units) * run.summary.stepsCompleted);
  EXPECT_EQ(correctText(*q).rfind(std::to_string(static_cast<int>(2 * units)) + ":", 0), 0u) << correctText(*q);
  EXPECT_EQ(q->question.evidence->moment, "first_all_gather");
  ASSERT_TRUE(q->evidenceAt);
}

TEST(ObservationTemplates, CollectiveCountDdpIsOnePerUnit) {
  const auto& run = ddpRun();
  REQUIRE_RUN(run);
  const auto q = ask("collective-count", run);
  ASSERT_TRUE(q);
  expectWellFormed(*q);
  EXPECT_EQ(q->numeric->value, static_cast<double>(run.trace.units.size()));
  EXPECT_EQ(q->question.evidence->moment, "first_all_reduce");
}

TEST(ObservationTemplates, GatherFreeSequenceEveryRankHeldTheUnit) {
  const auto& run = fsdpRun();
  REQUIRE_RUN(run);
  const auto q = ask("gather-free-sequence", run);
  ASSERT_TRUE(q);
  expectWellFormed(*q);
  EXPECT_EQ(correctText(*q).rfind("Ranks 0, 1, 2, 3:", 0), 0u) << correctText(*q);
  ASSERT_TRUE(q->evidenceAt);
  EXPECT_EQ(run.trace.events[q->evidenceAt->eventIndex].kind, st::Kind::AllGather);
}

TEST(ObservationTemplates, OverlapFractionMatchesTheSummary) {
  const auto& run = fsdpRun();
  REQUIRE_RUN(run);
  const auto q = ask("overlap-fraction", run);
  ASSERT_TRUE(q);
  expectWellFormed(*q);
  const auto& r0 = run.summary.ranksDetail.at(0);
  EXPECT_NEAR(q->numeric->value, 1.0 - r0.exposedCommS / r0.commS, 1e-12);
  EXPECT_EQ(q->question.evidence->lesson, "fsdp-prefetch");
}

TEST(ObservationTemplates, PersistentBytesPerRankQuotesTheSummary) {
  for (const RealRun* run : {&fsdpRun(), &fsdpGradOpRun(), &ddpRun()}) {
    REQUIRE_RUN(*run);
    const auto q = ask("persistent-bytes-per-rank", *run);
    ASSERT_TRUE(q);
    expectWellFormed(*q);
    EXPECT_EQ(correctText(*q), st::formatBytes(run->summary.ranksDetail.at(0).persistentBytes));
    ASSERT_TRUE(q->evidenceAt);
    EXPECT_EQ(q->evidenceAt->moment, "persistent_memory");
    // The explanation names the run's own sharding, never FULL_SHARD's by default.
    if (run == &fsdpGradOpRun()) {
      EXPECT_NE(q->question.explanation.get("en").find("\"grad-op\""), std::string::npos);
    }
    if (run == &fsdpRun()) {
      EXPECT_NE(q->question.explanation.get("en").find("\"full\""), std::string::npos);
    }
  }
  // What the explanation claims: both shardings hold only their shards between steps.
  EXPECT_EQ(fsdpGradOpRun().summary.ranksDetail.at(0).persistentBytes,
            fsdpRun().summary.ranksDetail.at(0).persistentBytes);
}

TEST(ObservationTemplates, PersistentRatioDdpOverFsdpIsAboutTheRankCount) {
  const auto &ddp = ddpRun(), &fsdp = fsdpRun();
  REQUIRE_RUN(ddp);
  REQUIRE_RUN(fsdp);
  for (bool swapped : {false, true}) {
    const auto q = swapped ? ask("persistent-ratio", fsdp, &ddp) : ask("persistent-ratio", ddp, &fsdp);
    ASSERT_TRUE(q);
    expectWellFormed(*q);
    EXPECT_NEAR(q->numeric->value, 4.0, 0.2); // full replica vs 1/4 of parameters, gradients and moments
    EXPECT_EQ(q->evidenceRun, swapped ? 0 : 1); // the FSDP run shows it
  }
  EXPECT_FALSE(ask("persistent-ratio", ddp)); // one run: no comparison
}

// Unmeasured (--no-wire-monitoring): the ring model of the recorded collectives, which
// depends on the run's sharding: FULL_SHARD all-gathers twice (3 × (N−1)/N of the model
// against DDP's 2 × (N−1)/N: 1.5×), SHARD_GRAD_OP once (2 × (N−1)/N: about 1×).
TEST(ObservationTemplates, SentBytesRatioWithoutMonitoringIsTheRingModelOfTheRunsSharding) {
  const auto& ddp = ddpUnmonitoredRun();
  REQUIRE_RUN(ddp);
  for (bool gradOp : {false, true}) {
    SCOPED_TRACE(gradOp ? "grad-op" : "full");
    const auto& fsdp = fsdpUnmonitoredRun(gradOp);
    REQUIRE_RUN(fsdp);
    ASSERT_FALSE(fsdp.summary.ranksDetail.at(0).measuredSentBytes);
    const auto q = ask("sent-bytes-ratio", ddp, &fsdp);
    ASSERT_TRUE(q);
    expectWellFormed(*q);
    EXPECT_NEAR(q->numeric->value, gradOp ? 1.0 : 1.5, 0.1);
    EXPECT_NE(q->question.explanation.get("en").find("modelled, not measured"), std::string::npos);
    EXPECT_NE(q->question.text.get("en").find(gradOp ? "\"grad-op\"" : "\"full\""), std::string::npos);
    EXPECT_EQ(q->question.evidence->moment, "first_reduce_scatter");
    ASSERT_TRUE(q->evidenceAt);
  }
}

// Measured by Open MPI's monitoring: the answer is the ratio of what rank 0 really sent
// per step in each run (measured_sent_bytes), for either sharding, and the ring model's
// ratio is offered among the wrong choices when it differs.
TEST(ObservationTemplates, SentBytesRatioUsesTheMeasuredBytesWhenPresent) {
  const auto& ddp = ddpRun();
  REQUIRE_RUN(ddp);
  double measuredRatio[2] = {0, 0};
  for (bool gradOp : {false, true}) {
    SCOPED_TRACE(gradOp ? "grad-op" : "full");
    const auto& fsdp = gradOp ? fsdpGradOpRun() : fsdpRun();
    REQUIRE_RUN(fsdp);
    const auto &a = ddp.summary.ranksDetail.at(0), &b = fsdp.summary.ranksDetail.at(0);
    if (!a.measuredSentBytes || !b.measuredSentBytes) GTEST_SKIP() << "Open MPI's monitoring is not available here";
    const double expected = (static_cast<double>(*b.measuredSentBytes) / fsdp.summary.stepsCompleted) /
                            (static_cast<double>(*a.measuredSentBytes) / ddp.summary.stepsCompleted);
    const auto q = ask("sent-bytes-ratio", ddp, &fsdp);
    ASSERT_TRUE(q);
    expectWellFormed(*q);
    EXPECT_NEAR(q->numeric->value, expected, 1e-9);
    EXPECT_EQ(correctText(*q), shardlab::quiz::text::times(expected));
    EXPECT_NE(q->question.explanation.get("en").find("really sent"), std::string::npos);
    EXPECT_NE(q->question.text.get("en").find(gradOp ? "\"grad-op\"" : "\"full\""), std::string::npos);
    measuredRatio[gradOp ? 1 : 0] = expected;
  }
  // SHARD_GRAD_OP skips the backward all-gather: its ranks send less than FULL_SHARD's.
  EXPECT_LT(measuredRatio[1], measuredRatio[0]);
}

// DDP ranks hold the same bytes: the question asks why, not which rank was first (a race).
TEST(ObservationTemplates, OomNeededVsBudgetAsksWhyForSymmetricRanks) {
  const auto& run = oomRun();
  REQUIRE_RUN(run);
  ASSERT_TRUE(run.summary.outOfMemory) << run.log;
  const auto q = ask("oom-needed-vs-budget", run);
  ASSERT_TRUE(q);
  expectWellFormed(*q);
  const auto& o = *run.summary.outOfMemory;
  EXPECT_EQ(q->question.text.get("en").find("Which rank"), std::string::npos) << q->question.text.get("en");
  EXPECT_EQ(correctText(*q).rfind("Rank " + std::to_string(o.rank) + " already held", 0), 0u) << correctText(*q);
  EXPECT_NE(correctText(*q).find(st::formatBytes(o.needed)), std::string::npos);
  EXPECT_NE(correctText(*q).find(st::formatBytes(o.budget)), std::string::npos);
  EXPECT_NE(q->question.explanation.get("en").find("same bytes"), std::string::npos);
  // The category is named in words in every language, never by its id.
  for (const char* lang : {"en", "fr", "ru"}) {
    EXPECT_EQ(correctText(*q, lang).find(std::string(st::toString(o.category))), std::string::npos) << lang;
  }
  ASSERT_TRUE(q->evidenceAt);
  EXPECT_EQ(run.trace.events[q->evidenceAt->eventIndex].record, st::Record::OutOfMemory);
  // Russian counts agree with their number: "на 4 рангах", never "4 рангов".
  EXPECT_NE(q->question.text.get("ru").find("на 4 рангах"), std::string::npos) << q->question.text.get("ru");
}

TEST(ObservationTemplates, BubbleFractionMatchesTheSummary) {
  const auto& run = pipelineRun(8);
  REQUIRE_RUN_OR_SKIP(run);
  const auto q = ask("bubble-fraction", run);
  ASSERT_TRUE(q);
  expectWellFormed(*q);
  // The question is about the gap to (p−1)/(V·m+p−1) and its parts; the theory is never a wrong choice.
  const auto& b = run.summary.bubble;
  EXPECT_NEAR(q->numeric->value, b.perStage.back() - b.theory, 1e-12);
  const double gap = b.perStage.back() - b.theory;
  const std::string right = correctText(*q);
  const std::string expected = gap > 0.05 ? "Time the formula leaves out" : gap < -0.05 ? "Unequal stages" : "Only the fill and drain";
  EXPECT_EQ(right.rfind(expected, 0), 0u) << right;
  ASSERT_TRUE(q->evidenceAt);
}

TEST(ObservationTemplates, BubbleChangeComparesOneAndEightMicrobatches) {
  const auto &one = pipelineRun(1), &eight = pipelineRun(8);
  REQUIRE_RUN_OR_SKIP(one);
  REQUIRE_RUN_OR_SKIP(eight);
  const auto q = ask("bubble-change", eight, &one); // either order
  ASSERT_TRUE(q);
  expectWellFormed(*q);
  EXPECT_NEAR(q->numeric->value, eight.summary.bubble.measured - one.summary.bubble.measured, 1e-12);
  // No wrong choice ends at the theory's value for m = 8: applying the formula is not marked wrong.
  char theory[32];
  std::snprintf(theory, sizeof theory, "to %.1f %%", eight.summary.bubble.theory * 100.0);
  for (const auto& c : q->question.choices)
    if (!c.correct) {
      EXPECT_EQ(c.text.get("en").find(theory), std::string::npos) << c.text.get("en");
    }
  EXPECT_EQ(q->evidenceRun, 0); // the m = 8 run, given first here
}

TEST(ObservationTemplates, ActivationBytesAreRowsTimesHiddenTimesFour) {
  const auto& run = pipelineRun(8);
  REQUIRE_RUN_OR_SKIP(run);
  const auto q = ask("activation-bytes-per-message", run);
  ASSERT_TRUE(q);
  expectWellFormed(*q);
  ASSERT_TRUE(run.trace.job);
  const int rows = run.trace.job->config.batch / 8, hidden = run.trace.job->config.hidden;
  EXPECT_EQ(q->numeric->value, static_cast<double>(rows) * hidden * 4);
}

TEST(ObservationTemplates, PeakActivationMemoryMatchesTheSummary) {
  const auto& run = pipelineRun(8);
  REQUIRE_RUN_OR_SKIP(run);
  const auto q = ask("peak-activation-memory", run);
  ASSERT_TRUE(q);
  expectWellFormed(*q);
  EXPECT_EQ(q->numeric->value,
            static_cast<double>(run.summary.ranksDetail.at(0).peakByCategory[static_cast<int>(st::Category::Activations)]));
}

// A zero-bubble run's activation peak belongs to the lesson that runs ZB-H1.
TEST(ObservationTemplates, PeakActivationMemoryOfAZeroBubbleRunIsTheZeroBubbleLessons) {
  const auto& run =
      realRun("pp2-zb-h1-m8", "--strategy pipeline --ranks 2 --steps 3 --seed 1 --schedule zb-h1 --microbatches 8");
  REQUIRE_RUN_OR_SKIP(run);
  const auto q = ask("peak-activation-memory", run);
  ASSERT_TRUE(q);
  expectWellFormed(*q);
  ASSERT_TRUE(q->question.evidence);
  EXPECT_EQ(q->question.evidence->lesson, "zero-bubble");
  const auto& oneF = pipelineRun(8);
  REQUIRE_RUN_OR_SKIP(oneF);
  const auto other = ask("peak-activation-memory", oneF);
  ASSERT_TRUE(other && other->question.evidence);
  EXPECT_EQ(other->question.evidence->lesson, "gpipe-vs-1f1b");
}

TEST(ObservationTemplates, TensorParallelTwoAllReducesPerBlock) {
  const auto& run = tpRun();
  REQUIRE_RUN_OR_SKIP(run);
  const auto q = ask("tp-all-reduces-per-block", run);
  ASSERT_TRUE(q);
  expectWellFormed(*q);
  EXPECT_EQ(q->numeric->value, 2.0);
  ASSERT_TRUE(q->evidenceAt);
  EXPECT_EQ(q->evidenceAt->moment, "tp_all_reduce");
}

TEST(ObservationTemplates, MissingDataYieldsNoQuestion) {
  const auto &ddp = ddpRun(), &fsdp = fsdpRun();
  REQUIRE_RUN(ddp);
  REQUIRE_RUN(fsdp);
  EXPECT_FALSE(ask("gather-free-sequence", ddp));          // DDP never all-gathers
  EXPECT_FALSE(ask("overlap-fraction", ddp));
  EXPECT_FALSE(ask("oom-needed-vs-budget", fsdp));         // nothing ran out of memory
  EXPECT_FALSE(ask("bubble-fraction", fsdp));              // not a pipeline
  EXPECT_FALSE(ask("tp-all-reduces-per-block", ddp));
  EXPECT_FALSE(ask("activation-bytes-per-message", ddp));
  const auto& oom = oomRun();
  REQUIRE_RUN(oom);
  EXPECT_FALSE(ask("persistent-bytes-per-rank", oom));     // no step completed
  EXPECT_FALSE(ask("collective-count", oom));
  // A trace cut before its first collective.
  st::Trace cut = fsdp.trace;
  cut.events.erase(std::remove_if(cut.events.begin(), cut.events.end(),
                                  [](const st::Event& e) { return e.record != st::Record::Memory; }),
                   cut.events.end());
  for (const auto& q : observe(cut)) ADD_FAILURE() << "question from a trace without collectives: " << q.templateId;
}

TEST(EvidenceMoments, FoundInRealRunsWithTheirOwnFigures) {
  const auto &fsdp = fsdpRun(), &ddp = ddpRun(), &oom = oomRun();
  REQUIRE_RUN(fsdp);
  REQUIRE_RUN(ddp);
  REQUIRE_RUN(oom);
  struct Case {
    const RealRun* run;
    const char* moment;
    st::Record record;
    st::Kind kind;
  };
  for (const auto& c : {Case{&fsdp, "first_all_gather", st::Record::Collective, st::Kind::AllGather},
                        Case{&fsdp, "gathered_freed", st::Record::Memory, st::Kind::None},
                        Case{&fsdp, "first_reduce_scatter", st::Record::Collective, st::Kind::ReduceScatter},
                        Case{&fsdp, "persistent_memory", st::Record::Step, st::Kind::None},
                        Case{&fsdp, "prefetch_overlap", st::Record::Collective, st::Kind::AllGather},
                        Case{&ddp, "first_all_reduce", st::Record::Collective, st::Kind::AllReduce},
                        Case{&oom, "out_of_memory", st::Record::OutOfMemory, st::Kind::None}}) {
    SCOPED_TRACE(c.moment);
    const auto m = findMoment(c.run->trace, c.run->summary, c.moment);
    ASSERT_TRUE(m);
    const auto& e = c.run->trace.events.at(m->eventIndex);
    EXPECT_EQ(e.record, c.record);
    if (c.kind != st::Kind::None) {
      EXPECT_EQ(e.kind, c.kind);
    }
    EXPECT_EQ(m->time, e.t0);
    EXPECT_EQ(m->rank, e.rank);
    for (const char* lang : {"en", "fr", "ru"}) EXPECT_FALSE(m->sentence.get(lang).empty());
    EXPECT_NE(m->sentence.get("en").find("In your run"), std::string::npos);
  }
  // The sentence quotes the run's own numbers, written as each language writes them ("1,50 Mio").
  const auto p = findMoment(fsdp.trace, fsdp.summary, "persistent_memory");
  ASSERT_TRUE(p);
  EXPECT_NE(p->sentence.get("fr").find(text::localNumber("fr", st::formatBytes(fsdp.summary.ranksDetail.at(0).persistentBytes))), std::string::npos);
  const auto g = findMoment(fsdp.trace, fsdp.summary, "first_all_gather");
  ASSERT_TRUE(g);
  EXPECT_NE(g->sentence.get("ru").find(text::localNumber("ru", st::formatBytes(fsdp.trace.events[g->eventIndex].bytes))), std::string::npos);
  const auto o = findMoment(oom.trace, oom.summary, "out_of_memory");
  ASSERT_TRUE(o);
  EXPECT_EQ(o->rank, oom.summary.outOfMemory->rank);
  EXPECT_NE(o->sentence.get("en").find(st::formatBytes(oom.summary.outOfMemory->needed)), std::string::npos);
}

TEST(EvidenceMoments, AbsentWhenTheRunLacksThem) {
  const auto &fsdp = fsdpRun(), &ddp = ddpRun();
  REQUIRE_RUN(fsdp);
  REQUIRE_RUN(ddp);
  for (const char* m : {"first_all_gather", "gathered_freed", "first_reduce_scatter", "prefetch_overlap", "bubble",
                        "activation_send", "tp_all_reduce", "out_of_memory"})
    EXPECT_FALSE(findMoment(ddp.trace, ddp.summary, m)) << m;
  for (const char* m : {"first_all_reduce", "bubble", "activation_send", "tp_all_reduce", "out_of_memory"})
    EXPECT_FALSE(findMoment(fsdp.trace, fsdp.summary, m)) << m;
}

TEST(EvidenceMoments, PipelineAndTensorParallelMoments) {
  const auto &pp = pipelineRun(8), &tp = tpRun();
  REQUIRE_RUN_OR_SKIP(pp);
  REQUIRE_RUN_OR_SKIP(tp);
  const auto b = findMoment(pp.trace, pp.summary, "bubble");
  ASSERT_TRUE(b);
  EXPECT_EQ(pp.trace.events[b->eventIndex].record, st::Record::Idle);
  const auto s = findMoment(pp.trace, pp.summary, "activation_send");
  ASSERT_TRUE(s);
  const auto& e = pp.trace.events[s->eventIndex];
  EXPECT_EQ(e.kind, st::Kind::Send);
  EXPECT_EQ(e.bytes, static_cast<std::int64_t>(e.rows) * e.cols * 4);
  const auto t = findMoment(tp.trace, tp.summary, "tp_all_reduce");
  ASSERT_TRUE(t);
  EXPECT_EQ(tp.trace.events[t->eventIndex].kind, st::Kind::AllReduce);
  EXPECT_FALSE(findMoment(tp.trace, tp.summary, "first_all_reduce")); // TP's all-reduces are not DDP's
}

TEST(ObserveCli, PrintsQuestionsAsJson) {
  const auto& run = fsdpRun();
  REQUIRE_RUN(run);
  const char* quiz = std::getenv("SHARDLAB_QUIZ");
  if (!quiz) GTEST_SKIP() << "SHARDLAB_QUIZ not set";
  for (const char* lang : {"en", "fr", "ru"}) {
    const std::string cmd = "'" + std::string(quiz) + "' observe '" + run.file.string() + "' '" + ddpRun().file.string() +
                            "' --lang " + lang + " --seed 7";
    std::FILE* p = ::popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    EXPECT_EQ(::pclose(p), 0) << out;
    const auto j = nlohmann::json::parse(out);
    EXPECT_EQ(j.at("lang"), lang);
    EXPECT_EQ(j.at("traces").size(), 2u);
    EXPECT_EQ(j.at("traces")[0].at("trace_hash").get<std::string>().rfind("fnv1a64:", 0), 0u);
    ASSERT_GE(j.at("questions").size(), 6u);
    for (const auto& q : j.at("questions")) {
      EXPECT_EQ(q.at("choices").size(), 4u);
      int correct = 0;
      for (const auto& c : q.at("choices")) correct += c.at("correct").get<bool>() ? 1 : 0;
      EXPECT_EQ(correct, 1);
      EXPECT_FALSE(q.at("answer").get<std::string>().empty());
      EXPECT_TRUE(q.at("evidence").contains("moment"));
    }
  }
}

// Predictions made before a run, measured in the run afterwards.
#include "quiz/observations/PredictionCheck.h"

TEST(Predictions, ParseTheLearnersAnswer) {
  EXPECT_EQ(parsePredictionValue("bytes", "1.5 MiB"), 1.5 * 1024 * 1024);
  EXPECT_EQ(parsePredictionValue("bytes", "562432"), 562432.0);
  EXPECT_EQ(parsePredictionValue("bytes", "2,5 Mio"), 2.5 * 1024 * 1024); // as a French screen writes it
  EXPECT_EQ(parsePredictionValue("bytes", "2,5 МиБ"), 2.5 * 1024 * 1024);
  EXPECT_EQ(parsePredictionValue("percent", "75 %"), 75.0);
  EXPECT_EQ(parsePredictionValue("percent", "42,5"), 42.5);
  EXPECT_EQ(parsePredictionValue("count", "8"), 8.0);
  EXPECT_FALSE(parsePredictionValue("count", "eight"));
  EXPECT_FALSE(parsePredictionValue("bytes", ""));
}

TEST(Predictions, MeasuredInRealRuns) {
  const auto &fsdp = fsdpRun(), &oom = oomRun();
  REQUIRE_RUN(fsdp);
  REQUIRE_RUN(oom);
  const auto p = measurePrediction("rank0-persistent-bytes", fsdp.trace);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->actual, static_cast<double>(fsdp.summary.ranksDetail.at(0).persistentBytes));
  EXPECT_TRUE(p->close(p->actual * 1.05));
  EXPECT_FALSE(p->close(p->actual * 4));
  EXPECT_NE(p->compare(p->actual).get("fr").find(text::localNumber("fr", st::formatBytes(fsdp.summary.ranksDetail.at(0).persistentBytes))),
            std::string::npos);
  const auto need = measurePrediction("ddp-bytes-needed", oom.trace);
  ASSERT_TRUE(need);
  EXPECT_EQ(need->actual, 4.0 * static_cast<double>(oom.trace.job->model.bytes));
  // The DDP run never holds it all, so the check says where the number comes from (the model, not a measurement).
  EXPECT_TRUE(need->fromModel);
  EXPECT_NE(need->compare(1).get("en").find("model needs"), std::string::npos) << need->compare(1).get("en");
  EXPECT_EQ(need->compare(1).get("en").find("measured"), std::string::npos);
  EXPECT_FALSE(p->fromModel);
  EXPECT_FALSE(measurePrediction("rank0-persistent-bytes", oom.trace)); // no step completed
  EXPECT_FALSE(measurePrediction("no-such-prediction", fsdp.trace));
  EXPECT_FALSE(measurePrediction("extra-peak-bytes", fsdp.trace)); // needs the prefetch-off run too
}

TEST(Predictions, MeasuredInModelParallelRuns) {
  const auto &pp1 = pipelineRun(1), &tp = tpRun();
  const auto& onef1b = realRun("pp8-1f1b", "--strategy pipeline --ranks 4 --steps 2 --seed 1 --schedule 1f1b --microbatches 8");
  REQUIRE_RUN_OR_SKIP(pp1);
  REQUIRE_RUN_OR_SKIP(tp);
  REQUIRE_RUN_OR_SKIP(onef1b);
  const auto bubble = measurePrediction("naive-bubble", pp1.trace);
  ASSERT_TRUE(bubble);
  EXPECT_NEAR(bubble->actual, 100 * pp1.summary.bubble.measured, 1e-9);
  const auto ar = measurePrediction("all-reduces-per-step", tp.trace);
  ASSERT_TRUE(ar);
  EXPECT_EQ(ar->actual, 2.0 * 4); // two per block, four blocks
  const auto flight = measurePrediction("stage0-activations-in-flight", onef1b.trace);
  ASSERT_TRUE(flight);
  EXPECT_GE(flight->actual, 1.0);
  EXPECT_LE(flight->actual, 4.0); // 1F1B: at most p = 4 micro-batches in flight on stage 0
}

// The interleaving lesson's prediction: (V·p − 1)/(p − 1) times the stage-to-stage messages.
TEST(Predictions, InterleavedRunSendsMoreMessages) {
  const auto& plain =
      realRun("pp2-1f1b", "--strategy pipeline --ranks 2 --layers 6 --steps 2 --seed 1 --schedule 1f1b --microbatches 4");
  const auto& interleaved = realRun("pp2-interleaved", "--strategy pipeline --ranks 2 --layers 6 --steps 2 --seed 1 "
                                                       "--schedule interleaved --virtual-stages 2 --microbatches 4");
  REQUIRE_RUN_OR_SKIP(plain);
  REQUIRE_RUN_OR_SKIP(interleaved);
  const auto ratio = measurePrediction("interleaved-messages-ratio", plain.trace, &interleaved.trace);
  ASSERT_TRUE(ratio);
  EXPECT_DOUBLE_EQ(ratio->actual, (2.0 * 2 - 1) / (2 - 1)); // p = 2, V = 2
  EXPECT_FALSE(measurePrediction("interleaved-messages-ratio", plain.trace)); // needs both runs
}

// The zero-bubble lesson's prediction: the ZB-H1 run's measured bubble over the 1F1B run's.
TEST(Predictions, ZeroBubbleRatioIsTheMeasuredBubblesOfBothRuns) {
  const auto& oneF =
      realRun("pp2-1f1b-m8", "--strategy pipeline --ranks 2 --steps 3 --seed 1 --schedule 1f1b --microbatches 8");
  const auto& zb =
      realRun("pp2-zb-h1-m8", "--strategy pipeline --ranks 2 --steps 3 --seed 1 --schedule zb-h1 --microbatches 8");
  REQUIRE_RUN_OR_SKIP(oneF);
  REQUIRE_RUN_OR_SKIP(zb);
  const auto ratio = measurePrediction("zb-h1-bubble-ratio", oneF.trace, &zb.trace);
  ASSERT_TRUE(ratio);
  EXPECT_NEAR(ratio->actual, zb.summary.bubble.measured / oneF.summary.bubble.measured, 1e-9);
  EXPECT_EQ(ratio->kind, "ratio");
  EXPECT_FALSE(measurePrediction("zb-h1-bubble-ratio", zb.trace)); // needs both runs
}

// 8 ranks and 2 layers: 2 × 4 units = 8 = ranks. The "one per rank" reason must not
// replace the real one (the count of units per rank only looks like it).
TEST(ObservationTemplates, CollectiveCountKeepsTheRealReasonWhenRanksEqualTheCount) {
  const auto& run = realRun("fsdp8", "--strategy fsdp --ranks 8 --layers 2 --steps 2 --seed 1");
  REQUIRE_RUN(run);
  const auto q = ask("collective-count", run);
  ASSERT_TRUE(q);
  expectWellFormed(*q);
  EXPECT_EQ(q->numeric->value, 8.0);
  EXPECT_NE(correctText(*q).find("gathered before its forward and again before its backward"), std::string::npos)
      << correctText(*q);
  for (const auto& c : q->question.choices)
    EXPECT_EQ(c.text.get("en").find("one per rank"), std::string::npos) << c.text.get("en");
}

// The knob lessons' predictions (activation-checkpointing, mixed-precision,
// gradient-accumulation), each from its two real runs, in either order.
TEST(Predictions, KnobLessonsMeasureTheirTradeInTheirTwoRuns) {
  const std::string fsdp = "--strategy fsdp --ranks 2 --steps 2 --seed 1";
  const auto& plain = realRun("knob-fsdp", fsdp);
  const auto& checkpointed = realRun("knob-checkpoint", fsdp + " --checkpoint-activations");
  const auto& bf16 = realRun("knob-bf16", fsdp + " --param-dtype bf16");
  const std::string ddp = "--strategy ddp --ranks 2 --steps 2 --seed 1 --accumulate 4";
  const auto& sync = realRun("knob-sync", ddp);
  const auto& noSync = realRun("knob-nosync", ddp + " --no-sync");
  for (const auto* r : {&plain, &checkpointed, &bf16, &sync, &noSync}) REQUIRE_RUN(*r);

  const auto saved = measurePrediction("checkpoint-activation-bytes-saved", checkpointed.trace, &plain.trace);
  ASSERT_TRUE(saved);
  constexpr auto activations = static_cast<std::size_t>(st::Category::Activations);
  EXPECT_EQ(saved->actual, static_cast<double>(plain.summary.ranksDetail.at(0).peakByCategory[activations] -
                                               checkpointed.summary.ranksDetail.at(0).peakByCategory[activations]));
  EXPECT_GT(saved->actual, 0);
  EXPECT_EQ(measurePrediction("checkpoint-activation-bytes-saved", plain.trace, &checkpointed.trace)->actual, saved->actual);
  EXPECT_FALSE(measurePrediction("checkpoint-activation-bytes-saved", plain.trace, &plain.trace));

  const auto ratio = measurePrediction("bf16-all-gather-bytes-ratio", plain.trace, &bf16.trace);
  ASSERT_TRUE(ratio);
  EXPECT_NEAR(ratio->actual, 0.5, 0.01);
  EXPECT_TRUE(ratio->close(0.5));
  EXPECT_FALSE(ratio->close(1.0));

  const auto reductions = measurePrediction("no-sync-all-reduce-ratio", noSync.trace, &sync.trace);
  ASSERT_TRUE(reductions);
  EXPECT_DOUBLE_EQ(reductions->actual, 4.0); // one reduction per unit per micro-step against one per step
  EXPECT_FALSE(measurePrediction("no-sync-all-reduce-ratio", sync.trace, &sync.trace));
}

// Activation checkpointing: twice the units' forwards per step, from the summary's op counts.
TEST(ObservationTemplates, ForwardsPerStepCountsTheRecomputes) {
  const auto& run = realRun("knob-checkpoint", "--strategy fsdp --ranks 2 --steps 2 --seed 1 --checkpoint-activations");
  REQUIRE_RUN(run);
  const auto q = ask("forwards-per-step", run);
  ASSERT_TRUE(q);
  expectWellFormed(*q);
  const auto units = static_cast<double>(run.trace.units.size());
  ASSERT_TRUE(q->numeric);
  EXPECT_EQ(q->numeric->value, 2 * units);
  EXPECT_EQ(correctText(*q).rfind(std::to_string(static_cast<int>(2 * units)) + ":", 0), 0u) << correctText(*q);
  EXPECT_FALSE(ask("forwards-per-step", fsdpRun())); // no checkpointing: no question
}

// Gradient accumulation: the reductions per optimizer step are units × K without
// no_sync and units with it, from the trace's collective counts (DDP all-reduces, the
// sharded stages reduce-scatter).
TEST(ObservationTemplates, ReductionsPerStepCountUnitsTimesMicroStepsOrUnitsUnderNoSync) {
  const std::string ddp = "--strategy ddp --ranks 2 --steps 2 --seed 1 --accumulate 4";
  const auto& sync = realRun("knob-sync", ddp);
  const auto& noSync = realRun("knob-nosync", ddp + " --no-sync");
  const auto& fsdpNoSync = realRun("knob-fsdp-nosync", "--strategy fsdp --ranks 2 --steps 2 --seed 1 --accumulate 2 --no-sync");
  for (const auto* r : {&sync, &noSync, &fsdpNoSync}) REQUIRE_RUN(*r);
  struct Case {
    const RealRun* run;
    const char* kind;
    std::int64_t perUnit;
    const char* moment;
  };
  for (const auto& c : {Case{&sync, "all_reduce", 4, "first_all_reduce"}, Case{&noSync, "all_reduce", 1, "first_all_reduce"},
                        Case{&fsdpNoSync, "reduce_scatter", 1, "first_reduce_scatter"}}) {
    SCOPED_TRACE(c.run->trace.config()->noSync ? "no_sync" : "sync");
    const auto q = ask("reductions-per-step", *c.run);
    ASSERT_TRUE(q);
    expectWellFormed(*q);
    const auto units = static_cast<std::int64_t>(c.run->trace.units.size());
    ASSERT_TRUE(q->numeric);
    EXPECT_EQ(q->numeric->value, static_cast<double>(c.run->summary.collectives.at(c.kind).count / c.run->summary.stepsCompleted));
    EXPECT_EQ(q->numeric->value, static_cast<double>(units * c.perUnit));
    EXPECT_EQ(correctText(*q).rfind(std::to_string(units * c.perUnit) + ":", 0), 0u) << correctText(*q);
    EXPECT_EQ(q->question.evidence->lesson, "gradient-accumulation");
    EXPECT_EQ(q->question.evidence->moment, c.moment);
    ASSERT_TRUE(q->evidenceAt);
    // Russian counts agree with their number ("с 4 микрошагами").
    if (c.run != &fsdpNoSync) {
      EXPECT_NE(q->question.text.get("ru").find("с 4 микрошагами"), std::string::npos) << q->question.text.get("ru");
    }
  }
  EXPECT_FALSE(ask("reductions-per-step", fsdpRun())); // one micro-step per step: no question
}

// Mixed precision: the bf16 run's all-gather bytes per step over the fp32 run's, 0.5,
// measured on the wire when Open MPI's monitoring counted both; either order.
TEST(ObservationTemplates, Bf16AllGatherBytesAreHalfOfFp32s) {
  const std::string fsdp = "--strategy fsdp --ranks 2 --steps 2 --seed 1";
  const auto& plain = realRun("knob-fsdp", fsdp);
  const auto& bf16 = realRun("knob-bf16", fsdp + " --param-dtype bf16");
  const auto& checkpointed = realRun("knob-checkpoint", fsdp + " --checkpoint-activations");
  for (const auto* r : {&plain, &bf16, &checkpointed}) REQUIRE_RUN(*r);
  for (bool swapped : {false, true}) {
    SCOPED_TRACE(swapped ? "fp32 first" : "bf16 first");
    const auto q = swapped ? ask("bf16-all-gather-bytes", plain, &bf16) : ask("bf16-all-gather-bytes", bf16, &plain);
    ASSERT_TRUE(q);
    expectWellFormed(*q);
    const auto &a = bf16.summary.collectives.at("all_gather"), &b = plain.summary.collectives.at("all_gather");
    const bool measured = a.measuredWireBytes && b.measuredWireBytes;
    const double expected = measured ? static_cast<double>(*a.measuredWireBytes) / static_cast<double>(*b.measuredWireBytes)
                                     : static_cast<double>(a.bytes) / static_cast<double>(b.bytes);
    EXPECT_NEAR(q->numeric->value, expected, 1e-12); // both runs completed 2 steps
    EXPECT_NEAR(q->numeric->value, 0.5, 0.01);
    EXPECT_EQ(correctText(*q), text::times(expected));
    EXPECT_NE(q->question.text.get("en").find(measured ? "really send" : "traces record"), std::string::npos);
    EXPECT_EQ(q->question.evidence->lesson, "mixed-precision");
    EXPECT_EQ(q->evidenceRun, swapped ? 1 : 0); // the bf16 run shows it
  }
  EXPECT_FALSE(ask("bf16-all-gather-bytes", plain, &checkpointed)); // both fp32
  EXPECT_FALSE(ask("bf16-all-gather-bytes", bf16));                 // one run
}

// Every ZeRO stage: persistent-bytes-per-rank quotes the summary and explains the
// stage's own Ψ arithmetic; the zero-stages lesson's prediction is their ratio.
TEST(ObservationTemplates, PersistentBytesPerRankExplainsEachZeroStage) {
  const std::string job = "--strategy fsdp --ranks 4 --steps 2 --seed 1";
  const auto& optimizer = realRun("zero1", job + " --sharding optimizer");
  const auto& hybrid = realRun("hybrid2", job + " --sharding hybrid --shard-group 2");
  const auto& noShard = realRun("zero0", job + " --sharding no-shard");
  const auto& full = fsdpRun();
  for (const auto* r : {&optimizer, &hybrid, &noShard, &full}) REQUIRE_RUN(*r);
  struct Case {
    const RealRun* run;
    const char* says;
    double psi; // persistent bytes per parameter
  };
  for (const auto& c : {Case{&optimizer, "8Ψ + 8Ψ/4", 10}, Case{&hybrid, "1/2, not 1/4", 8}, Case{&noShard, "16Ψ", 16},
                        Case{&full, "16Ψ/4", 4}}) {
    SCOPED_TRACE(c.says);
    const auto q = ask("persistent-bytes-per-rank", *c.run);
    ASSERT_TRUE(q);
    expectWellFormed(*q);
    const auto persistent = c.run->summary.ranksDetail.at(0).persistentBytes;
    EXPECT_EQ(correctText(*q), st::formatBytes(persistent));
    EXPECT_NE(q->question.explanation.get("en").find(c.says), std::string::npos) << q->question.explanation.get("en");
    // What the explanation claims (docs/sharding.md: the default model's units divide evenly by 4).
    EXPECT_NEAR(static_cast<double>(persistent), c.psi * static_cast<double>(c.run->summary.parameters),
                0.05 * static_cast<double>(persistent));
  }
  const auto ratio = measurePrediction("zero-persistent-ratio", optimizer.trace, &full.trace);
  ASSERT_TRUE(ratio);
  EXPECT_NEAR(ratio->actual, (4.0 + 1) / 2, 0.05 * 2.5); // (8Ψ + 8Ψ/N) / (16Ψ/N) = (N + 1) / 2
  EXPECT_EQ(measurePrediction("zero-persistent-ratio", full.trace, &optimizer.trace)->actual, ratio->actual);
  EXPECT_TRUE(ratio->close(2.5));
  EXPECT_FALSE(ratio->close(4.0));
  EXPECT_FALSE(measurePrediction("zero-persistent-ratio", full.trace, &full.trace)); // one stage twice
  EXPECT_FALSE(measurePrediction("zero-persistent-ratio", ddpRun().trace, &full.trace));
}

// Prefetch modes: the peak of gathered parameters; --limit-all-gathers 1 bounds it by
// the largest unit, below the default backward prefetch's.
TEST(ObservationTemplates, GatheredPeakIsTheLargestUnitUnderALimitOfOne) {
  const auto& limited = realRun("fsdp-limit1", "--strategy fsdp --ranks 4 --steps 2 --seed 1 --forward-prefetch --limit-all-gathers 1");
  const auto& prefetch = fsdpRun();
  REQUIRE_RUN(limited);
  REQUIRE_RUN(prefetch);
  constexpr auto gathered = static_cast<std::size_t>(st::Category::GatheredParams);
  std::int64_t largest = 0;
  for (const auto& e : limited.trace.events)
    if (e.rank == 0 && e.record == st::Record::Memory && e.category == st::Category::GatheredParams) largest = std::max(largest, e.bytes);
  ASSERT_GT(largest, 0);
  for (const RealRun* run : {&limited, &prefetch}) {
    const auto q = ask("gathered-peak", *run);
    ASSERT_TRUE(q);
    expectWellFormed(*q);
    EXPECT_EQ(q->numeric->value, static_cast<double>(run->summary.ranksDetail.at(0).peakByCategory[gathered]));
    EXPECT_EQ(q->question.evidence->lesson, "fsdp-prefetch");
  }
  EXPECT_EQ(ask("gathered-peak", limited)->numeric->value, static_cast<double>(largest));
  EXPECT_GT(ask("gathered-peak", prefetch)->numeric->value, static_cast<double>(largest));
  EXPECT_NE(ask("gathered-peak", limited)->question.text.get("en").find("at most 1 gathered unit;"), std::string::npos);
  EXPECT_FALSE(ask("gathered-peak", ddpRun()));
  EXPECT_FALSE(ask("gathered-peak", realRun("zero1", "--strategy fsdp --ranks 4 --steps 2 --seed 1 --sharding optimizer")));
}
