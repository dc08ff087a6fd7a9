// Plays a printplay table in Debian's Chromium, one browser context per person seat, by
// clicking the moves the page offers. Reads a JSON config file (argv[2]):
// {"exe": chromium path, "seats": [{"name", "url"}], "shots": folder or null}
// and prints, as JSON, each seat's log as the page shows it, its DOM at the end and every
// response body and WebSocket frame it received.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';

const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const browser = await chromium.launch({ executablePath: cfg.exe, args: ['--no-sandbox'] });
const seats = [];
for (const seat of cfg.seats) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const traffic = [];
  page.on('response', async (r) => { try { traffic.push(await r.text()); } catch (_) { /* redirects, aborted */ } });
  page.on('websocket', (ws) => ws.on('framereceived', (f) => traffic.push(String(f.payload))));
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(seat.url);
  await page.waitForSelector('#status:not(:empty)');
  seats.push({ name: seat.name, page, traffic, errors, context });
}

const logCount = (page) => page.locator('#log li').count();
const over = async (page) => (await page.locator('#status').textContent()).startsWith('Game over')
  || (await page.locator('#status').textContent()).startsWith('The engine stopped');
// Polls (the page's policy forbids the evaluated functions of waitForFunction).
async function until(test) {
  for (let i = 0; i < 400; i++) {
    if (await test()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out waiting for the page');
}
let clicks = 0;
for (let step = 0; step < 2000; step++) {
  if (await over(seats[0].page)) break;
  let moved = false;
  for (const s of seats) {
    const buttons = s.page.locator('#moves button.move:not([disabled])');
    const n = await buttons.count();
    if (n === 0) continue;
    const k = await logCount(s.page);
    await buttons.nth((k * 7 + 3) % n).click();
    clicks++;
    await until(async () => (await logCount(s.page)) > k);
    moved = true;
    break;
  }
  if (!moved) await seats[0].page.waitForTimeout(100);
}
// Every page shows the end once the last view arrives.
for (const s of seats) await until(() => over(s.page));

if (cfg.shots) {
  const p = seats[0].page;
  for (const [w, h] of [[1280, 900], [390, 844]]) {
    for (const scheme of ['light', 'dark']) {
      await p.setViewportSize({ width: w, height: h });
      await p.emulateMedia({ colorScheme: scheme });
      await p.screenshot({ path: path.join(cfg.shots, `table-${w}-${scheme}.png`), fullPage: false });
    }
  }
}

const out = [];
for (const s of seats) {
  out.push({
    name: s.name,
    log: await s.page.locator('#log li .what').allTextContents(),
    dom: await s.page.content(),
    traffic: s.traffic,
    errors: s.errors,
  });
}
await browser.close();
process.stdout.write(JSON.stringify({ clicks, seats: out }));
