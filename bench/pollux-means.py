#!/usr/bin/env python3
"""Means over the workload files of bench/pollux-adaptive.sh's runs (OUT/<shape>/<folder>/<file>-<policy>/summary.json):
per shape, folder, policy and tuner mode, with each mode against tuner off under the same policy, then Gantry's best
configuration against pollux. Writes OUT/means.csv, OUT/means.json and OUT/summary.json (every run, with its shape
and folder, in `gantry bench`'s summary shape). Restarts: mean over files of restarts and resizes per job, of the share
of jobs restarted at least once, and of the run time charged for restarts in a file (restart s). Where the runs wrote
jobs.csv (`--per-job on`), it also takes each Gantry-best-against-pollux comparison apart by model (OUT/by-model.csv):
each model's jobs' mean JCT under the untuned row, Gantry's best and pollux, what the model adds to the gap between
the two means, and its jobs' mean restarts under Gantry's best and pollux. Usage: pollux-means.py OUT"""
import csv, glob, json, os, re, sys

LOADS = {"workloads-0.5": 0.5, "workloads": 1.0, "workloads-1.5": 1.5}
ORDER = {"own": 0, "off": 1, "once": 2, "adaptive": 3, "adaptive+idle": 4}


def read_runs(out):
    runs = []
    for path in sorted(glob.glob(f"{out}/*/*/*/summary.json")):
        folder_dir = os.path.dirname(os.path.dirname(path))
        shape, folder = os.path.basename(os.path.dirname(folder_dir)), os.path.basename(folder_dir)
        for r in json.load(open(path))["runs"]:
            # pollux sizes its jobs itself: the tuner does not apply to it ("own")
            r = dict(r, shape=shape, workloads=folder,
                     tuner="own" if r["policy"] == "pollux" else str(r["tuner"]).lower())
            runs.append(r)
    return runs


def means(runs):
    groups = {}
    for r in runs:
        groups.setdefault((r["shape"], r["workloads"], r["policy"], r["tuner"]), []).append(r)
    rows = []
    for (s, d, p, t), rs in groups.items():
        n = len(rs)
        rows.append({"shape": s, "workloads": d, "load": LOADS.get(d), "policy": p, "tuner": t, "files": n,
                     "avg_jct_s": sum(r["avg_jct_s"] for r in rs) / n, "gpu_hours": sum(r["gpu_hours"] for r in rs) / n,
                     "makespan_s": sum(r["makespan_s"] for r in rs) / n,
                     "min_target_reached_ratio": min(r["target_reached_ratio"] for r in rs),
                     **restart_means(rs)})
    off = {(r["shape"], r["workloads"], r["policy"]): r for r in rows if r["tuner"] == "off"}
    for r in rows:
        o = off.get((r["shape"], r["workloads"], r["policy"]))
        same = o is not None and o["files"] == r["files"] and r["tuner"] != "off"
        r["jct_vs_off"] = r["avg_jct_s"] / o["avg_jct_s"] - 1 if same else None
        r["gpu_hours_vs_off"] = r["gpu_hours"] / o["gpu_hours"] - 1 if same else None
    rows.sort(key=lambda r: (r["shape"], r["load"] or 0, r["policy"] != "pollux", r["policy"], ORDER.get(r["tuner"], 9)))
    return rows


RESTART_KEYS = ("restarts_per_job", "resizes_per_job", "restarted_share", "restart_s")


def restart_means(rs):
    """Means of the restart keys (None for runs written before they existed)."""
    if not all(k in r for r in rs for k in RESTART_KEYS):
        return {k: None for k in RESTART_KEYS}
    return {k: sum(r[k] for r in rs) / len(rs) for k in RESTART_KEYS}


def num(x, fmt):
    return "" if x is None else format(x, fmt)


def best_files(rows):
    return max(r["files"] for r in rows)


def pct(x):
    return "" if x is None else f"{100 * x:+.1f}%"


def model_of(job_id):
    """Pollux's job ids are <model>-<n>, with ~r<k> on --repeat copies."""
    return re.sub(r"-\d+(~r\d+)?$", "", job_id)


def by_model(out, bests):
    """Per model, mean JCT of its jobs: untuned (the best policy, tuner off), Gantry's best, pollux; and its share of the
    gap, sum over its jobs of (best - pollux) / all jobs. Only where every file of the cell has jobs.csv."""
    rows = []
    for shape, folder, policy, tuner in bests:
        files = sorted(glob.glob(f"{out}/{shape}/{folder}/*/jobs.csv"))
        jct = {}
        for f in files:
            name = os.path.basename(os.path.dirname(f))
            for j in csv.DictReader(open(f)):
                jct.setdefault((j["policy"], j["tuner"]), {})[(name.rsplit("-", 1)[0], j["seed"], j["job"])] = (
                    float(j["jct_s"]), float(j["restarts"]))
        runs = {"untuned": jct.get((policy, "off")), "best": jct.get((policy, tuner)), "pollux": jct.get(("pollux", "own"))}
        if not files or any(v is None for v in runs.values()) or not (runs["untuned"].keys() == runs["best"].keys()
                                                                         == runs["pollux"].keys()):
            continue
        n = len(runs["best"])
        models = sorted({model_of(k[2]) for k in runs["best"]})
        for m in models:
            keys = [k for k in runs["best"] if model_of(k[2]) == m]
            mean = {r: sum(runs[r][k][0] for k in keys) / len(keys) for r in runs}
            restarts = {r: sum(runs[r][k][1] for k in keys) / len(keys) for r in ("best", "pollux")}
            rows.append({"shape": shape, "workloads": folder, "load": LOADS.get(folder), "best": f"{policy}/{tuner}",
                         "model": m, "jobs": len(keys), "untuned_jct_s": mean["untuned"], "best_jct_s": mean["best"],
                         "pollux_jct_s": mean["pollux"],
                         "gap_s": sum(runs["best"][k][0] - runs["pollux"][k][0] for k in keys) / n,
                         "best_restarts": restarts["best"], "pollux_restarts": restarts["pollux"]})
    if not rows:
        return
    print("\nBy model (jobs.csv): mean JCT of each model's jobs, and what it adds to best - pollux† (s over all jobs):")
    print(f"{'shape':<5} {'load':>4} {'model':<12} {'jobs':>5} {'untuned s':>10} {'best s':>9} {'pollux† s':>10} {'gap s':>7} "
          f"{'restarts a job: best / pollux†':>31}")
    for r in rows:
        print(f"{r['shape']:<5} {r['load']:>4} {r['model']:<12} {r['jobs']:>5} {r['untuned_jct_s']:>10.0f} "
              f"{r['best_jct_s']:>9.0f} {r['pollux_jct_s']:>10.0f} {r['gap_s']:>+7.1f} "
              f"{r['best_restarts']:>22.1f} / {r['pollux_restarts']:.1f}")
    with open(f"{out}/by-model.csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)


def main():
    out = sys.argv[1]
    runs = read_runs(out)
    rows = means(runs)
    print(f"{'shape':<5} {'load':>4} {'policy':<10} {'tuner':<13} {'files':>5} {'avg JCT s':>10} {'vs off':>7} "
          f"{'GPU-hours':>10} {'vs off':>7} {'makespan s':>11} {'target':>6} {'restarts':>8} {'resizes':>7} "
          f"{'restarted':>9} {'restart s':>9}")
    for r in rows:
        name = r["policy"] + ("†" if r["policy"] == "pollux" else "")
        print(f"{r['shape']:<5} {r['load']:>4} {name:<10} {r['tuner']:<13} {r['files']:>5} {r['avg_jct_s']:>10.0f} "
              f"{pct(r['jct_vs_off']):>7} {r['gpu_hours']:>10.1f} {pct(r['gpu_hours_vs_off']):>7} "
              f"{r['makespan_s']:>11.0f} {r['min_target_reached_ratio']:>6.3f} {num(r['restarts_per_job'], '.2f'):>8} "
              f"{num(r['resizes_per_job'], '.2f'):>7} {num(r['restarted_share'], '.3f'):>9} {num(r['restart_s'], '.0f'):>9}")
    print("\nGantry's best configuration (lowest mean avg JCT, policy/tuner) against pollux†:")
    bests = []
    for key in sorted({(r["shape"], r["load"] or 0, r["workloads"]) for r in rows}):
        here = [r for r in rows if (r["shape"], r["workloads"]) == (key[0], key[2])]
        pollux = [r for r in here if r["policy"] == "pollux"]
        ours = [r for r in here if r["policy"] != "pollux" and r["files"] == max(x["files"] for x in here)]
        if not pollux or not ours:
            print(f"  {key[0]} load {key[1]}: not run (pollux {'yes' if pollux else 'no'})")
            continue
        p = pollux[0]
        if p["files"] < best_files(ours):
            # pollux ran on fewer files (it is slow): compare on those files only
            done = {r["trace_file"] for r in runs if (r["shape"], r["workloads"], r["policy"]) == (key[0], key[2], "pollux")}
            ours = means([r for r in runs if (r["shape"], r["workloads"]) == (key[0], key[2])
                          and r["policy"] != "pollux" and r["trace_file"] in done])
        best = min(ours, key=lambda r: r["avg_jct_s"])
        bests.append((key[0], key[2], best["policy"], best["tuner"]))
        verdict = "below" if best["avg_jct_s"] < p["avg_jct_s"] else "NOT below"
        print(f"  {key[0]} load {key[1]}: {best['policy']}/{best['tuner']} {best['avg_jct_s']:.0f} s vs pollux "
              f"{p['avg_jct_s']:.0f} s ({pct(best['avg_jct_s'] / p['avg_jct_s'] - 1)}): {verdict}, on {p['files']} files")
    by_model(out, bests)
    with open(f"{out}/means.csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0].keys()) if rows else ["shape"])
        w.writeheader()
        w.writerows(rows)
    json.dump({"means": rows}, open(f"{out}/means.json", "w"), indent=1)
    json.dump({"runs": runs}, open(f"{out}/summary.json", "w"), indent=1)


main()
