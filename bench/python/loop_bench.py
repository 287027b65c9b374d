"""Times the workshop's reference loop (workshop_harness.run_steps) on the benchmark corpus's scenarios.

Input: the JSON that dev.resilienceharness.bench.WorkshopScenarios writes (each op's recorded response in memory, each
scenario's ops and fault plan in the workshop's failure classes). A scenario-run is what LoopBenchmark.run counts:
a fresh fault transport over the in-memory cassette, and run_steps with an injected sleep that does not wait, as the
workshop's own tests run it.

    python3 bench/python/loop_bench.py bench/target/workshop-scenarios.json [--seconds 5] [--iterations 3]
"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from workshop_harness import BadToolCall, QuotaExhausted, TransientError, fault_transport, run_steps  # noqa: E402


def fault_plan(entries):
    plan = []
    for entry in entries:
        if entry is None:
            plan.append(None)
        elif entry == "transient":
            plan.append(TransientError)
        elif entry == "bad_tool_call":
            plan.append(BadToolCall)
        else:
            plan.append(QuotaExhausted(retry_after=entry["quota"]))
    return plan


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenarios")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of one timed iteration")
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--json", help="write the result here")
    args = parser.parse_args()
    with open(args.scenarios, encoding="utf-8") as f:
        data = json.load(f)
    cassette = data["cassette"]
    policy = data["policy"]
    scenarios = [(s["ops"], fault_plan(s["faults"])) for s in data["scenarios"]]
    no_sleep = lambda _: None  # noqa: E731

    def one_pass():
        for ops, faults in scenarios:
            run_steps(fault_transport(cassette, faults), ops, policy, sleep=no_sleep)

    one_pass()  # warm-up
    rates = []
    for _ in range(args.iterations):
        runs = 0
        cpu0, wall0 = time.process_time(), time.perf_counter()
        while time.perf_counter() - wall0 < args.seconds:
            one_pass()
            runs += len(scenarios)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        rates.append((runs / wall, runs / cpu))
    best_wall = max(r[0] for r in rates)
    best_cpu = max(r[1] for r in rates)
    print(f"workshop run_steps (Python {sys.version.split()[0]}): {len(scenarios)} scenarios, "
          f"{best_wall:,.0f} scenario-runs/s (wall), {best_cpu:,.0f} per CPU second; iterations "
          + ", ".join(f"{r[0]:,.0f}" for r in rates))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"scenarios": len(scenarios), "runs_per_s": best_wall, "runs_per_cpu_s": best_cpu,
                       "iterations": [r[0] for r in rates]}, f)


if __name__ == "__main__":
    main()
