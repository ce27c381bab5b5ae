#!/usr/bin/env python3
"""Writes bitwarden_encrypted_pbkdf2.json and bitwarden_encrypted_argon2id.json:
bitwarden.json encrypted as Bitwarden writes a password-protected export,
with the password "test-password".

The key: PBKDF2-HMAC-SHA-256(password, salt text, kdfIterations) for
kdfType 0, or Argon2id(password, SHA-256(salt text), kdfIterations passes,
kdfMemory MiB, kdfParallelism lanes) for kdfType 1; 32 bytes. HKDF-Expand
(SHA-256) stretches it into an encryption key (info "enc") and a MAC key
(info "mac"). Each of encKeyValidation_DO_NOT_EDIT (a random UUID's text)
and data (the unencrypted export's JSON) is an EncString of type 2,
"2.iv|ciphertext|mac" in base64: AES-256-CBC with PKCS#7 padding and
HMAC-SHA-256(mac key, iv + ciphertext).

Run from this folder: python3 make_bitwarden_encrypted.py (needs the
`cryptography` and `argon2-cffi` packages). The output is random each
time; the tests only need it to decrypt to the plain fixture's entries.
"""
import base64, hashlib, hmac, json, os, uuid
import argon2.low_level
from cryptography.hazmat.primitives import hashes, padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand

PASSWORD = b"test-password"

with open("bitwarden.json", "rb") as f:
    plain = f.read()

def expand(key, info):
    return HKDFExpand(hashes.SHA256(), 32, info).derive(key)

def enc_string(enc_key, mac_key, plaintext):
    iv = os.urandom(16)
    padder = padding.PKCS7(128).padder()
    padded = padder.update(plaintext) + padder.finalize()
    encryptor = Cipher(algorithms.AES(enc_key), modes.CBC(iv)).encryptor()
    ciphertext = encryptor.update(padded) + encryptor.finalize()
    mac = hmac.new(mac_key, iv + ciphertext, hashlib.sha256).digest()
    return "2." + "|".join(base64.b64encode(part).decode() for part in (iv, ciphertext, mac))

def write(name, kdf):
    salt = base64.b64encode(os.urandom(16)).decode()
    if kdf["kdfType"] == 0:
        key = hashlib.pbkdf2_hmac("sha256", PASSWORD, salt.encode(), kdf["kdfIterations"], 32)
    else:
        key = argon2.low_level.hash_secret_raw(
            PASSWORD, hashlib.sha256(salt.encode()).digest(), time_cost=kdf["kdfIterations"],
            memory_cost=kdf["kdfMemory"] * 1024, parallelism=kdf["kdfParallelism"], hash_len=32,
            type=argon2.low_level.Type.ID)
    enc_key, mac_key = expand(key, b"enc"), expand(key, b"mac")
    document = {"encrypted": True, "passwordProtected": True, "salt": salt, **kdf,
                "encKeyValidation_DO_NOT_EDIT": enc_string(enc_key, mac_key, str(uuid.uuid4()).encode()),
                "data": enc_string(enc_key, mac_key, plain)}
    with open(name, "w", encoding="utf-8") as f:
        json.dump(document, f, indent=2)
        f.write("\n")

# Bitwarden's former default for PBKDF2, and its Argon2id minimums but with four lanes.
write("bitwarden_encrypted_pbkdf2.json",
      {"kdfType": 0, "kdfIterations": 100000, "kdfMemory": None, "kdfParallelism": None})
write("bitwarden_encrypted_argon2id.json",
      {"kdfType": 1, "kdfIterations": 3, "kdfMemory": 16, "kdfParallelism": 4})
