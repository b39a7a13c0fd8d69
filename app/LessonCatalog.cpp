#include "LessonCatalog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>

#ifndef SHARDLAB_SOURCE_ASSETS
#define SHARDLAB_SOURCE_ASSETS ""
#endif

namespace {

JobSpec spec(const char* strategy, int ranks, int layers, int hidden, int batch, int steps) {
  JobSpec s;
  s.strategy = QLatin1String(strategy);
  s.ranks = ranks;
  s.layers = layers;
  s.hidden = hidden;
  s.batch = batch;
  s.steps = steps;
  return s;
}
} // namespace

QList<Lesson> LessonCatalog::builtin() {
  // The fallback table: the 7 lessons' specs in one place.
  QList<Lesson> out;
  {
    Lesson l{QStringLiteral("ddp-replicas"), QCoreApplication::translate("LessonCatalog", "DDP: every rank holds a replica"),
             QCoreApplication::translate("LessonCatalog", "Each rank keeps the full model; gradients are all-reduced after backward."), {}, {}, {}, false};
    l.specs << spec("ddp", 2, 4, 64, 8, 3);
    out << l;
  }
  {
    Lesson l{QStringLiteral("fsdp-shard-gather-free"), QCoreApplication::translate("LessonCatalog", "FSDP: shard, gather, free"),
             QCoreApplication::translate("LessonCatalog", "Each rank keeps 1/N of every unit; a unit is all-gathered just before it computes and freed after."),
             {}, {}, {}, false};
    l.specs << spec("fsdp", 4, 4, 64, 8, 2);
    out << l;
  }
  {
    Lesson l{QStringLiteral("fsdp-prefetch"), QCoreApplication::translate("LessonCatalog", "FSDP: prefetching the next unit"),
             QCoreApplication::translate("LessonCatalog", "With prefetch the next all-gather overlaps the current compute; without it, communication is exposed."),
             {}, {}, {}, false};
    JobSpec a = spec("fsdp", 4, 6, 128, 8, 2), b = a;
    b.prefetch = false;
    l.specs << a << b;
    l.specLabels << QCoreApplication::translate("LessonCatalog", "prefetch") << QCoreApplication::translate("LessonCatalog", "no prefetch");
    out << l;
  }
  {
    Lesson l{QStringLiteral("oom-ddp-vs-fsdp"), QCoreApplication::translate("LessonCatalog", "Out of memory: DDP vs FSDP"),
             QCoreApplication::translate("LessonCatalog", "The same model under the same memory budget: DDP's replicas do not fit, FSDP's shards do."), {}, {}, {}, false};
    JobSpec a = spec("ddp", 4, 6, 256, 8, 2), b = spec("fsdp", 4, 6, 256, 8, 2);
    a.memoryBudget = b.memoryBudget = QStringLiteral("3MiB");
    l.specs << a << b;
    l.specLabels << QStringLiteral("DDP") << QStringLiteral("FSDP");
    out << l;
  }
  {
    Lesson l{QStringLiteral("pipeline-bubble"), QCoreApplication::translate("LessonCatalog", "Pipeline: the bubble"),
             QCoreApplication::translate("LessonCatalog", "Stages wait for activations and gradients; more micro-batches shrink the idle bubble."), {}, {}, {}, false};
    JobSpec a = spec("pipeline", 4, 8, 64, 8, 3);
    a.schedule = QStringLiteral("naive");
    a.microbatches = 1;
    JobSpec b = a;
    b.schedule = QStringLiteral("gpipe");
    b.microbatches = 8;
    l.specs << a << b;
    l.specLabels << QCoreApplication::translate("LessonCatalog", "naive, 1 micro-batch") << QCoreApplication::translate("LessonCatalog", "GPipe, 8 micro-batches");
    out << l;
  }
  {
    Lesson l{QStringLiteral("gpipe-vs-1f1b"), QCoreApplication::translate("LessonCatalog", "GPipe vs 1F1B"),
             QCoreApplication::translate("LessonCatalog", "Same bubble, different memory: 1F1B frees activations early by interleaving forward and backward."),
             {}, {}, {}, false};
    JobSpec a = spec("pipeline", 4, 8, 64, 8, 3);
    a.microbatches = 8;
    a.schedule = QStringLiteral("gpipe");
    JobSpec b = a;
    b.schedule = QStringLiteral("1f1b");
    l.specs << a << b;
    l.specLabels << QStringLiteral("GPipe") << QStringLiteral("1F1B");
    out << l;
  }
  {
    Lesson l{QStringLiteral("tensor-parallel"), QCoreApplication::translate("LessonCatalog", "Tensor parallelism"),
             QCoreApplication::translate("LessonCatalog", "Each layer's matrices are split across ranks; activations are all-reduced inside every layer."),
             {}, {}, {}, false};
    l.specs << spec("tp", 2, 4, 64, 8, 3);
    out << l;
  }
  return out;
}

QString LessonCatalog::assetsDirectory() {
  const QString env = qEnvironmentVariable("SHARDLAB_ASSETS");
  if (!env.isEmpty() && QDir(env).exists()) return env;
  const QString installed = QCoreApplication::applicationDirPath() + QStringLiteral("/../share/shardlab/assets");
  if (QDir(installed).exists()) return QDir(installed).absolutePath();
  return QStringLiteral(SHARDLAB_SOURCE_ASSETS);
}

const Lesson* LessonCatalog::find(const QString& id) const {
  for (const auto& l : lessons_)
    if (l.id == id) return &l;
  return nullptr;
}

LessonCatalog LessonCatalog::load(const QString& assetsDir) {
  LessonCatalog c;
  c.lessons_ = builtin();
  QDir dir(assetsDir + QStringLiteral("/lessons"));
  if (assetsDir.isEmpty() || !dir.exists()) return c;
  const QString lang = QLocale().name().left(2);
  for (const auto& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
    QFile f(dir.filePath(name));
    if (!f.open(QIODevice::ReadOnly)) continue;
    QJsonParseError err{};
    const auto doc = QJsonDocument::fromJson(f.readAll(), &err);
    if (!doc.isObject()) {
      c.warnings_ << QStringLiteral("%1: %2").arg(name, err.errorString());
      continue;
    }
    const auto o = doc.object();
    Lesson l;
    l.fromAssets = true;
    l.id = o.value(QStringLiteral("id")).toString(QFileInfo(name).completeBaseName());
    // A title may be a string or {"en": ..., "fr": ...}.
    auto text = [&](const QJsonValue& v) {
      if (v.isString()) return v.toString();
      if (v.isObject()) {
        const auto obj = v.toObject();
        return obj.value(lang).toString(obj.value(QStringLiteral("en")).toString());
      }
      return QString();
    };
    l.title = text(o.value(QStringLiteral("title")));
    l.summary = text(o.value(QStringLiteral("summary")));
    if (l.summary.isEmpty()) l.summary = text(o.value(QStringLiteral("description")));
    if (o.value(QStringLiteral("spec")).isObject()) l.specs << JobSpec::fromJson(o.value(QStringLiteral("spec")).toObject());
    for (const auto& v : o.value(QStringLiteral("specs")).toArray()) {
      const auto so = v.toObject();
      l.specs << JobSpec::fromJson(so.contains(QStringLiteral("spec")) ? so.value(QStringLiteral("spec")).toObject() : so);
      const QString label = text(so.value(QStringLiteral("label")));
      l.specLabels << (label.isEmpty() ? so.value(QStringLiteral("strategy")).toString().toUpper() : label);
    }
    const QString guide = text(o.value(QStringLiteral("guide")));
    if (!guide.isEmpty()) l.guide = QDir(assetsDir).filePath(guide);
    if (l.specs.isEmpty()) {
      c.warnings_ << QStringLiteral("%1: no spec").arg(name);
      continue;
    }
    bool replaced = false;
    for (auto& existing : c.lessons_)
      if (existing.id == l.id) {
        if (l.title.isEmpty()) l.title = existing.title;
        if (l.summary.isEmpty()) l.summary = existing.summary;
        existing = l;
        replaced = true;
      }
    if (!replaced) c.lessons_ << l;
  }
  return c;
}
