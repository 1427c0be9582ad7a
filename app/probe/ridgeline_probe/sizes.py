"""Size and list arguments, spelled as ridgeline-bench spells them (K/M/G binary suffixes)."""
import argparse

_SUFFIX = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def size(text):
    """"4K" -> 4096; "1.5M" -> 1572864. argparse type: bad text is a usage error (exit 2)."""
    t = text.strip().upper().removesuffix("IB").removesuffix("B")
    mult = _SUFFIX.get(t[-1:], 1)
    if mult > 1:
        t = t[:-1]
    try:
        value = float(t) * mult
    except ValueError:
        raise argparse.ArgumentTypeError("'%s' is not a size (e.g. 8, 64K, 256M, 1G)" % text)
    if value < 1 or value != int(value):
        raise argparse.ArgumentTypeError("'%s' is not a whole positive number of bytes" % text)
    return int(value)


def int_range(text, limit=10000):
    """"512,1024" or "256:8192" (doubling) or "1024:8192:1024" (step): the --square and --seq lists."""
    out = []
    for part in text.split(","):
        bits = part.split(":")
        try:
            nums = [size(b) for b in bits]
        except argparse.ArgumentTypeError:
            raise argparse.ArgumentTypeError("'%s' is not a number, list or FROM:TO[:STEP] range" % text)
        if len(nums) == 1:
            out.append(nums[0])
        elif len(nums) in (2, 3) and nums[0] <= nums[1]:
            v = nums[0]
            while v <= nums[1] and len(out) < limit:
                out.append(v)
                v = v + nums[2] if len(nums) == 3 else v * 2
        else:
            raise argparse.ArgumentTypeError("'%s': a range is FROM:TO (doubling) or FROM:TO:STEP, FROM <= TO" % part)
    return out


def shapes(text):
    """"4096x4096x4096,8192x1024x4096" -> [(M, N, K), ...]."""
    out = []
    for part in text.split(","):
        dims = part.lower().split("x")
        try:
            m, n, k = (size(d) for d in dims)
        except (ValueError, argparse.ArgumentTypeError):
            raise argparse.ArgumentTypeError("'%s' is not MxNxK (e.g. 4096x4096x4096)" % part)
        out.append((m, n, k))
    return out


def names(choices):
    def parse(text):
        items = [t.strip().lower() for t in text.split(",") if t.strip()]
        bad = [t for t in items if t not in choices]
        if bad or not items:
            raise argparse.ArgumentTypeError("unknown %s (choose from %s)" % (", ".join(bad) or "empty list", ", ".join(choices)))
        return items

    return parse
