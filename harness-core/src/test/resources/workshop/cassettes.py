# The workshop's cassettes.py (record once, replay forever), as published, plus a main that replays one
# cassette file: it prints the fingerprint of the file's request and the reply CassetteStore.call returns.
import hashlib, json, pathlib, sys

class CassetteMiss(Exception):
    pass

def fingerprint(payload: dict) -> str:
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]

class CassetteStore:
    def __init__(self, root="cassettes", mode="replay"):
        assert mode in {"record", "replay"}
        self.root = pathlib.Path(root)
        self.root.mkdir(exist_ok=True)
        self.mode = mode

    def call(self, transport, payload: dict) -> dict:
        path = self.root / f"{fingerprint(payload)}.json"
        if self.mode == "replay":
            if not path.exists():
                raise CassetteMiss(f"no cassette for {payload.get('op')}")
            return json.loads(path.read_text())["response"]
        response = transport(payload)
        path.write_text(json.dumps({"request": payload, "response": response}, indent=2))
        return response

if __name__ == "__main__":
    file = pathlib.Path(sys.argv[1])
    request = json.loads(file.read_text())["request"]
    store = CassetteStore(root=str(file.parent), mode="replay")
    reply = store.call(None, request)
    print(fingerprint(request))
    print(reply["choices"][0]["message"]["content"])
