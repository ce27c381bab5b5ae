#!/usr/bin/env python3
"""Writes aegis_encrypted.json: aegis_plain.json's database encrypted the way
Aegis documents it (docs/vault.md in beemdevelopment/Aegis), with the
password "test-password".

scrypt(password, salt, N=32768, r=8, p=1) -> 32-byte slot key;
AES-256-GCM(slot key, nonce) wraps a random 32-byte master key (key_params);
AES-256-GCM(master key, nonce) encrypts the UTF-8 JSON of "db" (header.params);
the ciphertext is base64, nonces, tags, salts and keys are hex.

Run from this folder: python3 make_aegis_encrypted.py (needs the
`cryptography` package). The output is random each time; the tests only
need it to decrypt to the plain fixture's entries.
"""
import base64, hashlib, json, os, uuid
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

PASSWORD = b"test-password"

with open("aegis_plain.json", encoding="utf-8") as f:
    database = json.load(f)["db"]

master_key = os.urandom(32)
salt = os.urandom(32)
slot_key = hashlib.scrypt(PASSWORD, salt=salt, n=32768, r=8, p=1, dklen=32, maxmem=64 * 1024 * 1024)

def seal(key, plaintext):
    nonce = os.urandom(12)
    sealed = AESGCM(key).encrypt(nonce, plaintext, None)
    return sealed[:-16], {"nonce": nonce.hex(), "tag": sealed[-16:].hex()}

wrapped_key, key_params = seal(slot_key, master_key)
ciphertext, params = seal(master_key, json.dumps(database, ensure_ascii=False).encode("utf-8"))

vault = {
    "version": 1,
    "header": {
        "slots": [
            # A biometric slot first, which authcat must pass over.
            {"type": 2, "uuid": str(uuid.uuid4()), "key": os.urandom(32).hex(),
             "key_params": {"nonce": os.urandom(12).hex(), "tag": os.urandom(16).hex()}},
            {"type": 1, "uuid": str(uuid.uuid4()), "key": wrapped_key.hex(), "key_params": key_params,
             "n": 32768, "r": 8, "p": 1, "salt": salt.hex(), "repaired": True, "is_backup": False},
        ],
        "params": params,
    },
    "db": base64.b64encode(ciphertext).decode("ascii"),
}
with open("aegis_encrypted.json", "w", encoding="utf-8") as f:
    json.dump(vault, f, indent=4)
    f.write("\n")
