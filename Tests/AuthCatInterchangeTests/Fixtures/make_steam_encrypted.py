#!/usr/bin/env python3
"""Writes steam_sda/: a Steam Desktop Authenticator folder with encryption
on, the way SDA (Jessecar96/SteamDesktopAuthenticator, FileEncryptor.cs)
describes it, with the password "test-password".

manifest.json: {"encrypted": true, "entries": [{"encryption_iv",
"encryption_salt", "filename", "steamid"}], ...}, IV and salt base64.
Each maFile: base64 of AES-256-CBC (PKCS #7) of the maFile's JSON, under
PBKDF2-HMAC-SHA1(password, salt, 50000 iterations, 32 bytes), with the IV.

The first account is steam_old.json's (Sophia); the second, "Ünïcødé 🐱",
has the secret "ONSWG4TFOQ" (base64 "c2VjcmV0"). Run from this folder:
python3 make_steam_encrypted.py (needs the `cryptography` package). The
output is random each time; the tests only need it to decrypt.
"""
import base64, hashlib, json, os
from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

PASSWORD = b"test-password"

with open("steam_old.json", encoding="utf-8") as f:
    sophia = json.load(f)
second = dict(sophia, steamid="5678", account_name="Ünïcødé 🐱", shared_secret="c2VjcmV0")

entries = []
for account in (sophia, second):
    salt, iv = os.urandom(8), os.urandom(16)
    key = hashlib.pbkdf2_hmac("sha1", PASSWORD, salt, 50000, 32)
    padder = padding.PKCS7(128).padder()
    plain = padder.update(json.dumps(account, ensure_ascii=False).encode()) + padder.finalize()
    encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    name = account["steamid"] + ".maFile"
    with open(os.path.join("steam_sda", name), "w") as f:
        f.write(base64.b64encode(encryptor.update(plain) + encryptor.finalize()).decode())
    entries.append({"encryption_iv": base64.b64encode(iv).decode(), "encryption_salt": base64.b64encode(salt).decode(),
                    "filename": name, "steamid": int(account["steamid"])})

manifest = {"encrypted": True, "first_run": False, "entries": entries, "periodic_checking": False,
            "periodic_checking_interval": 5, "periodic_checking_checkall": False, "auto_confirm_market_transactions": False,
            "auto_confirm_trades": False}
with open(os.path.join("steam_sda", "manifest.json"), "w") as f:
    json.dump(manifest, f)
