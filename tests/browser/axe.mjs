// Checks pages with axe-core in Debian's Chromium, in the light and the dark colour scheme,
// at a phone's width and a desktop's. Reads a JSON config file (argv[2]):
// {"exe": chromium path, "pages": [file paths], "shots": folder or null}
// and prints, as JSON, one entry per page, scheme and width: its axe violations (rule id,
// impact, help and the failing elements' selectors and summaries), the page's errors and
// how many pixels the page is wider than the window (0: it does not scroll sideways).
// With "shots", also saves a full-page screenshot of each.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const browser = await chromium.launch({ executablePath: cfg.exe, args: ['--no-sandbox'] });
const results = [];
for (const [n, file] of cfg.pages.entries()) {
  for (const scheme of ['light', 'dark']) {
    for (const width of [390, 1280]) {
      // The pages allow only their own script file; the checker is injected past that policy.
      const context = await browser.newContext({
        viewport: { width, height: 900 },
        colorScheme: scheme,
        bypassCSP: true,
      });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      await page.goto('file://' + path.resolve(file));
      await page.addScriptTag({ content: axeSource });
      const found = await page.evaluate(async () => {
        // eslint-disable-next-line no-undef
        const r = await axe.run(document, { resultTypes: ['violations'] });
        return r.violations.map((v) => ({
          id: v.id,
          impact: v.impact,
          help: v.help,
          nodes: v.nodes.map((x) => ({ target: x.target.join(' '), summary: x.failureSummary })),
        }));
      });
      const wider = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      if (cfg.shots) {
        await page.screenshot({
          path: path.join(cfg.shots, `report-${n}-${width}-${scheme}.png`),
          fullPage: true,
        });
      }
      results.push({ page: file, scheme, width, violations: found, errors, wider });
      await context.close();
    }
  }
}
await browser.close();
process.stdout.write(JSON.stringify(results));
