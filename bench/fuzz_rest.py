"""Mutated requests for `./gantry fuzz`: every operation of every service's OpenAPI document (/q/openapi), with
mutated path and query parameters and bodies generated from the operation's schema and then broken one class at a
time. Outcomes: 2xx, 4xx, 5xx, or no answer (the connection failed or timed out)."""
import json
import urllib.error
import urllib.parse
import urllib.request

import fuzz_events

ODD_STRINGS = ["", "a" * 5000, "../../etc/passwd", "%00", "\u202e\u0000", "\ud83d\ude00" * 20, "-1", "NaN",
               "1e309", "' or 1=1 --", "${jndi:ldap://x}", "fuzz-user", "fuzz-0", " ", "null", "{}"]
# Longer than any answer of a healthy service on a loaded 2-core machine: priority-accounting (nice 10) took over 15 s
# for a GET while catching up a backlog. An answer later than this counts as none.
REQUEST_TIMEOUT_S = 30
CLASSES = ["schema-valid", "type-confusion", "missing-fields", "huge-number", "nan", "negative-size", "deep-nesting",
           "5mb-body", "unicode", "invalid-json", "wrong-content-type"]


def operations(services, token, unreadable):
    """Every operation of every service's OpenAPI document; the services whose document cannot be read go to
    unreadable (a campaign that silently skipped one would report fewer operations than it claims)."""
    ops = []
    for name, port in sorted(services.items()):
        base = "http://localhost:%s" % port
        try:
            # The whole document: the first 4 KiB (what an answer's outcome needs) cut it mid-JSON.
            doc = json.loads(_call("GET", base + "/q/openapi?format=json", None, None, token, 30, None)[1])
        except (OSError, ValueError) as e:
            unreadable[name] = repr(e)[:200]
            continue
        schemas = doc.get("components", {}).get("schemas", {})
        for path, item in doc.get("paths", {}).items():
            for method, op in item.items():
                if method.upper() not in ("GET", "POST", "PUT", "DELETE", "PATCH"):
                    continue
                params = op.get("parameters", []) + item.get("parameters", [])
                body = op.get("requestBody", {}).get("content", {})
                schema = next(iter(body.values()), {}).get("schema") if body else None
                ops.append({"service": name, "base": base, "path": path, "method": method.upper(),
                            "params": params, "schema": schema, "schemas": schemas,
                            "content_type": next(iter(body), "application/json") if body else None})
    return ops


def sample(schema, schemas, rng, depth=0):
    if not schema or depth > 6:
        return None
    if "$ref" in schema:
        return sample(schemas.get(schema["$ref"].split("/")[-1]), schemas, rng, depth + 1)
    for k in ("allOf", "oneOf", "anyOf"):
        if k in schema and schema[k]:
            return sample(schema[k][0], schemas, rng, depth + 1)
    if "enum" in schema and schema["enum"]:
        return rng.choice(schema["enum"])
    t = schema.get("type")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), None)
    if t == "object" or "properties" in schema:
        return {k: sample(v, schemas, rng, depth + 1) for k, v in schema.get("properties", {}).items()}
    if t == "array":
        return [sample(schema.get("items"), schemas, rng, depth + 1)]
    if t == "integer":
        return rng.randint(0, 10)
    if t == "number":
        return rng.random() * 10
    if t == "boolean":
        return rng.random() < 0.5
    if schema.get("format") == "date-time":
        return "2026-01-01T00:00:00Z"
    return "fuzz-%d" % rng.randint(0, 99)


def body_for(cls, op, rng, n):
    value = sample(op["schema"], op["schemas"], rng)
    if cls in ("schema-valid", "wrong-content-type"):
        return json.dumps(value).encode()
    if cls == "invalid-json":
        return rng.choice([b"{", b"[1,", b"\x00\xff", b'{"a":}', b"nul"])
    if cls == "5mb-body":
        return json.dumps({"x": "x" * fuzz_events.HUGE_VALUE_BYTES}).encode()
    if cls == "missing-fields":
        if isinstance(value, dict) and value:
            for k in rng.sample(list(value), rng.randint(1, len(value))):
                del value[k]
        return json.dumps(value).encode()
    if not isinstance(value, dict) or not value:
        value = {"value": value, "type": "JobSubmitted"}
    # The event mutators work on any dict; job ids and users become fuzz ones.
    return fuzz_events.mutate(rng, cls, value, n)


def url_for(op, rng, cls):
    path = op["path"]
    query = {}
    for p in op["params"]:
        v = rng.choice(ODD_STRINGS) if cls != "schema-valid" else "fuzz-%d" % rng.randint(0, 99)
        if p.get("in") == "path":
            path = path.replace("{%s}" % p["name"], urllib.parse.quote(v.encode("utf-8", "surrogatepass"), safe=""))
        elif p.get("in") == "query" and rng.random() < 0.7:
            query[p["name"]] = v.encode("utf-8", "surrogatepass")
    return op["base"] + path + ("?" + urllib.parse.urlencode(query) if query else "")


def _call(method, url, body, content_type, token, timeout, limit=4096):
    req = urllib.request.Request(url, data=body, method=method)
    if content_type:
        req.add_header("Content-Type", content_type)
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read(limit).decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, e.read(limit).decode("utf-8", "replace")


def run(rng, services, n, token, unreadable):
    ops = operations(services, token, unreadable)
    results = []
    huge = 0
    for i in range(n if ops else 0):
        op = rng.choice(ops)
        cls = rng.choice(CLASSES)
        if cls == "5mb-body":
            if huge >= 20:
                cls = "invalid-json"
            huge += 1
        body = body_for(cls, op, rng, i) if op["method"] in ("POST", "PUT", "PATCH") else None
        ctype = "text/plain" if cls == "wrong-content-type" else (op["content_type"] if body is not None else None)
        r = {"class": cls, "service": op["service"], "method": op["method"], "path": op["path"]}
        try:
            status, text = _call(op["method"], url_for(op, rng, cls), body, ctype, token, REQUEST_TIMEOUT_S)
            r["status"] = status
            r["outcome"] = "2xx" if status < 300 else "4xx" if status < 500 else "5xx"
            if status >= 500:
                r["detail"] = text[:300]
        except (BrokenPipeError, ConnectionResetError) as e:
            # Over the server's body limit, Quarkus answers 413 and closes before the upload ends.
            r["outcome"] = "refused (size)" if body is not None and len(body) > 1024 * 1024 else "no answer"
            r["detail"] = repr(e)[:300]
        except urllib.error.URLError as e:
            big = body is not None and len(body) > 1024 * 1024
            closed = isinstance(e.reason, (BrokenPipeError, ConnectionResetError))
            r["outcome"] = "refused (size)" if big and closed else "no answer"
            r["detail"] = repr(e)[:300]
        except (OSError, ValueError) as e:
            r["outcome"] = "no answer"
            r["detail"] = repr(e)[:300]
        results.append(r)
    return results
