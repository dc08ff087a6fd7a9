// Opens each published SVG as a document in Debian's Chromium (as a click on a link to it
// does) and records what it does: every request besides the document itself (none reaches
// the network: each is answered with an error here) and every dialog (alert, confirm,
// prompt) a script would open. Reads a JSON config file (argv[2]): {"exe", "docs": [URLs]}
// and prints, as JSON, one entry per document: {url, loaded, requests, dialogs, errors}.
// One browser for all documents, opened side by side.
import { chromium } from 'playwright-core';
import fs from 'node:fs';

const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const browser = await chromium.launch({ executablePath: cfg.exe, args: ['--no-sandbox'] });
const context = await browser.newContext();
// Nothing leaves the machine: a request for anything but the document is refused.
await context.route('**/*', (route) => {
  const url = route.request().url();
  if (cfg.docs.includes(url)) return route.continue();
  return route.abort();
});
const results = await Promise.all(
  cfg.docs.map(async (url) => {
    const page = await context.newPage();
    const requests = [];
    const dialogs = [];
    const errors = [];
    page.on('request', (r) => { if (r.url() !== url) requests.push(r.url()); });
    page.on('dialog', async (d) => { dialogs.push(d.message()); await d.dismiss(); });
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('popup', (p) => requests.push('popup ' + p.url()));
    let loaded = false;
    try {
      const response = await page.goto(url, { waitUntil: 'load' });
      loaded = url.startsWith('file:') || (response !== null && response.ok());
      // What a script would do after the load: give it time to.
      await page.waitForTimeout(300);
      // A click where the drawing is (an `onclick`, a link).
      await page.mouse.click(5, 5);
      await page.mouse.click(30, 20);
      await page.waitForTimeout(100);
    } catch (e) {
      errors.push(String(e));
    }
    await page.close();
    return { url, loaded, requests, dialogs, errors };
  }),
);
await browser.close();
process.stdout.write(JSON.stringify(results));
