#!/usr/bin/env python3
"""Compares the vPIC powersports catalog with an independent list of
motorcycle models by year, for the top ten makes of that list.

usage: scripts/powersports-coverage.py VDS_SQLITE_DB MODELS.csv [MODELS.csv...]

VDS_SQLITE_DB is a vds SQLite database after `vds ingest --source vpic`;
each MODELS.csv has the columns Year, Make, Model (other columns are
ignored). Makes are matched ignoring case; a listed model matches a vPIC
model of its make and year when one name, letters and digits only, holds
the other (at least 3 characters long), e.g. "FLHX Street Glide" and
"Street Glide". Prints, per make, the years and model-years of the list
from the vPIC catalog's first year on that the catalog has.
"""

import collections
import csv
import re
import sqlite3
import sys


def compact(s):
    return re.sub(r"[^a-z0-9]", "", s.lower())


def main(db_path, csv_paths):
    db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    vpic = collections.defaultdict(set)  # (make, year) -> compact models
    for make, model, year in db.execute(
        "SELECT make, model, year FROM motorcycles WHERE source LIKE 'vPIC snapshot %' AND vehicle_type = 'Motorcycle'"
    ):
        vpic[(make.lower(), year)].add(compact(model))
    if not vpic:
        sys.exit(f"{db_path}: no vPIC motorcycles; run vds ingest --source vpic first")
    first = min(y for _, y in vpic)
    last = max(y for _, y in vpic)

    listed = collections.defaultdict(set)  # (make, year) -> compact models
    names = {}
    for path in csv_paths:
        with open(path, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                year = int(row["Year"])
                if first <= year <= last:
                    names.setdefault(row["Make"].lower(), row["Make"])
                    listed[(row["Make"].lower(), year)].add(compact(row["Model"]))
    per_make = collections.Counter()
    for (make, _), models in listed.items():
        per_make[make] += len(models)
    top = [m for m, _ in per_make.most_common(10)]

    def matches(model, candidates):
        return any(
            model == c or (len(c) >= 3 and c in model) or (len(model) >= 3 and model in c) for c in candidates
        )

    print(f"years {first}-{last}; make: years covered, model-years covered")
    tot_y = tot_yc = tot_m = tot_mc = 0
    for make in top:
        years = sorted(y for (m, y) in listed if m == make)
        covered = [y for y in years if vpic.get((make, y))]
        pairs = [(y, model) for y in years for model in listed[(make, y)]]
        found = [p for p in pairs if matches(p[1], vpic.get((make, p[0]), ()))]
        tot_y, tot_yc, tot_m, tot_mc = tot_y + len(years), tot_yc + len(covered), tot_m + len(pairs), tot_mc + len(found)
        print(
            f"{names[make]:20} {len(covered):3}/{len(years):3} years ({100 * len(covered) / len(years):5.1f}%)"
            f"  {len(found):5}/{len(pairs):5} model-years ({100 * len(found) / max(len(pairs), 1):5.1f}%)"
        )
    print(
        f"{'all ten':20} {tot_yc:3}/{tot_y:3} years ({100 * tot_yc / tot_y:5.1f}%)"
        f"  {tot_mc:5}/{tot_m:5} model-years ({100 * tot_mc / tot_m:5.1f}%)"
    )


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
