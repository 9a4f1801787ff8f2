#!/usr/bin/env python3
"""`./gantry fuzz`'s campaign against a live system (bench/fuzz.sh starts it): mutated events into every topic a
service consumes, mutated requests against every operation of every service's OpenAPI document, and the outcome of
each input by class. Kafka goes through the broker's own console tools (no client library needed here).

  fuzz.py run --bootstrap H:P [--kafka-config FILE] --lib DIR --services name=port,... --inputs N --seed S --out DIR
  (--kafka-config: a Kafka client config file, the login on a secured broker)
  fuzz.py report --out DIR --replay SUMMARY [--replay SUMMARY] --lag N --crashes N   (prints the table, writes fuzz.json; exit 1 on a failure)
"""
import argparse
import collections
import json
import os
import random
import subprocess
import sys
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzz_events  # noqa: E402
import fuzz_rest  # noqa: E402

CONSUMED = ["gantry.jobs.submitted", "gantry.jobs.tuned", "gantry.scheduling.decisions", "gantry.jobs.lifecycle",
            "gantry.jobs.cancellations", "gantry.cluster.metrics", "gantry.users.priority"]
DLQS = ["gantry.dlq.job-tuner", "gantry.dlq.sac-scheduler", "gantry.dlq.pod-dispatcher", "gantry.dlq.metrics-ingest",
        "gantry.dlq.priority-accounting", "gantry.dlq.studio"]
# At most this many 5 MB values in a campaign: each costs the producer 5 MB, and the point is made after a few.
MAX_HUGE = 20
FALLBACK = {
    "gantry.jobs.cancellations": {"type": "JobCancelRequested", "eventId": "", "schemaVersion": 1,
                                  "occurredAt": "2026-01-01T00:00:00Z", "jobId": "fuzz-0", "user": "fuzz-user",
                                  "reason": "fuzz"},
    "gantry.users.priority": {"type": "UserPriority", "eventId": "", "schemaVersion": 1,
                              "occurredAt": "2026-01-01T00:00:00Z", "user": "fuzz-user", "basePriority": 1.0,
                              "priority": 1.0, "weight": 1.0, "reason": "fuzz"},
}


def java(lib, main, *args, stdin=None, timeout=120):
    # Short-lived tools started like the services (C1, serial collector): cheaper on a loaded machine.
    cmd = ["java", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", os.path.join(lib, "*"), main, *args]
    return subprocess.run(cmd, input=stdin, capture_output=True, timeout=timeout)


def consume(a, topic, max_messages=None, timeout_ms=8000):
    args = ["--bootstrap-server", a.bootstrap, "--topic", topic, "--from-beginning", "--timeout-ms", str(timeout_ms),
            "--property", "print.key=true", "--property", "print.headers=true", "--property", "key.separator=\t",
            "--property", "headers.separator=|"]
    if max_messages:
        args += ["--max-messages", str(max_messages)]
    if a.kafka_config:
        args += ["--consumer.config", a.kafka_config]
    try:
        r = java(a.lib, "org.apache.kafka.tools.consumer.ConsoleConsumer", *args, timeout=180)
    except subprocess.TimeoutExpired:
        return []
    return [l.split("\t", 2) for l in r.stdout.decode("utf-8", "replace").splitlines() if l.count("\t") >= 2]


def seed_event(a, topic):
    # A loaded machine takes a while to join and fetch: 8 s missed gantry.jobs.submitted in a development run.
    for _, _, value in consume(a, topic, max_messages=5, timeout_ms=30000):
        try:
            e = json.loads(value)
            if isinstance(e, dict) and "type" in e:
                return e
        except ValueError:
            continue
    return FALLBACK.get(topic)


def produce(a, topic, records):
    lines = b"".join(k.encode() + b"\t" + v.replace(b"\n", b" ").replace(b"\r", b" ") + b"\n" for k, v in records)
    login = ["--producer.config", a.kafka_config] if a.kafka_config else []
    r = java(a.lib, "org.apache.kafka.tools.ConsoleProducer", "--bootstrap-server", a.bootstrap, "--topic", topic,
             "--property", "parse.key=true", "--property", "key.separator=\t",
             "--producer-property", "max.request.size=6000000", *login, stdin=lines, timeout=600)
    return r.stderr.decode("utf-8", "replace")


def run_events(a, rng, n_inputs, raw):
    seeds = {t: seed_event(a, t) for t in CONSUMED}
    # A second look for a topic whose read timed out (a loaded broker; gantry.jobs.submitted went unfuzzed once so).
    seeds.update({t: seed_event(a, t) for t in CONSUMED if not seeds[t]})
    topics = [t for t in CONSUMED if seeds[t]]
    raw["seedless_topics"] = [t for t in CONSUMED if not seeds[t]]
    per_topic = collections.defaultdict(list)
    huge = 0
    i = 0
    while i < n_inputs:
        cls = rng.choice(list(fuzz_events.CLASSES))
        if cls == "5mb-value":
            if huge >= MAX_HUGE:
                continue
            huge += 1
        topic = rng.choice(topics)
        value = fuzz_events.mutate(rng, cls, seeds[topic], i)
        key = "fuzz-%d" % i
        per_topic[topic].append((key, value))
        raw["events"][key] = {"class": cls, "topic": topic, "bytes": len(value)}
        if cls == "duplicate-id":
            per_topic[topic].append((key + "-dup", value))
            raw["events"][key + "-dup"] = {"class": cls, "topic": topic, "bytes": len(value)}
            i += 1
        i += 1
    for topic, records in per_topic.items():
        err = produce(a, topic, records)
        raw["producer_errors"][topic] = err.count("RecordTooLargeException")


def read_dlqs(a, raw):
    for topic in DLQS:
        # As for the seeds: on a loaded machine the join and first fetch can take longer than the default 8 s.
        for headers, key, _ in consume(a, topic, timeout_ms=30000):
            if key in raw["events"]:
                reason = ""
                for h in headers.split("|"):
                    if h.startswith("dead-letter-reason:"):
                        reason = h.split(":", 1)[1][:160]
                raw["events"][key].setdefault("dlq", []).append({"topic": topic, "reason": reason})


def cmd_run(a):
    rng = random.Random(a.seed)
    raw = {"events": {}, "producer_errors": {}, "rest": [], "openapi_unreadable": {}}
    services = dict(s.split("=") for s in a.services.split(","))
    n_rest = a.inputs // 2
    run_events(a, rng, a.inputs - n_rest, raw)
    raw["rest"] = fuzz_rest.run(rng, services, n_rest, os.environ.get("GANTRY_TOKEN"), raw["openapi_unreadable"])
    read_dlqs(a, raw)
    json.dump(raw, open(os.path.join(a.out, "fuzz-raw.json"), "w"))


def event_outcome(e):
    if e.get("dlq"):
        return "dlq"
    if e["bytes"] > 1024 * 1024:
        return "refused (size)"
    return "accepted"


def cmd_report(a):
    raw = json.load(open(os.path.join(a.out, "fuzz-raw.json")))
    # The valid jobs replayed before the fuzz (they seed it) and after it (a poisoned partition would hold them).
    replay = {}
    for f in a.replay:
        try:
            r = json.load(open(f))
        except (OSError, ValueError):
            replay = {}
            break
        for k in ("submitted", "unfinished", "duplicates"):
            replay[k] = replay.get(k, 0) + r.get(k, 0)
    table = collections.defaultdict(collections.Counter)
    reasons = collections.defaultdict(collections.Counter)
    for e in raw["events"].values():
        o = event_outcome(e)
        table["event " + e["class"]][o] += 1
        for d in e.get("dlq", []):
            reasons[e["class"]][d["reason"][:80]] += 1
    five = []
    for r in raw["rest"]:
        table["rest " + r["class"]][r["outcome"]] += 1
        if r["outcome"] in ("5xx", "no answer"):
            five.append(r)
    lost = replay.get("unfinished") if replay else None
    report = {
        "inputs": len(raw["events"]) + len(raw["rest"]),
        "events": len(raw["events"]), "requests": len(raw["rest"]),
        "outcomes": {k: dict(v) for k, v in sorted(table.items())},
        "dlq_reasons": {k: dict(v.most_common(5)) for k, v in reasons.items()},
        "5xx": sum(1 for r in five if r["outcome"] == "5xx"), "no_answer": sum(1 for r in five if r["outcome"] != "5xx"),
        "5xx_samples": five[:20], "crashes": a.crashes, "consumer_lag_after": a.lag,
        "valid_jobs": replay.get("submitted"), "lost_valid_jobs": lost, "duplicates": replay.get("duplicates"),
        "seedless_topics": raw.get("seedless_topics", []),
        "openapi_unreadable": raw.get("openapi_unreadable", {}),
    }
    # A campaign that sent no requests, or skipped a service, has not tested what it reports.
    ok = (report["5xx"] == 0 and report["no_answer"] == 0 and a.crashes == 0 and a.lag == 0 and lost == 0
          and replay.get("duplicates") == 0 and report["requests"] > 0 and not report["openapi_unreadable"])
    report["verdict"] = "PASSED" if ok else "FAILED"
    json.dump(report, open(os.path.join(a.out, "fuzz.json"), "w"), indent=2)
    cols = ["dlq", "refused (size)", "accepted", "2xx", "4xx", "5xx", "no answer"]
    print("%-28s" % "input class" + "".join("%15s" % c for c in cols))
    for k, v in sorted(table.items()):
        print("%-28s" % k + "".join("%15d" % v.get(c, 0) for c in cols))
    print("inputs %d (%d events, %d requests); 5xx %d, no answer %d, crashes %d, consumer lag after %d; valid jobs %s, "
          "lost %s, duplicates %s -> %s" % (report["inputs"], report["events"], report["requests"], report["5xx"],
                                           report["no_answer"], a.crashes, a.lag, report["valid_jobs"], lost,
                                           report["duplicates"], report["verdict"]))
    if report["openapi_unreadable"] or report["seedless_topics"]:
        print("OpenAPI documents not read: %s; topics without a seed event (not fuzzed): %s"
              % (report["openapi_unreadable"] or "none", report["seedless_topics"] or "none"))
    for r in five[:5]:
        print("  %s %s %s -> %s %s" % (r["outcome"], r["method"], r["path"], r.get("status"), r.get("detail", "")[:120]))
    return 0 if ok else 1


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--bootstrap", required=True)
    r.add_argument("--kafka-config")
    r.add_argument("--lib", required=True)
    r.add_argument("--services", required=True)
    r.add_argument("--inputs", type=int, default=20000)
    r.add_argument("--seed", type=int, default=17)
    r.add_argument("--out", required=True)
    q = sub.add_parser("report")
    q.add_argument("--out", required=True)
    q.add_argument("--replay", action="append", required=True)
    q.add_argument("--lag", type=int, required=True)
    q.add_argument("--crashes", type=int, required=True)
    a = p.parse_args()
    if a.cmd == "run":
        cmd_run(a)
        return 0
    return cmd_report(a)


if __name__ == "__main__":
    sys.exit(main())
