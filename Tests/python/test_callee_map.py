"""Tests/bench/callee_map.py, the aggregator behind `make bench-map`, on `perf script` text written by hand in the
format `perf script -F comm,tid,ip,sym,dso | swift demangle --simplified` prints (leaf first, inlined frames
marked `(inlined)`)."""

import importlib.util
import pathlib

BENCH = pathlib.Path(__file__).resolve().parents[1] / "bench"
spec = importlib.util.spec_from_file_location("callee_map", BENCH / "callee_map.py")
callee_map = importlib.util.module_from_spec(spec)
spec.loader.exec_module(callee_map)

MAIN = "/work/.build/release/pushcheck"


def sample(*frames):
    """A sample block: frames as (name, object file or None for inlined), leaf first."""
    lines = ["r-initiated-qos  4242 "]
    for i, (name, dso) in enumerate(frames):
        lines.append(f"\t          {0x1000 + i:x} {name} ({dso or 'inlined'})")
    return "\n".join(lines) + "\n\n"


HANDLE = ("APNsHTTPHandler.handle(_:context:responder:)", MAIN)
EVALUATE = ("APNsGateway.evaluate(_:)", MAIN)
LOOP = ("LoopState.run()", MAIN)
BASE = ("clone3", "/usr/lib/x86_64-linux-gnu/libc.so.6")

TEXT = (
    # 1: evaluate → decide, decide inlined into a copy of itself; leaf in libswiftCore.
    sample(
        ("swift_retain", "/opt/swift/usr/lib/swift/linux/libswiftCore.so"),
        ("APNsGateway.decide(_:)", None),
        ("APNsGateway.decide(_:)", MAIN),
        EVALUATE,
        HANDLE,
        LOOP,
        BASE,
    )
    # 2: evaluate's own code.
    + sample(EVALUATE, HANDLE, LOOP, BASE)
    # 3: the handler → building the request, leaf in pushcheck.
    + sample(("APNsPushRequest.init(_:connection:environment:)", MAIN), HANDLE, LOOP, BASE)
    # 4: nghttp2, outside the handler; perf did not unwind this stack to the thread's start.
    + sample(
        ("[unknown]", "/usr/lib/x86_64-linux-gnu/libnghttp2.so.14.24.1"),
        ("nghttp2_session_mem_recv", "/usr/lib/x86_64-linux-gnu/libnghttp2.so.14.24.1"),
        LOOP,
    )
)


def test_inlined_frames_take_the_object_file_of_the_frame_they_were_inlined_into():
    samples = callee_map.parse(TEXT.splitlines(keepends=True))
    assert len(samples) == 4
    assert samples[0][1] == ("APNsGateway.decide(_:)", MAIN)


def test_libraries_are_counted_by_the_leaf_frame():
    samples = callee_map.parse(TEXT.splitlines(keepends=True))
    assert dict(callee_map.by_library(samples)) == {"libswiftCore": 1, "pushcheck": 2, "libnghttp2": 1}


def test_stacks_that_stop_short_of_a_thread_start_are_counted():
    samples = callee_map.parse(TEXT.splitlines(keepends=True))
    assert callee_map.cut_short(samples) == 1


def test_a_root_splits_over_its_direct_callees_and_its_own_code():
    samples = callee_map.parse(TEXT.splitlines(keepends=True))
    name, under, split = callee_map.callees(samples, "APNsHTTPHandler.handle(")
    assert (name, under) == (HANDLE[0], 3)
    assert split == {"APNsGateway.evaluate(_:)": 2, "APNsPushRequest.init(_:connection:environment:)": 1}
    name, under, split = callee_map.callees(samples, "APNsGateway.evaluate(_:)")
    assert under == 2
    # decide inlined into itself counts once, as decide; samples in evaluate itself are "(self)"
    assert split == {"APNsGateway.decide(_:)": 1, "(self)": 1}
    # and splitting decide looks past its inlined copy of itself to what it called
    assert callee_map.callees(samples, "APNsGateway.decide(")[1:] == (1, {"swift_retain": 1})
    assert callee_map.callees(samples, "NoSuchFunction(") == ("NoSuchFunction(", 0, {})


def test_a_call_is_charged_to_the_first_frame_past_the_allocator_and_specialized_library_code():
    jemalloc = "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"
    text = (
        sample(
            ("malloc", jemalloc),
            ("swift_slowAlloc", "/opt/swift/usr/lib/swift/linux/libswiftCore.so"),
            ("specialized _ContiguousArrayBuffer._consumeAndCreateNew(bufferIsUnique:)", MAIN),
            ("specialized Array.reserveCapacity(_:)", MAIN),
            ("static PackedBytes.pack(size:_:)", MAIN),
            ("PackedLogEntry.init(sequence:)", MAIN),
            EVALUATE,
        )
        + sample(("malloc", jemalloc), ("[unknown]", "/usr/lib/x86_64-linux-gnu/libnghttp2.so.14"), LOOP)
        + sample(("malloc", jemalloc), ("CRYPTO_zalloc", "/usr/lib/libcrypto.so.3"), ("TLSSession.handshake()", MAIN))
    )
    samples = callee_map.parse(text.splitlines(keepends=True))
    split, left_out = callee_map.callers(samples, "pushcheck", depth=2, exclude="TLSSession.handshake(")
    assert left_out == 1
    assert split == {"static PackedBytes.pack(size:_:) < PackedLogEntry.init(sequence:)": 1, "libnghttp2": 1}


def run(tmp_path, capsys, text, *args):
    """callee_map's command line on `text` as its input file: (exit status, what it printed)."""
    path = tmp_path / "perf-script.txt"
    path.write_text(text)
    status = callee_map.main([args[0], str(path), *args[1:]])
    return status, capsys.readouterr().out


def test_calls_mode_scales_the_recorded_shares_to_the_exact_count(tmp_path, capsys):
    jemalloc = "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"
    text = sample(("malloc", jemalloc), ("UUIDText.lowercase(high:low:)", MAIN), EVALUATE) * 3 + sample(
        ("malloc", jemalloc), ("[unknown]", "/usr/lib/libnghttp2.so.14"), LOOP
    )
    # 4 recorded calls stand for 40 made over 10 requests: 3 of 4 by the UUID text, 1 of 4 by nghttp2.
    status, out = run(tmp_path, capsys, text, "calls", "--requests", "10", "--calls", "40")
    assert status == 0
    assert "4.00 calls per request (4 of 40 calls recorded, 10 requests)" in out
    assert "   3.00  UUIDText.lowercase(high:low:) < APNsGateway.evaluate(_:)" in out
    assert "   1.00  libnghttp2" in out


def test_time_mode_prints_shares_and_microseconds(tmp_path, capsys):
    status, out = run(tmp_path, capsys, TEXT, "time", "--per-unit-us", "8.0", "--root", "APNsHTTPHandler.handle(")
    assert status == 0
    assert " 50.0 %   4.00 µs  pushcheck" in out
    assert "(25.0 % of the stacks stop short of their thread's start: the shares" in out
    assert f"{HANDLE[0]}:  75.0 %   6.00 µs inclusive, by direct callee:" in out
    assert " 50.0 %   4.00 µs  APNsGateway.evaluate(_:)" in out


def test_no_samples_is_an_error(tmp_path, capsys):
    assert run(tmp_path, capsys, "", "time") == (1, "no samples\n")
