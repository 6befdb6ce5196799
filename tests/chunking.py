"""Feeding helpers shared by the tests: whole, byte by byte, random splits."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from termscribe import Transcript


def chunks_bytewise(data: bytes) -> list[bytes]:
    return [data[i : i + 1] for i in range(len(data))]


def chunks_random(data: bytes, seed: int, max_size: int = 17) -> list[bytes]:
    rng = random.Random(seed)
    out = []
    i = 0
    while i < len(data):
        size = rng.randint(1, max_size)
        out.append(data[i : i + size])
        i += size
    return out


def transcript_of(chunks: Iterable[bytes], **options: object) -> Transcript:
    transcript = Transcript(**options)  # type: ignore[arg-type]
    for chunk in chunks:
        transcript.feed(chunk)
    transcript.finish()
    return transcript


def assert_chunking_invariant(
    data: bytes,
    render: Callable[[Transcript], str] = Transcript.text,
    *,
    bytewise: bool = True,
    seeds: Iterable[int] = (1, 2, 3),
    **options: object,
) -> str:
    """Render whole, byte by byte and in random splits; all must agree."""
    whole = render(transcript_of([data], **options))
    if bytewise:
        assert render(transcript_of(chunks_bytewise(data), **options)) == whole, "bytewise"
    for seed in seeds:
        got = render(transcript_of(chunks_random(data, seed), **options))
        assert got == whole, f"random split, seed {seed}"
    return whole
