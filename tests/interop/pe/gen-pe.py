#!/usr/bin/env python3
"""Write a small, valid, unsigned PE/COFF image from scratch (no compiler).

    gen-pe.py [--arch x86_64|i386] [--trailing N] [--gap N] OUT

The image is an EFI application (subsystem 10), deterministic byte for byte:
a DOS header whose e_lfanew points just past it, the COFF header, a PE32+
(x86_64, Machine 0x8664) or PE32 (i386, Machine 0x14c) optional header with
its 16 data directories, and three sections laid out with FileAlignment
0x200 and SectionAlignment 0x1000:

    .text   a few bytes of code: return EFI_SUCCESS (xor eax,eax; ret)
    .data   one pointer to .text, which the relocation below fixes up
    .reloc  one base-relocation block (DIR64 or HIGHLOW, plus a pad entry),
            named by data directory 5

SizeOfHeaders is the first section's file offset; SizeOfCode,
SizeOfInitializedData and SizeOfImage are the sums and ends of the sections;
CheckSum is computed as the PE loader's (16-bit one's-complement sum of the
file with the CheckSum field taken as zero, plus the file size).

--trailing N appends N bytes (a deterministic pattern) after the last
section, as Debian's shim carries data there; an N that is not a multiple of
8 gives a file whose size is not one either. --gap N leaves N bytes (a
multiple of 0x200) between .text and .data in the file: an image that the
Authenticode digest of vouch refuses as malformed and other tools accept.

Imported by gen-pe-fixtures for layout(), the field offsets of an image.
"""
import argparse
import struct
import sys

FILE_ALIGN = 0x200
SECT_ALIGN = 0x1000
TIMESTAMP = 0x5F5E1000          # fixed: deterministic output
E_LFANEW = 0x40
NUM_DIRS = 16
DIR_CERT = 4                    # IMAGE_DIRECTORY_ENTRY_SECURITY
DIR_RELOC = 5                   # IMAGE_DIRECTORY_ENTRY_BASERELOC

ARCH = {
    # machine, optional-header magic, image base, relocation type, code
    'x86_64': (0x8664, 0x20B, 0x140000000, 10,          # IMAGE_REL_BASED_DIR64
               bytes.fromhex('31c0') + bytes.fromhex('c3')),
    'i386': (0x014C, 0x10B, 0x10000000, 3,              # IMAGE_REL_BASED_HIGHLOW
             bytes.fromhex('31c0') + bytes.fromhex('c3')),
}
# IMAGE_SCN_* characteristics
CODE = 0x00000020 | 0x20000000 | 0x40000000            # code, execute, read
IDATA = 0x00000040 | 0x40000000 | 0x80000000           # initialized, read, write
RELOC = 0x00000040 | 0x02000000 | 0x40000000           # initialized, discardable, read


def align(n, a):
    return (n + a - 1) // a * a


def checksum(data, csum_off):
    """The PE CheckSum of data, the field at csum_off taken as zero."""
    d = bytearray(data)
    d[csum_off:csum_off + 4] = b'\0\0\0\0'
    if len(d) % 2:
        d += b'\0'
    s = 0
    for (w,) in struct.iter_unpack('<H', bytes(d)):
        s += w
        s = (s & 0xFFFF) + (s >> 16)
    s = (s & 0xFFFF) + (s >> 16)
    return (s + len(data)) & 0xFFFFFFFF


def layout(data):
    """Offsets of an image's fields, read independently of vouch.

    A dict: e_lfanew, coff (the COFF header), machine, nsections, timestamp,
    opt (the optional header), pe32plus, entry (AddressOfEntryPoint),
    checksum, dirs (data directory 0), certdir (its security entry),
    sections (a list of dicts: hdr, name, vsize, va, rawsize, rawptr).
    """
    lfanew = struct.unpack_from('<I', data, 0x3C)[0]
    coff = lfanew + 4
    machine, nsect, ts, _, _, optsize, _ = struct.unpack_from('<HHIIIHH', data, coff)
    opt = coff + 20
    magic = struct.unpack_from('<H', data, opt)[0]
    plus = magic == 0x20B
    dirs = opt + (112 if plus else 96)
    out = {'e_lfanew': lfanew, 'coff': coff, 'machine': machine, 'nsections': nsect,
           'timestamp': coff + 4, 'opt': opt, 'pe32plus': plus, 'entry': opt + 16,
           'checksum': opt + 64, 'dirs': dirs, 'certdir': dirs + 8 * DIR_CERT,
           'sections': []}
    sh = opt + optsize
    for i in range(nsect):
        h = sh + 40 * i
        name, vsize, va, rawsize, rawptr = struct.unpack_from('<8sIIII', data, h)
        out['sections'].append({'hdr': h, 'name': name.rstrip(b'\0').decode('latin-1'),
                                'vsize': vsize, 'va': va, 'rawsize': rawsize,
                                'rawptr': rawptr})
    return out


def build(arch='x86_64', trailing=0, gap=0):
    machine, magic, base, reltype, code = ARCH[arch]
    plus = magic == 0x20B
    ptr = 8 if plus else 4
    optsize = (112 if plus else 96) + 8 * NUM_DIRS
    nsect = 3
    headers_end = E_LFANEW + 4 + 20 + optsize + 40 * nsect
    size_of_headers = align(headers_end, FILE_ALIGN)

    text_va, data_va, reloc_va = SECT_ALIGN, 2 * SECT_ALIGN, 3 * SECT_ALIGN
    text = code
    data = struct.pack('<Q' if plus else '<I', base + text_va) + b'vouch-pe\0'
    # One block for .data's page: the pointer at offset 0, then an
    # IMAGE_REL_BASED_ABSOLUTE entry to keep the block 32-bit aligned.
    entries = struct.pack('<HH', (reltype << 12) | 0, 0)
    reloc = struct.pack('<II', data_va, 8 + len(entries)) + entries

    sections = []
    raw = size_of_headers
    for name, body, va, chars, extra in (('.text', text, text_va, CODE, gap),
                                         ('.data', data, data_va, IDATA, 0),
                                         ('.reloc', reloc, reloc_va, RELOC, 0)):
        rawsize = align(len(body), FILE_ALIGN)
        sections.append((name, body, va, rawsize, raw, chars))
        raw += rawsize + extra
    size_of_image = align(reloc_va + len(reloc), SECT_ALIGN)

    out = bytearray()
    # DOS header: e_magic, e_cblp, e_cp, e_crlc, e_cparhdr, ... e_lfanew at 0x3c.
    dos = bytearray(E_LFANEW)
    struct.pack_into('<HHHHH', dos, 0, 0x5A4D, 0x90, 3, 0, 4)
    struct.pack_into('<I', dos, 0x3C, E_LFANEW)
    out += dos
    out += b'PE\0\0'
    chars = 0x0002 | 0x0020 if plus else 0x0002 | 0x0100     # executable; large address / 32-bit
    out += struct.pack('<HHIIIHH', machine, nsect, TIMESTAMP, 0, 0, optsize, chars)

    size_of_code = sum(s[3] for s in sections if s[5] == CODE)
    size_of_idata = sum(s[3] for s in sections if s[5] != CODE)
    opt = struct.pack('<HBBIIIII', magic, 2, 38, size_of_code, size_of_idata, 0,
                      text_va, text_va)
    if not plus:
        opt += struct.pack('<I', data_va)                     # BaseOfData
    opt += struct.pack('<Q' if plus else '<I', base)
    opt += struct.pack('<IIHHHHHHIIIIHH', SECT_ALIGN, FILE_ALIGN, 0, 0, 0, 0, 0, 0, 0,
                       size_of_image, size_of_headers, 0, 10,     # EFI application
                       0x0100 | 0x0040)                           # NX compat, dynamic base
    opt += struct.pack('<QQQQ' if plus else '<IIII', 0x100000, 0x1000, 0x100000, 0x1000)
    opt += struct.pack('<II', 0, NUM_DIRS)
    dirs = [(0, 0)] * NUM_DIRS
    dirs[DIR_RELOC] = (reloc_va, len(reloc))
    opt += b''.join(struct.pack('<II', *d) for d in dirs)
    assert len(opt) == optsize
    out += opt
    for name, body, va, rawsize, rawptr, scn in sections:
        out += struct.pack('<8sIIIIIIHHI', name.encode(), len(body), va, rawsize, rawptr,
                           0, 0, 0, 0, scn)
    assert len(out) == headers_end
    for name, body, va, rawsize, rawptr, scn in sections:
        out += bytes(rawptr - len(out))
        out += body + bytes(rawsize - len(body))
    out += bytes((i * 151 + 7) & 0xFF for i in range(trailing))

    csum_off = layout(out)['checksum']
    struct.pack_into('<I', out, csum_off, checksum(out, csum_off))
    return bytes(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--arch', choices=sorted(ARCH), default='x86_64')
    ap.add_argument('--trailing', type=int, default=0, metavar='N',
                    help='bytes of data after the last section')
    ap.add_argument('--gap', type=int, default=0, metavar='N',
                    help='bytes left between .text and .data (a multiple of 0x200)')
    ap.add_argument('out')
    opt = ap.parse_args()
    if opt.trailing < 0 or opt.gap < 0 or opt.gap % FILE_ALIGN:
        ap.error('--trailing must be >= 0, --gap a non-negative multiple of 0x200')
    with open(opt.out, 'wb') as f:
        f.write(build(opt.arch, opt.trailing, opt.gap))
    return 0


if __name__ == '__main__':
    sys.exit(main())
