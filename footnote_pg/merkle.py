"""The Merkle tree over the ledger, implemented from RFC 9162 §2.1 and docs/hash-spec.md §7 alone.

Like :mod:`footnote_pg.canonical`, this never calls the database's hash code:
leaves come from record hashes, nodes from hashlib, and the verifiers follow
the RFC's algorithms step by step (§2.1.3.2 inclusion, §2.1.4.2 consistency),
so a database that lies about its tree cannot make them agree.

Hashes are ``bytes`` (32 of them); paths in receipts and digests are lower-case
hex strings, which :func:`parse_path` turns into bytes.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass

EMPTY_ROOT = hashlib.sha256(b"").digest()
_HEX64 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Checked:
    """The outcome of a proof check: ``ok``, else the reason it fails."""

    ok: bool
    reason: str | None = None

    def __bool__(self) -> bool:
        return self.ok


OK = Checked(True)


def _fail(reason: str) -> Checked:
    return Checked(False, reason)


def leaf_hash(record_hash: str | bytes) -> bytes:
    """SHA-256(0x00 || the 32 bytes of a record's hash); the hash as 64 lower-case hex digits or raw bytes."""
    raw = bytes.fromhex(record_hash) if isinstance(record_hash, str) else record_hash
    if len(raw) != 32:
        raise ValueError("a record hash has 32 bytes")
    return hashlib.sha256(b"\x00" + raw).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """SHA-256(0x01 || left || right)."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than n (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


def root(leaves: Sequence[bytes]) -> bytes:
    """MTH over leaf hashes (RFC 9162 §2.1.1); the empty tree is SHA-256 of nothing."""
    if not leaves:
        return EMPTY_ROOT
    if len(leaves) == 1:
        return leaves[0]
    k = _split(len(leaves))
    return node_hash(root(leaves[:k]), root(leaves[k:]))


def inclusion_path(leaves: Sequence[bytes], index: int) -> list[bytes]:
    """PATH(m, D[n]) (RFC 9162 §2.1.3.1), leaf side first: the reference the database's proofs are tested against."""
    if len(leaves) <= 1:
        return []
    k = _split(len(leaves))
    if index < k:
        return inclusion_path(leaves[:k], index) + [root(leaves[k:])]
    return inclusion_path(leaves[k:], index - k) + [root(leaves[:k])]


def consistency_path(leaves: Sequence[bytes], old_size: int) -> list[bytes]:
    """PROOF(m, D[n]) (RFC 9162 §2.1.4.1): the reference for the database's consistency proofs."""

    def subproof(m: int, part: Sequence[bytes], whole: bool) -> list[bytes]:
        if m == len(part):
            return [] if whole else [root(part)]
        k = _split(len(part))
        if m <= k:
            return subproof(m, part[:k], whole) + [root(part[k:])]
        return subproof(m - k, part[k:], False) + [root(part[:k])]

    return subproof(old_size, leaves, True)


def parse_path(path: object) -> list[bytes] | None:
    """A JSON path (a list of 64 lower-case hex digits each) as bytes; None when it is not one."""
    if not isinstance(path, list) or not all(isinstance(p, str) and _HEX64.fullmatch(p) for p in path):
        return None
    return [bytes.fromhex(p) for p in path]


def _is_hash(value: object) -> bool:
    return isinstance(value, bytes) and len(value) == 32


def _is_size(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def verify_inclusion(leaf: bytes, index: int, size: int, path: Sequence[bytes], root_hash: bytes) -> Checked:
    """Does ``path`` lead from leaf ``index`` of a tree of ``size`` leaves to ``root_hash``? (RFC 9162 §2.1.3.2)"""
    if not (_is_hash(leaf) and _is_hash(root_hash) and all(_is_hash(p) for p in path)):
        return _fail("the leaf, the root and every path entry must be 32-byte hashes")
    if not (_is_size(index) and _is_size(size)):
        return _fail("the leaf index and the tree size must be integers of at least 0")
    if index >= size:  # step 1
        return _fail(f"leaf index {index} is not inside a tree of {size} leaves")
    fn, sn = index, size - 1  # step 2
    r = leaf  # step 3
    for p in path:  # step 4
        if sn == 0:  # 4a
            return _fail(f"the inclusion path has {len(path)} hashes, more than a tree of {size} leaves needs")
        if fn & 1 or fn == sn:  # 4b
            r = node_hash(p, r)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1  # 4c
        sn >>= 1
    if sn != 0:  # step 5
        return _fail(f"the inclusion path has {len(path)} hashes, fewer than a tree of {size} leaves needs")
    if r != root_hash:
        return _fail("the inclusion path does not lead to the root")
    return OK


def verify_consistency(old_size: int, new_size: int, old_root: bytes, new_root: bytes,
                       path: Sequence[bytes]) -> Checked:
    """Does ``path`` prove that the tree of ``new_size`` leaves extends the one of ``old_size``? (RFC 9162 §2.1.4.2)

    Equal sizes are consistent when the roots are equal and the path is empty
    (the RFC defines the algorithm for 0 < old_size < new_size).
    """
    if not (_is_hash(old_root) and _is_hash(new_root) and all(_is_hash(p) for p in path)):
        return _fail("the roots and every path entry must be 32-byte hashes")
    if not (_is_size(old_size) and _is_size(new_size)):
        return _fail("the tree sizes must be integers of at least 0")
    if old_size < 1:
        return _fail("a tree of no records proves nothing: the old size must be at least 1")
    if old_size > new_size:
        return _fail(f"the old tree ({old_size} leaves) is larger than the new one ({new_size})")
    if old_size == new_size:
        if path:
            return _fail("trees of the same size need an empty consistency path")
        if old_root != new_root:
            return _fail(f"two trees of {old_size} leaves with different roots")
        return OK
    if not path:  # step 1
        return _fail("the consistency path is empty")
    hashes = list(path)
    if old_size & (old_size - 1) == 0:  # step 2: old_size is a power of two
        hashes.insert(0, old_root)
    fn, sn = old_size - 1, new_size - 1  # step 3
    while fn & 1:  # step 4
        fn >>= 1
        sn >>= 1
    fr = sr = hashes[0]  # step 5
    for c in hashes[1:]:  # step 6
        if sn == 0:  # 6a
            return _fail(f"the consistency path has {len(path)} hashes, more than these sizes need")
        if fn & 1 or fn == sn:  # 6b
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1  # 6c
        sn >>= 1
    if sn != 0:  # step 7
        return _fail(f"the consistency path has {len(path)} hashes, fewer than these sizes need")
    if fr != old_root:
        return _fail("the consistency path does not lead to the old root")
    if sr != new_root:
        return _fail("the consistency path does not lead to the new root")
    return OK
