// The pages an operator reads, in Debian's Chromium driven by playwright-core:
// cgacctd's landing page and the Prometheus consoles of a running demo (the
// e2e suite's vm/up). Prints "pass|fail<TAB>name<TAB>detail" per check, as
// check.py does, and keeps a screenshot of each page in OUT_DIR.
//
//   NPM_PREFIX=DIR node tests/e2e/browser.mjs PROMETHEUS_URL LANDING_URL INSTANCE OUT_DIR PREFIX
//
// DIR holds node_modules/playwright-core (npm install --prefix DIR); names
// start with PREFIX/browser/.
//
// Checks, for the words dashboards/README.md defines:
//   of-limit/<cgroup>      for every demo cgroup, the "of limit" cells of the
//                          landing page and of the overview console say usage
//                          / limit: within 2 points of the range Prometheus saw
//                          over the last 30 s (the pages are read at different
//                          moments); nothing, or "-", without a limit
//   working-set/<cgroup>   the console's "working set of limit" and the
//                          Grafana panel of that name say the same, within 5
//                          points
//   first-screen/<WxH>     on /demo/memlimit's console page the first graph,
//                          as drawn (its svg, not the div that holds it: a
//                          graph too wide to sit beside the right-hand table
//                          drops below it and leaves its div empty), starts
//                          in the upper half of the first screen within 40 px
//                          of its heading, and the title within 40 px of the
//                          navigation bar: no blank band above them
//   no-e-notation/<page>   no count in a table is written as 3.49e+04
//   legends-distinct       no graph of that page names two series alike
//                          (one device's reads and writes both "vda")
//   dash-if-none/<cgroup>  the landing page's throttled cell is "-" for a
//                          cgroup without a CPU quota
import { createRequire } from "node:module";

const { chromium } = createRequire(`${process.env.NPM_PREFIX}/`)("playwright-core");

const [prom, landing, instance, out, prefix] = process.argv.slice(2);
const here = new URL(".", import.meta.url).pathname;
function report(ok, name, detail) {
  console.log(`${ok ? "pass" : "fail"}\t${prefix}/browser/${name}\t${detail || ""}`);
}

// A Grafana panel's first query, for one instance and cgroup.
async function grafanaExpr(title, cgroup) {
  const { readFile } = await import("node:fs/promises");
  const dash = JSON.parse(await readFile(`${here}../../dashboards/grafana/cgacct.json`, "utf8"));
  const panel = dash.panels.find((p) => p.title === title);
  return panel.targets[0].expr
    .replaceAll('instance=~"$instance"', `instance="${instance}"`)
    .replaceAll('cgroup=~"$cgroup"', `cgroup="${cgroup}"`);
}

async function promValue(expr) {
  const r = await fetch(`${prom}/api/v1/query?query=${encodeURIComponent(expr)}`);
  const body = await r.json();
  const v = body.data.result[0];
  return v ? Number(v.value[1]) : null;
}

// The text of each table row's cells, keyed by the header text, for rows
// whose first cell's title (or its link's) is a cgroup path.
async function tableRows(page) {
  return page.evaluate(() => {
    const rows = {};
    for (const table of document.querySelectorAll("table")) {
      const heads = [...table.querySelectorAll("tr:first-child th, thead th")].map((th) => th.textContent.trim());
      for (const tr of table.querySelectorAll("tr")) {
        const cells = [...tr.querySelectorAll("td")];
        if (cells.length < 2) continue;
        const first = cells[0];
        const link = first.querySelector("a");
        const path = first.getAttribute("title") || (link && link.getAttribute("title"));
        if (!path || !path.startsWith("/")) continue;
        rows[path] = Object.fromEntries(cells.map((td, i) => [heads[i], td.textContent.trim()]));
      }
    }
    return rows;
  });
}

const percent = (s) => (s && /[0-9.]+\s*%/.test(s) ? Number(s.match(/([0-9.]+)\s*%/)[1]) : null);
const eNotation = (text) => text.match(/\d(\.\d+)?e[+-]\d+/g);

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });

  await page.goto(landing, { waitUntil: "load" });
  await page.screenshot({ path: `${out}/landing.png`, fullPage: true });
  const land = await tableRows(page);
  const landText = await page.locator("body").innerText();

  const overview = `${prom}/consoles/cgacct-overview.html?instance=${encodeURIComponent(instance)}`;
  await page.goto(overview, { waitUntil: "load" });
  await page.screenshot({ path: `${out}/overview.png`, fullPage: true });
  const cons = await tableRows(page);
  const consText = await page.locator("body").innerText();
  // every demo cgroup, as the console lists them
  const demo = Object.keys(cons).filter((p) => p.startsWith("/demo/"));
  report(demo.length >= 4, "demo-cgroups", demo.join(" "));

  for (const cg of demo) {
    const sel = `{instance="${instance}",cgroup="${cg}"}`;
    const limit = await promValue(`cgroup_memory_limit_bytes${sel}`);
    if (limit === null) {
      // no limit: neither page puts a figure under "of limit"
      const none = (s) => s === "" || s === "-";
      const l = land[cg] && land[cg]["of limit"], c = cons[cg] && cons[cg]["of limit"];
      report(none(l) && none(c), `of-limit${cg}`, `no limit; landing "${l}", console "${c}"`);
      continue;
    }
    // The pages were read a few seconds apart and usage moves: what Prometheus
    // saw over the last 30 s bounds what they may say, give or take 2 points.
    const lo = (100 * (await promValue(`min_over_time(cgroup_memory_usage_bytes${sel}[30s])`))) / limit;
    const hi = (100 * (await promValue(`max_over_time(cgroup_memory_usage_bytes${sel}[30s])`))) / limit;
    const inside = (v) => v !== null && v >= lo - 2 && v <= hi + 2;
    const l = percent(land[cg] && land[cg]["of limit"]);
    const c = percent(cons[cg] && cons[cg]["of limit"]);
    report(
      inside(l) && inside(c),
      `of-limit${cg}`,
      `Prometheus usage/limit ${lo.toFixed(1)}-${hi.toFixed(1)}% over 30 s, ` +
        `landing "${land[cg] && land[cg]["of limit"]}", console "${cons[cg] && cons[cg]["of limit"]}"`,
    );
    const ws = percent(cons[cg] && cons[cg]["working set of limit"]);
    const g = 100 * (await promValue(await grafanaExpr("Memory working set of limit", cg)));
    report(
      ws !== null && Math.abs(ws - g) <= 5,
      `working-set${cg}`,
      `Grafana's panel ${g.toFixed(1)}%, console "${cons[cg] && cons[cg]["working set of limit"]}"`,
    );
  }

  for (const [w, h] of [[1400, 900], [800, 1200]]) {
    await page.setViewportSize({ width: w, height: h });
    const url = `${prom}/consoles/cgacct-cgroup.html?instance=${encodeURIComponent(instance)}&cgroup=/demo/memlimit`;
    await page.goto(url, { waitUntil: "load" });
    // the graphs' containers are "#...Graph" divs; Rickshaw draws into them once the data came
    await page
      .waitForFunction(() => document.querySelector('div[id$="Graph"]')?.querySelector("svg"), null, {
        timeout: 30000,
      })
      .catch(() => {});
    await page.screenshot({ path: `${out}/memlimit-${w}x${h}.png` });
    const [top, gap, band] = await page.evaluate(() => {
      const div = document.querySelector('div[id$="Graph"]');
      const svg = div && div.querySelector("svg");
      const heading = div && div.previousElementSibling;
      const nav = document.querySelector("nav");
      const h1 = document.querySelector("h1");
      return [
        svg ? svg.getBoundingClientRect().top : null,
        svg && heading ? svg.getBoundingClientRect().top - heading.getBoundingClientRect().bottom : null,
        nav && h1 ? h1.getBoundingClientRect().top - nav.getBoundingClientRect().bottom : null,
      ];
    });
    report(
      top !== null && top <= h / 2 && gap <= 40 && band !== null && band <= 40,
      `first-screen/${w}x${h}`,
      top === null
        ? "the first graph was not drawn in 30 s"
        : `first graph drawn at ${Math.round(top)} px of ${h}, ${Math.round(gap)} px under its heading; ` +
            `${Math.round(band)} px blank below the bar`,
    );
    if (w === 1400) {
      const e = eNotation(await page.locator("body").innerText());
      report(!e, "no-e-notation/cgroup-page", e ? e.slice(0, 3).join(", ") : "");
      // Every graph drawn (or saying it has no data), then each one's legend.
      await page
        .waitForFunction(
          () =>
            [...document.querySelectorAll('div[id$="Graph"]')].every((d) =>
              d.querySelector("svg, .prom_graph_error"),
            ),
          null,
          { timeout: 30000 },
        )
        .catch(() => {});
      const legends = await page.evaluate(() =>
        [...document.querySelectorAll('div[id$="Graph"]')].map((d) => [
          d.id,
          [...d.querySelectorAll(".rickshaw_legend .label")].map((l) => l.textContent),
        ]),
      );
      const twice = legends.filter(([, labels]) => new Set(labels).size < labels.length);
      report(
        legends.length > 0 && twice.length === 0,
        "legends-distinct",
        twice.length
          ? twice.map(([id, labels]) => `${id}: ${labels.join(" | ")}`).join("; ")
          : `${legends.length} graphs: ${legends.map(([, labels]) => labels.length).join(" ")} series`,
      );
    }
  }
  for (const [name, text] of [["landing", landText], ["overview", consText]]) {
    const e = eNotation(text);
    report(!e, `no-e-notation/${name}`, e ? e.slice(0, 3).join(", ") : "");
  }

  for (const cg of demo) {
    const quota = await promValue(`cgroup_cpu_quota_seconds{instance="${instance}",cgroup="${cg}"}`);
    if (quota !== null || !land[cg]) continue;
    const cell = land[cg]["throttled periods"];
    report(cell === "-" || cell === "", `dash-if-none${cg}`, `landing says "${cell}"`);
  }
} finally {
  await browser.close();
}
// The results are the lines; a status other than 0 means the script broke.
