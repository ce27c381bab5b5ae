#!/usr/bin/env python3
"""Writes google_migration.txt: a Google Authenticator export of two QR codes
(one batch), its protobuf assembled by hand from the MigrationPayload
description (see GoogleMigrationPayload.swift), independently of SwiftProtobuf.

Protobuf wire format used here: a field key is varint(number << 3 | wire type);
wire type 0 is a varint, 2 is a length-delimited byte string or nested message.

Run from this folder: python3 make_google_migration.py (standard library only).
"""
import base64, urllib.parse

def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)

def field_varint(number, value):
    return varint(number << 3 | 0) + varint(value)

def field_bytes(number, data):
    return varint(number << 3 | 2) + varint(len(data)) + data

# algorithm: 1 SHA1, 2 SHA256, 3 SHA512, 4 MD5; digits: 1 six, 2 eight; type: 1 HOTP, 2 TOTP
def otp(secret, name, issuer, algorithm, digits, kind, counter=0):
    message = field_bytes(1, secret) + field_bytes(2, name.encode()) + field_bytes(3, issuer.encode())
    message += field_varint(4, algorithm) + field_varint(5, digits) + field_varint(6, kind)
    if counter:
        message += field_varint(7, counter)
    return field_bytes(1, message)

def payload(accounts, batch_size, batch_index, batch_id):
    return b"".join(accounts) + field_varint(2, 1) + field_varint(3, batch_size) + field_varint(4, batch_index) + field_varint(5, batch_id)

first = payload([
    otp(b"Hello!\xde\xad\xbe\xef", "GitHub:alice@example.com", "GitHub", 1, 1, 2),
    otp(b"12345678901234567890", "Ünïcødé Bank:李雷 🐱", "Ünïcødé Bank", 2, 2, 2),
], batch_size=2, batch_index=0, batch_id=123456789)
second = payload([
    otp(b"1234567890" * 6 + b"1234", "sha512", "", 3, 2, 2),
    otp(b"abcdefghij", "HOTP Corp:bob", "HOTP Corp", 1, 1, 1, counter=42),
    otp(b"md5secret!", "Legacy:md5", "Legacy", 4, 1, 2),
], batch_size=2, batch_index=1, batch_id=123456789)

with open("google_migration.txt", "w") as f:
    for data in (first, second):
        f.write("otpauth-migration://offline?data=" + urllib.parse.quote(base64.b64encode(data).decode(), safe="") + "\n")
# A payload without zero or empty fields (proto3 encoders leave those out), in
# hex, for the test that checks SwiftProtobuf encodes exactly these bytes.
canonical = payload([
    otp(b"Hello!\xde\xad\xbe\xef", "GitHub:alice@example.com", "GitHub", 1, 1, 2),
    otp(b"abcdefghij", "HOTP Corp:bob", "HOTP Corp", 1, 1, 1, counter=42),
], batch_size=2, batch_index=1, batch_id=123456789)
with open("google_migration_canonical.hex", "w") as f:
    f.write(canonical.hex() + "\n")
