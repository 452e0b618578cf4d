"""APNs answers as a third-party HTTP/2 stack reads them: the PyPI `h2` library (its HPACK decoder, `hpack`) and
`hyperframe` for the raw frames, over TLS to `pushcheck serve`'s sandbox listener, three pushes on one connection.

The answers' fresh ids (`apns-id`, `apns-unique-id`) are longer than the values serve adds to the HPACK table: the
first answer indexes them, which puts their names in the table, and later answers send new values as never-indexed
literals that name them by index (Sources/HTTPServer/LongFieldIndexing.swift). The fields decode the same; the later
header blocks are shorter by the two names.
"""
import json
import socket
import ssl
import time
from urllib.parse import urlparse

import h2.config
import h2.connection
import h2.events
import jwt
from hpack.huffman import HuffmanEncoder
from hpack.huffman_constants import REQUEST_CODES, REQUEST_CODES_LENGTH
from hyperframe.frame import Frame, HeadersFrame

from conftest import KEY_ID, TEAM_ID


def read_frames(buffer: bytearray) -> list:
    """Whole frames at the front of `buffer`, removed from it."""
    frames = []
    while len(buffer) >= 9:
        length = int.from_bytes(buffer[:3], "big")
        if len(buffer) < 9 + length:
            break
        frame, _ = Frame.parse_frame_header(memoryview(buffer[:9]))
        frame.parse_body(memoryview(buffer[9:9 + length]))
        frames.append(frame)
        del buffer[:9 + length]
    return frames


def fields_size(block: bytes) -> int:
    """The size of a header block's field representations, less the dynamic table size updates at its start (RFC
    7541 §6.3: nghttp2 sends one in its first block after a client's SETTINGS_HEADER_TABLE_SIZE, as h2's)."""
    at = 0
    while at < len(block) and block[at] & 0xE0 == 0x20:
        at += 1
        if block[at - 1] & 0x1F == 0x1F:  # the size goes on in 7-bit groups
            while block[at] & 0x80:
                at += 1
            at += 1
    return len(block) - at


def test_answers_decode_and_later_ones_name_the_ids_by_index(serve, p8_key):
    url = urlparse(serve.sandbox)
    context = ssl.create_default_context(cafile=serve.ca)
    context.set_alpn_protocols(["h2"])
    raw = socket.create_connection((url.hostname, url.port), timeout=10)
    sock = context.wrap_socket(raw, server_hostname=url.hostname)
    assert sock.selected_alpn_protocol() == "h2"
    conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())

    bearer = jwt.encode({"iss": TEAM_ID, "iat": int(time.time())}, p8_key.read_text(), algorithm="ES256",
                        headers={"kid": KEY_ID})
    body = json.dumps({"aps": {"alert": "hello"}}).encode()
    answers, blocks, buffer = [], [], bytearray()
    for _ in range(3):
        stream = conn.get_next_available_stream_id()
        conn.send_headers(stream, [
            (":method", "POST"), (":scheme", "https"), (":authority", url.netloc),
            (":path", f"/3/device/{serve.token()}"), ("authorization", f"bearer {bearer}"),
            ("apns-topic", "com.example.pushdemo"), ("apns-push-type", "alert"),
        ])
        conn.send_data(stream, body, end_stream=True)
        sock.sendall(conn.data_to_send())
        answer = None
        while answer is None:
            data = sock.recv(65536)
            assert data, "serve closed the connection"
            buffer.extend(data)
            blocks += [fields_size(f.data) for f in read_frames(buffer) if isinstance(f, HeadersFrame)]
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.ResponseReceived) and event.stream_id == stream:
                    answer = dict(event.headers)
            sock.sendall(conn.data_to_send())
        answers.append(answer)
    sock.close()

    for answer in answers:
        assert answer[":status"] == "200"
        assert len(answer["apns-id"]) == 36 and len(answer["apns-unique-id"]) == 36
    assert len({a["apns-id"] for a in answers} | {a["apns-unique-id"] for a in answers}) == 6
    assert len(blocks) == 3
    # Each block less its two ids (Huffman-coded, as nghttp2 sends them: their lengths vary with the digits) is the
    # same for the later answers, and shorter than the first by the two names Huffman-coded: a name by index takes
    # two bytes where a new name took a byte for the representation and one for the name's length.
    huffman = HuffmanEncoder(REQUEST_CODES, REQUEST_CODES_LENGTH).encode
    rest = [size - len(huffman(a["apns-id"].encode())) - len(huffman(a["apns-unique-id"].encode()))
            for size, a in zip(blocks, answers)]
    names = len(huffman(b"apns-id")) + len(huffman(b"apns-unique-id"))
    assert rest[1] == rest[2] == rest[0] - names, (blocks, rest, names)
