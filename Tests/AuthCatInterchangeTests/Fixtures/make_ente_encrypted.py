#!/usr/bin/env python3
"""Writes ente_encrypted.json: otpauth.txt (Ente Auth's plain export, with its
codeDisplay metadata) encrypted as Ente Auth writes an encrypted export, with
the password "test-password".

libsodium's crypto_pwhash (Argon2id 1.3) of the password and a random 16-byte
salt with memLimit bytes and opsLimit passes gives a 32-byte key; the text is
pushed as one crypto_secretstream_xchacha20poly1305 chunk tagged FINAL, and
the stream's 24-byte header is "encryptionNonce". Base64 everywhere.

Ente derives with 1 GiB × 4 passes, halving the memory and doubling the
passes on phones that cannot; this file uses libsodium's interactive limits
(64 MiB, 2 passes) so that the tests stay fast.

Run from this folder: python3 make_ente_encrypted.py (needs the `pynacl`
package). The output is random each time; the tests only need it to decrypt
to otpauth.txt's entries.
"""
import base64, json, os
import nacl.bindings as sodium

PASSWORD = b"test-password"
MEM_LIMIT = 64 * 1024 * 1024
OPS_LIMIT = 2

with open("otpauth.txt", "rb") as f:
    plain = f.read()

salt = os.urandom(16)
key = sodium.crypto_pwhash_alg(32, PASSWORD, salt, OPS_LIMIT, MEM_LIMIT, sodium.crypto_pwhash_ALG_ARGON2ID13)
state = sodium.crypto_secretstream_xchacha20poly1305_state()
header = sodium.crypto_secretstream_xchacha20poly1305_init_push(state, key)
sealed = sodium.crypto_secretstream_xchacha20poly1305_push(
    state, plain, None, sodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL)

b64 = lambda data: base64.b64encode(data).decode()
document = {
    "version": 1,
    "kdfParams": {"memLimit": MEM_LIMIT, "opsLimit": OPS_LIMIT, "salt": b64(salt)},
    "encryptedData": b64(sealed),
    "encryptionNonce": b64(header),
}
with open("ente_encrypted.json", "w", encoding="utf-8") as f:
    json.dump(document, f, indent=2)
    f.write("\n")
