#!/usr/bin/env python3
"""Writes backup_independent.authcat, an authcat backup made from
docs/FORMAT.md section 4 alone, with libsodium through ctypes: proof that the
format description is enough for an independent writer (and reader).

Passphrase "correct horse battery staple"; Argon2id at libsodium's minimum
limits (opslimit 1, memlimit 8192) so the tests run fast.

Run from this folder: python3 make_backup.py (needs libsodium23).
"""
import ctypes, ctypes.util, json, struct

sodium = ctypes.CDLL(ctypes.util.find_library("sodium") or "libsodium.so.23")
assert sodium.sodium_init() >= 0

PASSPHRASE = b"correct horse battery staple"
OPSLIMIT, MEMLIMIT = 1, 8192
ARGON2ID13 = 2
CHUNK = 64 * 1024

salt = ctypes.create_string_buffer(16)
sodium.randombytes_buf(salt, ctypes.c_size_t(16))
key = ctypes.create_string_buffer(32)
assert sodium.crypto_pwhash(key, ctypes.c_ulonglong(32), PASSPHRASE, ctypes.c_ulonglong(len(PASSPHRASE)),
                            salt, ctypes.c_ulonglong(OPSLIMIT), ctypes.c_size_t(MEMLIMIT), ctypes.c_int(ARGON2ID13)) == 0

state = ctypes.create_string_buffer(sodium.crypto_secretstream_xchacha20poly1305_statebytes())
stream_header = ctypes.create_string_buffer(24)
assert sodium.crypto_secretstream_xchacha20poly1305_init_push(state, stream_header, key) == 0

header = b"AUTHCATB" + struct.pack(">HBBQQ", 1, ARGON2ID13, 0, OPSLIMIT, MEMLIMIT) + salt.raw + stream_header.raw
assert len(header) == 68

def account(id, issuer, name, type, algorithm, digits, period, counter, secret, tags, note):
    return {"id": id, "issuer": issuer, "name": name, "type": type, "algorithm": algorithm, "digits": digits,
            "period": period, "counter": counter, "secret": secret, "tags": tags, "note": note,
            "createdAt": 1700000000000, "updatedAt": 1700000001000}

archive = {
    "format": "authcat", "version": 1, "kind": "backup", "createdAt": 1700000002000,
    "vaultID": "5d8a0b62-9a35-4c33-9f55-2f0f6a2b7c11",
    "accounts": [
        account("7e2a3c1d-0b4f-4e4e-8d1a-3c5b7a9e1f01", "GitHub", "alice@example.com", "totp", "sha1", 6, 30, 0,
                "JBSWY3DPEHPK3PXP", ["Work"], "recovery codes in the safe"),
        account("7e2a3c1d-0b4f-4e4e-8d1a-3c5b7a9e1f02", "Ünïcødé Bank", "李雷 🐱", "totp", "sha256", 8, 60, 0,
                "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", ["Bank ✓", "Work"], ""),
        account("7e2a3c1d-0b4f-4e4e-8d1a-3c5b7a9e1f03", "HOTP Corp", "bob", "hotp", "sha1", 6, 30, 42,
                "MFRGGZDFMZTWQ2LK", [], ""),
        account("7e2a3c1d-0b4f-4e4e-8d1a-3c5b7a9e1f04", "Steam", "gamer", "steam", "sha1", 5, 30, 0,
                "ONSWG4TFOQ", [], ""),
    ],
    "preferences": {"display.grouping": "issuer"},
    "history": [],
}
plaintext = json.dumps(archive, ensure_ascii=False).encode("utf-8")

out = bytearray(header)
pieces = [plaintext[i:i + CHUNK] for i in range(0, len(plaintext), CHUNK)] or [b""]
for index, piece in enumerate(pieces):
    tag = (sodium.crypto_secretstream_xchacha20poly1305_tag_final() if index == len(pieces) - 1
           else sodium.crypto_secretstream_xchacha20poly1305_tag_message())
    cipher = ctypes.create_string_buffer(len(piece) + 17)
    assert sodium.crypto_secretstream_xchacha20poly1305_push(
        state, cipher, None, piece, ctypes.c_ulonglong(len(piece)), header, ctypes.c_ulonglong(len(header)),
        ctypes.c_ubyte(tag)) == 0
    out += struct.pack(">I", len(cipher.raw)) + cipher.raw

with open("backup_independent.authcat", "wb") as f:
    f.write(out)
