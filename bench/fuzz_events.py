"""Mutated events for `./gantry fuzz`: one class of mutation a function, each turning a valid event (a dict) into
the bytes of a Kafka record value. Fuzzed events carry job ids and users that start with "fuzz", so that none of them
can touch a valid job the campaign replays alongside."""
import copy
import json
import random
import uuid

HUGE_VALUE_BYTES = 5 * 1024 * 1024


def _fresh(event, n):
    # A deep copy: the mutators change nested values in place (negative sizes), which on a shallow copy changed the seed
    # itself, and every later mutation of that topic (duplicate ids too) started from an invalid event.
    e = copy.deepcopy(event)
    if "eventId" in e:
        e["eventId"] = str(uuid.uuid4())
    for k in ("jobId",):
        if k in e:
            e[k] = "fuzz-%d" % n
    if "user" in e:
        e["user"] = "fuzz-user-%d" % (n % 50)
    return e


def _dump(e):
    return json.dumps(e, ensure_ascii=False, allow_nan=True).encode("utf-8")


def _field(rng, e):
    keys = [k for k in e if k != "type"]
    return rng.choice(keys) if keys else "type"


def byte_flip(rng, e, n):
    b = bytearray(_dump(_fresh(e, n)))
    for _ in range(rng.randint(1, 8)):
        b[rng.randrange(len(b))] = rng.randrange(256)
    return bytes(b)


def type_confusion(rng, e, n):
    e = _fresh(e, n)
    e[_field(rng, e)] = rng.choice([[], {}, "x", 1, True, None, [1, "a"], {"a": {}}])
    return _dump(e)


def huge_number(rng, e, n):
    e = _fresh(e, n)
    nums = [k for k, v in e.items() if isinstance(v, (int, float)) and not isinstance(v, bool)] or [_field(rng, e)]
    raw = _dump(e).decode()
    k = rng.choice(nums)
    e[k] = "@@HUGE@@"
    big = rng.choice(["1e309", "-1e309", "9" * 400, "18446744073709551616", "2147483648", "-9223372036854775809"])
    return _dump(e).decode().replace('"@@HUGE@@"', big).encode() if raw else b""


def nan(rng, e, n):
    e = _fresh(e, n)
    nums = [k for k, v in e.items() if isinstance(v, (int, float)) and not isinstance(v, bool)] or [_field(rng, e)]
    e[rng.choice(nums)] = "@@NAN@@"
    return _dump(e).decode().replace('"@@NAN@@"', rng.choice(["NaN", "Infinity", "-Infinity"])).encode()


def negative_size(rng, e, n):
    e = _fresh(e, n)
    nums = [k for k, v in e.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if not nums:
        nums = [_field(rng, e)]
    for k in rng.sample(nums, min(len(nums), rng.randint(1, 3))):
        e[k] = rng.choice([-1, -0.5, -2147483648, 0])
    _negate_nested(rng, e)
    return _dump(e)


def _negate_nested(rng, v):
    if isinstance(v, dict):
        for k, x in v.items():
            if isinstance(x, (int, float)) and not isinstance(x, bool) and rng.random() < 0.5:
                v[k] = -abs(x) - 1
            else:
                _negate_nested(rng, x)
    elif isinstance(v, list):
        for x in v:
            _negate_nested(rng, x)


def deep_nesting(rng, e, n):
    e = _fresh(e, n)
    depth = rng.choice([100, 1000, 5000, 20000])
    k = _field(rng, e)
    e[k] = "@@DEEP@@"
    opener, closer = rng.choice([("[", "]"), ('{"a":', "}")])
    return _dump(e).decode().replace('"@@DEEP@@"', opener * depth + "1" + closer * depth).encode()


def huge_value(rng, e, n):
    e = _fresh(e, n)
    e[_field(rng, e)] = "x" * HUGE_VALUE_BYTES
    return _dump(e)


def unicode(rng, e, n):
    e = _fresh(e, n)
    strings = [k for k, v in e.items() if isinstance(v, str) and k != "type"] or [_field(rng, e)]
    odd = ["\u202e\u0000evil", "\ud83d\ude00" * 50, "\u0301" * 300, "a\u2028b", "ｆｕｚｚ", "\x1b[31mred", "\ufeff",
           "${jndi:ldap://x}", "'; drop table jobs; --", "../../etc/passwd", "\ud800"]
    e[rng.choice(strings)] = rng.choice(odd)
    return json.dumps(e, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")


def duplicate_id(rng, e, n):
    # The same event twice (same eventId and job): consumers are idempotent on eventId. Returned twice by the caller.
    e = _fresh(e, n - n % 2)
    e["eventId"] = "00000000-0000-4000-8000-%012d" % (n - n % 2)
    return _dump(e)


def structural(rng, e, n):
    return rng.choice([b"", b"null", b"[]", b"{}", b"{", b'"str"', b"42", b'{"type":"NoSuchEvent"}',
                       _dump(_fresh(e, n))[: rng.randint(1, 40)], b'{"type":null}'])


CLASSES = {
    "byte-flip": byte_flip, "type-confusion": type_confusion, "huge-number": huge_number, "nan": nan,
    "negative-size": negative_size, "deep-nesting": deep_nesting, "5mb-value": huge_value, "unicode": unicode,
    "duplicate-id": duplicate_id, "structural": structural,
}


def mutate(rng: random.Random, cls: str, event: dict, n: int) -> bytes:
    return CLASSES[cls](rng, event, n)
