# The workshop's reference loop, copied unchanged from "Failure Injection for Agent Loops: A Replayable Cassette
# Workshop" (its file harness.py: the three failure classes, fault_transport and run_steps). It is the Python
# baseline that loop_bench.py times against the built-in loop; nothing here is this project's code.
# harness.py — the loop under test
import time

class QuotaExhausted(RuntimeError):
    """Provider said stop. Carries Retry-After when the header was present."""
    def __init__(self, retry_after=None):
        super().__init__("quota_exhausted")
        self.retry_after = retry_after

class TransientError(RuntimeError):
    """Timeouts and 5xx responses: retryable by default."""

class BadToolCall(RuntimeError):
    """Response arrived, but the tool-call JSON did not fit the schema."""

def fault_transport(cassette, faults):
    """cassette: dict op -> response. faults: consumed one item per call."""
    plan = list(faults)
    calls = {"n": 0}

    def transport(payload):
        calls["n"] += 1
        fault = plan.pop(0) if plan else None
        if fault is not None:
            raise fault
        return cassette[payload["op"]]

    transport.calls = calls
    return transport

def run_steps(transport, ops, policy, sleep=time.sleep):
    outcomes = []
    for op in ops:
        attempt = 0
        while True:
            attempt += 1
            try:
                outcomes.append({"op": op, "status": "ok",
                                 "value": transport({"op": op}),
                                 "attempts": attempt})
                break
            except BadToolCall:
                outcomes.append({"op": op, "status": "degraded",
                                 "reason": "schema", "attempts": attempt})
                break
            except TransientError:
                if attempt >= policy["max_attempts"]:
                    outcomes.append({"op": op, "status": "degraded",
                                     "reason": "timeout", "attempts": attempt})
                    break
                sleep(policy["base_delay"] * 2 ** (attempt - 1))
            except QuotaExhausted as exc:
                outcomes.append({"op": op, "status": "stopped",
                                 "reason": "quota", "retry_after": exc.retry_after})
                return outcomes
    return outcomes
