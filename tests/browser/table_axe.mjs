// Checks table pages (a rules table, a free table, a held table; a seat's and the spectator's)
// with axe-core in Debian's Chromium, in the light and the dark colour scheme, at a phone's
// width and a desktop's, as a person sees them once the page has drawn its view. Reads a JSON
// config file (argv[2]): {"exe", "pages": [{"name", "url", "ready": a CSS selector, and
// optionally "schemes" and "widths" to check it in only those}], "shots":
// folder or null} and prints, as JSON, one entry per page, scheme and width: its axe
// violations (rule id, impact, help and the failing elements), the page's errors and how many
// pixels it is wider than the window, the buttons it shows, what its data banner says, the
// cards' words it shows and the languages it offers them in.
// With "shots", also saves a full-page screenshot of each, and of a page with a "book" name
// (for the book's pictures of each game's table) what the window shows, from the top, as
// "<book>-<width>-<scheme>.png".
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const browser = await chromium.launch({ executablePath: cfg.exe, args: ['--no-sandbox'] });
const results = [];
for (const p of cfg.pages) {
  for (const scheme of p.schemes || ['light', 'dark']) {
    for (const width of p.widths || [390, 1280]) {
      // The pages allow only their own scripts; the checker is injected past that policy.
      const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 900 }, colorScheme: scheme, bypassCSP: true });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('console', (m) => {
        // A held table's API answers 409 by design: the browser logs the status.
        if (m.type() === 'error' && !/status of 409/.test(m.text())) errors.push(m.text());
      });
      await page.goto(p.url);
      await page.waitForSelector(p.ready);
      // Images (card faces) loaded, so that contrast is judged on what a person sees.
      await page.waitForLoadState('networkidle').catch(() => {});
      await page.addScriptTag({ content: axeSource });
      const found = await page.evaluate(async () => {
        // eslint-disable-next-line no-undef
        const r = await axe.run(document, { resultTypes: ['violations'] });
        return r.violations.map((v) => ({
          id: v.id,
          impact: v.impact,
          help: v.help,
          nodes: v.nodes.map((x) => ({ target: x.target.join(' '), html: x.html.slice(0, 200), summary: x.failureSummary })),
        }));
      });
      const buttons = await page.locator('button:visible').allTextContents();
      const said = (await page.textContent('#data-text').catch(() => '')) || '';
      // The cards as the page names them, and the languages it offers them in (and the one
      // chosen), where the game prints its cards in several.
      const cards = await page.locator('.free-card:visible, .card:visible').allTextContents();
      // Each name under a face, as its text (with any soft hyphens) and the language it says
      // it is in.
      const names = await page.locator('.card-name:visible, .free-card strong:visible, .free-piece-name:visible')
        .evaluateAll((els) => els.map((e) => ({ text: e.textContent, lang: e.lang })));
      const langs = await page.locator('#langs:visible #lang option').allTextContents();
      const lang = langs.length ? await page.locator('#lang').inputValue() : null;
      const wider = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (cfg.shots) {
        await page.screenshot({ path: path.join(cfg.shots, `${p.name}-${width}-${scheme}.png`), fullPage: true });
        if (p.book) {
          await page.evaluate(() => window.scrollTo(0, 0));
          await page.screenshot({ path: path.join(cfg.shots, `${p.book}-${width}-${scheme}.png`), fullPage: false });
        }
      }
      results.push({ page: p.name, scheme, width, violations: found, errors, wider, buttons, said, cards, names, langs, lang });
      await context.close();
    }
  }
}
await browser.close();
process.stdout.write(JSON.stringify(results));
