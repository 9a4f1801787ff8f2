#!/usr/bin/env python3
"""Issue 20's ablation table from the summary.json files bench/sac-ablation.sh wrote under OUT.

Rows: each folder's runs, grouped by (row, load); a folder "NAME-sS" is row NAME at seed S, "prior-only" and
"baselines" hold all seeds. Prints mean and spread (sample standard deviation, and min-max) of avg JCT over the
seeds, the ratios the issue's bars need, and writes ablation.csv and ablation.json into OUT.
"""
import csv
import json
import pathlib
import re
import statistics
import sys

ORDER = ["prior-only", "trained", "trained+online", "tiresias", "qssf", "srpt-oracle"]


def runs(out):
    for summary in sorted(out.glob("*/summary.json")):
        folder = summary.parent.name
        row = re.sub(r"-s\d+$", "", folder)
        for r in json.loads(summary.read_text())["runs"]:
            name = r["policy"] if folder == "baselines" else row
            yield name, r["load"], r["seed"], r["avg_jct_s"], r["wall_s"]


def main(out, split):
    groups = {}
    walls = 0.0
    for name, load, seed, jct, wall in runs(out):
        groups.setdefault((name, load), {})[seed] = jct
        walls += wall
    names = [n for n in ORDER if any(k[0] == n for k in groups)]
    names += sorted({k[0] for k in groups} - set(names))
    loads = sorted({k[1] for k in groups})
    rows = []
    for load in loads:
        for name in names:
            seeds = groups.get((name, load))
            if not seeds:
                continue
            v = [seeds[s] for s in sorted(seeds)]
            rows.append({"load": load, "row": name, "seeds": len(v), "mean_avg_jct_s": statistics.mean(v),
                         "sd_avg_jct_s": statistics.stdev(v) if len(v) > 1 else 0.0, "min_avg_jct_s": min(v),
                         "max_avg_jct_s": max(v), "per_seed_avg_jct_s": v})
    by = {(r["row"], r["load"]): r for r in rows}
    for r in rows:
        for ref in ("prior-only", "tiresias", "srpt-oracle"):
            base = by.get((ref, r["load"]))
            r["vs_" + ref] = r["mean_avg_jct_s"] / base["mean_avg_jct_s"] if base else None
    print(f"{'rho':>4}  {'row':<16} {'seeds':>5} {'mean avg JCT s':>14} {'sd':>7} {'min-max':>15}"
          f" {'/prior':>7} {'/tiresias':>9} {'/srpt*':>7}")
    for r in rows:
        ratios = "".join(f" {r[k]:>{w}.3f}" if r[k] else f" {'-':>{w}}"
                         for k, w in (("vs_prior-only", 7), ("vs_tiresias", 9), ("vs_srpt-oracle", 7)))
        print(f"{r['load']:>4.1f}  {r['row']:<16} {r['seeds']:>5} {r['mean_avg_jct_s']:>14,.0f} {r['sd_avg_jct_s']:>7,.0f}"
              f" {r['min_avg_jct_s']:>7,.0f}-{r['max_avg_jct_s']:<7,.0f}{ratios}")
    print(f"(avg JCT over the {split} split's windows, mean over seeds; sd = sample standard deviation; "
          f"* oracle, not deployable; replay wall time {walls:.0f} s)")
    with open(out / "ablation.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["load", "row", "seeds", "mean_avg_jct_s", "sd_avg_jct_s", "min_avg_jct_s", "max_avg_jct_s",
                    "vs_prior_only", "vs_tiresias", "vs_srpt_oracle"])
        for r in rows:
            w.writerow([r["load"], r["row"], r["seeds"], round(r["mean_avg_jct_s"], 1), round(r["sd_avg_jct_s"], 1),
                        round(r["min_avg_jct_s"], 1), round(r["max_avg_jct_s"], 1)]
                       + [None if r[k] is None else round(r[k], 4) for k in ("vs_prior-only", "vs_tiresias", "vs_srpt-oracle")])
    (out / "ablation.json").write_text(json.dumps({"rows": rows}, indent=1) + "\n")
    print(f"wrote {out / 'ablation.csv'} and ablation.json")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: sac_ablation_table.py OUT [SPLIT]   (SPLIT: the split replayed, default report)")
    main(pathlib.Path(sys.argv[1]), sys.argv[2] if len(sys.argv) == 3 else "report")
