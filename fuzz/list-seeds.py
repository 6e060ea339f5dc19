#!/usr/bin/env python3
"""List the seed files of the given directories, one per line, sorted.
Directories that do not exist are skipped; scripts and manifests are not
seeds."""
import os
import sys

files = []
for d in sys.argv[1:]:
    if os.path.isdir(d):
        files += [os.path.join(d, f) for f in os.listdir(d)
                  if os.path.isfile(os.path.join(d, f)) and not f.endswith(('.sh', '.tsv'))]
print('\n'.join(sorted(files)))
