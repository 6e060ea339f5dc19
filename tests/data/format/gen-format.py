#!/usr/bin/env python3
"""Makes the format-decision fixtures with the OpenSSL CLI.

A signature file is DER/BER spanning the whole file or strict PEM; a
certificate file is one DER certificate or PEM text whose blocks are taken
whole, from lines of their own. Before the fix a DER message signed by an
attacker's key that merely quoted the PEM text of a message the trusted key
had signed was verified as that quoted message. The outputs are committed;
the tests never run this (test-only OpenSSL). Keys are thrown away. Run:

    python3 tests/data/format/gen-format.py

  trusted.pem               the trusted signer (self-signed RSA-2048)
  attacker.pem              the attacker's own self-signed certificate
  quoted.pem                a harmless message the trusted key signed (PEM)
  forged-content.der        attacker-signed DER; its content quotes quoted.pem
  forged-unsigned-attr.der  attacker-signed DER; an unsigned attribute quotes it
  forged-trailing.der       an attacker-signed DER message, then quoted.pem
  forged-leading.pem        a line of text, then quoted.pem
  two-blocks.pem            quoted.pem twice
  pem-content.der           trusted-signed DER whose content is a PEM bundle
  trust-text.pem            trusted.pem after its `openssl x509 -text` output
  trust-crl.pem             trusted.pem and a CRL block
  trust-midline.pem         trusted.pem's block starting in the middle of a line
  content-attacker.bin      the content of forged-content.der, for its digest
  ed448.pem                 a certificate whose key vouch does not implement (Ed448)
  mixed.pem                 ed448.pem, then trusted.pem: a keyring file with one of each
"""
import hashlib
import importlib.util
import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "gen_malformed", os.path.join(os.path.dirname(HERE), "malformed", "gen-malformed.py"))
der = importlib.util.module_from_spec(spec)
spec.loader.exec_module(der)


def run(*args, **kw):
    return subprocess.run(args, check=True, capture_output=True, **kw).stdout


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def self_signed(tmp, name, cn):
    key = os.path.join(tmp, name + ".key")
    run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
        "-subj", "/CN=" + cn, "-days", "36500", "-addext", "keyUsage=digitalSignature",
        "-out", os.path.join(HERE, name + ".pem"))
    return key


def sign(tmp, who, key, content, *opts):
    path = os.path.join(tmp, "content")
    with open(path, "wb") as f:
        f.write(content)
    return run("openssl", "cms", "-sign", "-binary", "-nodetach", "-in", path,
               "-signer", os.path.join(HERE, who + ".pem"), "-inkey", key, "-md", "sha256",
               "-nosmimecap", *opts)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        trusted = self_signed(tmp, "trusted", "vouch format trusted signer")
        attacker = self_signed(tmp, "attacker", "vouch format attacker")
        quoted = sign(tmp, "trusted", trusted, b"a harmless message\n", "-outform", "PEM")
        write("quoted.pem", quoted)

        evil = b"the attacker's own content\n" + quoted
        write("content-attacker.bin", evil)
        write("forged-content.der", sign(tmp, "attacker", attacker, evil, "-outform", "DER"))

        m = der.parse(sign(tmp, "attacker", attacker, b"evil\n", "-outform", "DER"))
        signer = der.signer_of(m)
        signer.kids.append(der.cons(0xa1, der.seq(
            der.oid("1.3.6.1.4.1.99999.1"), der.cons(0x31, der.tlv(0x04, quoted)))))
        write("forged-unsigned-attr.der", m.enc())

        plain = sign(tmp, "attacker", attacker, b"evil\n", "-outform", "DER")
        write("forged-trailing.der", plain + b"\n" + quoted)
        write("forged-leading.pem", b"see the signed message below\n" + quoted)
        write("two-blocks.pem", quoted + quoted)

        bundle = open(os.path.join(HERE, "trusted.pem"), "rb").read()
        write("pem-content.der", sign(tmp, "trusted", trusted, bundle, "-outform", "DER"))

        text = run("openssl", "x509", "-in", os.path.join(HERE, "trusted.pem"), "-text")
        write("trust-text.pem", text)
        run("openssl", "req", "-new", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
            os.path.join(tmp, "ca.key"), "-subj", "/CN=vouch format CRL issuer", "-days", "30",
            "-out", os.path.join(tmp, "ca.pem"))
        conf = os.path.join(tmp, "ca.cnf")
        with open(conf, "w") as f:
            f.write("[ca]\ndefault_ca=c\n[c]\ndatabase=%s/index\ndefault_md=sha256\n"
                    "default_crl_days=30\n" % tmp)
        open(os.path.join(tmp, "index"), "w").close()
        crl = run("openssl", "ca", "-gencrl", "-config", conf, "-keyfile",
                  os.path.join(tmp, "ca.key"), "-cert", os.path.join(tmp, "ca.pem"))
        write("trust-crl.pem", crl + bundle)
        write("trust-midline.pem", b"see: " + bundle)
        run("openssl", "req", "-x509", "-newkey", "ed448", "-nodes", "-keyout",
            os.path.join(tmp, "ed448.key"), "-subj", "/CN=vouch format Ed448", "-days", "36500",
            "-out", os.path.join(HERE, "ed448.pem"))
        write("mixed.pem", open(os.path.join(HERE, "ed448.pem"), "rb").read() + bundle)
    print("sha256(content-attacker.bin) =", hashlib.sha256(evil).hexdigest())


if __name__ == "__main__":
    main()
