#!/usr/bin/env python3
"""Writes the ZIP exports the tests read, from the apps' descriptions, and
hostile archives shaped like them. Run from this folder: python3 make_zip_exports.py
(standard library only; the archives' dates are fixed, so the output is the same each time).

onepassword.1pux: 1Password's 1PUX export (support.1password.com/1pux-format):
export.attributes, export.data ({"accounts": [{"attrs", "vaults": [{"attrs":
{"name"}, "items": [...]}]}]}) and an attachment under files/. A one-time
password is a section field whose value is {"totp": otpauth URI or Base32};
items have "state" ("active", "archived", "trashed"), older exports "trashed": true.

proton_pass.zip: Proton Pass's export (Settings → Export, ZIP): Proton Pass/data.json,
{"version", "userId", "encrypted": false, "vaults": {ID: {"name", "items": [...]}}};
a login's one-time password is data.content.totpUri, and extra fields of type
"totp" hold more (data.totpUri); "state" 2 is the trash; exports before 1.18
kept the login's name in content.username.

zip_bomb.zip: export.data inflates to 2 MiB but its headers declare 1,000 bytes.
zip_runaway.zip: export.data's deflate stream opens a stored block longer than
the rest of the file, so an inflater runs to the end of the archive without
the stream ending (ZIPFoundation 0.9.20 loops forever on it on Linux).
zip_dotdot.zip: an entry named ../export.data beside export.data.
"""
import hashlib, json, struct, zipfile, zlib

DATE = (2024, 1, 2, 3, 4, 6)


def write_zip(name, files):
    with zipfile.ZipFile(name, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in files:
            info = zipfile.ZipInfo(path, DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)


def login(title, code, user="", tags=(), note="", state="active", url="", field_title="one-time password", more=()):
    fields = [{"title": field_title, "id": "TOTP_1", "value": {"totp": code}, "guarded": False}]
    fields += [{"title": t, "id": f"TOTP_{i + 2}", "value": {"totp": c}} for i, (t, c) in enumerate(more)]
    login_fields = [{"value": "hunter2", "id": "", "name": "password", "fieldType": "P", "designation": "password"}]
    if user:
        login_fields.insert(
            0, {"value": user, "id": "", "name": "username", "fieldType": "T", "designation": "username"}
        )
    return {
        "uuid": hashlib.sha1((title + user + state).encode()).hexdigest()[:26],
        "favIndex": 0,
        "createdAt": 1700000000,
        "updatedAt": 1700000001,
        "state": state,
        "categoryUuid": "001",
        "details": {
            "loginFields": login_fields,
            "notesPlain": note,
            "sections": [{"title": "", "name": "Section_1", "fields": [{"title": "website", "id": "w",
                                                                       "value": {"url": url}}]},
                         {"title": "2FA", "name": "Section_2", "fields": fields}],
            "passwordHistory": [],
        },
        "overview": {"subtitle": user, "title": title, "url": url, "tags": list(tags), "ps": 0, "pbe": 0.0,
                     "pgrng": False},
    }


def onepassword():
    uri = "otpauth://totp/"
    items = [
        login("GitHub", "JBSWY3DPEHPK3PXP", user="alice@example.com", tags=["Work"],
              note="recovery codes in the safe", url="https://github.com"),
        login("Bank", uri + "%C3%9Cn%C3%AFc%C3%B8d%C3%A9%20Bank:%E6%9D%8E%E9%9B%B7%20%F0%9F%90%B1"
              "?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=%C3%9Cn%C3%AFc%C3%B8d%C3%A9%20Bank"
              "&algorithm=SHA256&digits=8&period=60"),
        login("Example", uri + "sha512?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBV"
              "GY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNA&algorithm=SHA512&digits=8"),
        login("HOTP Corp", "otpauth://hotp/HOTP%20Corp:bob?secret=MFRGGZDFMZTWQ2LK&counter=42",
              tags=["Work/Ops", "Personal"]),
        login("Twin", " MFRG GZDF MZTW Q2LK ", user="carol", more=[("backup", "GEZDGNBVGY3TQOJQ")]),
        login("Old", "JBSWY3DPEHPK3PXP", user="dave", state="archived"),
        login("Gone", "JBSWY3DPEHPK3PXP", user="erin", state="trashed"),
        {"uuid": "pw", "state": "active", "categoryUuid": "005", "details": {"password": "x"},
         "overview": {"title": "Wi-Fi"}},
        login("", "JBSWY3DPEHPK3PXP", user="frank", url="https://login.example.org/sign-in"),
    ]
    shared = [dict(login("Legacy", "JBSWY3DPEHPK3PXP", user="grace"), trashed=True)]
    shared[0].pop("state")
    data = {
        "accounts": [{
            "attrs": {"accountName": "Test", "name": "Test", "email": "test@example.com", "uuid": "ACCOUNT",
                      "domain": "https://my.1password.com/"},
            "vaults": [
                {"attrs": {"uuid": "v1", "desc": "", "avatar": "", "name": "Private", "type": "P"}, "items": items},
                {"attrs": {"uuid": "v2", "desc": "", "avatar": "", "name": "Shared", "type": "U"}, "items": shared},
            ],
        }]
    }
    attributes = {"version": 3, "description": "1Password Unencrypted Export", "createdAt": 1700000002}
    write_zip("onepassword.1pux", [
        ("export.attributes", json.dumps(attributes, indent=2)),
        ("export.data", json.dumps(data, ensure_ascii=False, indent=2)),
        ("files/abcdefghijklmnopqrstuvwxyz-recovery.txt", "not read"),
    ])


def proton_item(name, kind="login", code="", note="", state=1, content=None, extra=()):
    if content is None:
        content = {"itemEmail": "", "password": "hunter2", "urls": [], "totpUri": code, "passkeys": [],
                   "itemUsername": ""} if kind == "login" else {}
    return {
        "itemId": hashlib.sha1((name + str(state)).encode()).hexdigest(),
        "shareId": "SHARE",
        "data": {"metadata": {"name": name, "note": note, "itemUuid": "u"}, "extraFields": list(extra),
                 "type": kind, "content": content},
        "state": state, "aliasEmail": None, "contentFormatVersion": 1, "createTime": 1700000000,
        "modifyTime": 1700000001, "pinned": False,
    }


def proton_pass():
    def login(**fields):
        content = {"itemEmail": "", "password": "pw", "urls": ["https://example.com/"], "totpUri": "",
                   "passkeys": [], "itemUsername": ""}
        content.update(fields)
        return content

    personal = [
        proton_item("GitHub", code="JBSWY3DPEHPK3PXP", note="recovery codes in the safe",
                    content=login(itemEmail="alice@example.com", totpUri="JBSWY3DPEHPK3PXP")),
        proton_item("Bank", content=login(itemUsername="li", totpUri="otpauth://totp/%C3%9Cn%C3%AFc%C3%B8d%C3%A9"
                    "%20Bank:%E6%9D%8E%E9%9B%B7%20%F0%9F%90%B1?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
                    "&issuer=%C3%9Cn%C3%AFc%C3%B8d%C3%A9%20Bank&algorithm=SHA256&digits=8&period=60")),
        proton_item("Twin", content=login(itemUsername="carol", itemEmail="c@example.com",
                                          totpUri="MFRGGZDFMZTWQ2LK"),
                    extra=[{"fieldName": "pin", "type": "hidden", "data": {"content": "1234"}},
                           {"fieldName": "backup", "type": "totp", "data": {"totpUri": "GEZDGNBVGY3TQOJQ"}}]),
        proton_item("Shopping list", kind="note", note="milk"),
        proton_item("Gone", state=2, content=login(itemUsername="erin", totpUri="JBSWY3DPEHPK3PXP")),
    ]
    work = [
        proton_item("Example", content=login(totpUri="otpauth://totp/sha512?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3T"
                    "QOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNA"
                    "&algorithm=SHA512&digits=8")),
        proton_item("Old", content={"username": "dave", "password": "pw", "urls": [],
                                    "totpUri": "otpauth://hotp/HOTP%20Corp:bob?secret=MFRGGZDFMZTWQ2LK&counter=42"}),
        proton_item("Alias", kind="alias"),
    ]
    data = {
        "version": "1.21.2", "userId": "USER", "encrypted": False,
        "vaults": {
            "VAULT_B": {"name": "Work", "description": "", "display": {"color": 4, "icon": 2}, "items": work},
            "VAULT_A": {"name": "Personal", "description": "Personal vault", "display": {"color": 0, "icon": 0},
                        "items": personal},
        },
    }
    write_zip("proton_pass.zip", [("Proton Pass/data.json", json.dumps(data, ensure_ascii=False, indent=2))])


def local_header(name, method, crc, compressed, size):
    return struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, method, 0, 0, crc, compressed, size, len(name), 0) + name


def central_header(name, method, crc, compressed, size, offset):
    return struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, method, 0, 0, crc, compressed, size,
                       len(name), 0, 0, 0, 0, 0, offset) + name


def raw_zip(name, method, crc, payload, declared):
    """One entry whose headers declare `declared` bytes, whatever `payload` inflates to."""
    name = name.encode()
    local = local_header(name, method, crc, len(payload), declared)
    central = central_header(name, method, crc, len(payload), declared, 0)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central), len(local) + len(payload), 0)
    return local + payload + central + end


def hostile():
    content = b'{"accounts": [' + b" " * (2 << 20) + b"]}"
    deflater = zlib.compressobj(9, zlib.DEFLATED, -15)
    payload = deflater.compress(content) + deflater.flush()
    with open("zip_bomb.zip", "wb") as f:
        f.write(raw_zip("export.data", 8, zlib.crc32(content), payload, 1000))
    # A stored block (BFINAL 0, BTYPE 00) of 65,535 bytes, of which only the archive's directory follows.
    with open("zip_runaway.zip", "wb") as f:
        f.write(raw_zip("export.data", 8, 0, bytes([0x00, 0xFF, 0xFF, 0x00, 0x00]), 10))
    write_zip("zip_dotdot.zip", [("export.data", '{"accounts": []}'), ("../export.data", '{"accounts": []}')])


onepassword()
proton_pass()
hostile()
