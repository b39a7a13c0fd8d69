"""The engine's per-step times from a merged trace (`shardlab-run --trace FILE`), the
way scripts/bench_torch_step.py, scripts/bench-peers and scripts/bench-handoff read
them: rank 0's `step` records (ns), step s lasting from step s-1's record to its own,
step 0 left out (it holds the start-up and first-touch costs, as a PyTorch warm-up
does). Plain Python, no third-party import.
"""
import statistics


def engine_steps(path):
    """{"median_ms", "p10_ms", "p90_ms", "steps", "source"}, or {"error": ...}."""
    t = {}
    with open(path) as f:
        for line in f:
            if line.startswith("step "):
                fields = line.split()
                rank, when, step = int(fields[1]), int(fields[2]), int(fields[3])
                if rank == 0:
                    t[step] = when
    steps = sorted(t)
    times = [(t[s] - t[s - 1]) / 1e6 for s in steps if s >= 1 and s - 1 in t]
    if not times:
        return {"error": f"{path}: fewer than two step records on rank 0"}
    times.sort()
    return {"median_ms": statistics.median(times), "p10_ms": times[int(0.1 * (len(times) - 1))],
            "p90_ms": times[int(0.9 * (len(times) - 1))], "steps": len(times),
            "source": "trace step records, step 0 left out"}
