// Plays a printplay table in Debian's Chromium, one browser context per person seat, by
// clicking the moves the page offers. Reads a JSON config file (argv[2]):
// {"exe": chromium path, "seats": [{"name", "url"}], "shots": folder or null}
// (with "shots", the first seat's page is pictured at 1280 and 390 px wide, light and dark,
// at its first turn after 20 clicks: the same seeded game and clicks give the same pictures)
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
  for (let i = 0; i < 1200; i++) { // up to a minute: CI machines are loaded
    if (await test()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out waiting for the page');
}
async function pictures(p) {
  // Every card image loaded, then each size and scheme.
  await p.waitForLoadState('networkidle');
  // From the top of the page, with no button in focus.
  await p.locator('h1').click();
  await p.mouse.wheel(0, -100000);
  for (const [w, h] of [[1280, 900], [390, 844]]) {
    for (const scheme of ['light', 'dark']) {
      await p.setViewportSize({ width: w, height: h });
      await p.emulateMedia({ colorScheme: scheme });
      await p.mouse.wheel(0, -100000);
      await p.waitForTimeout(300);
      await p.screenshot({ path: path.join(cfg.shots, `table-${w}-${scheme}.png`), fullPage: false });
    }
  }
  await p.setViewportSize({ width: 1280, height: 900 });
  await p.emulateMedia({ colorScheme: 'light' });
}

let clicks = 0;
let cardPresses = 0;
let pictured = false;
for (let step = 0; step < 2000; step++) {
  if (await over(seats[0].page)) break;
  let moved = false;
  for (const s of seats) {
    const buttons = s.page.locator('#moves button.move:not([disabled])');
    const n = await buttons.count();
    if (n === 0) continue;
    if (cfg.shots && !pictured && clicks >= 20 && s === seats[0]) {
      await pictures(s.page);
      pictured = true;
    }
    const k = await logCount(s.page);
    // Every third turn, by a card in the hand, from the keyboard: a card with one move plays
    // it; a card with several offers them, and one is clicked.
    const cards = s.page.locator('#hands button.card.playable');
    const nc = await cards.count();
    if (nc > 0 && k % 3 === 0) {
      await cards.nth(k % nc).press('Enter');
      cardPresses++;
      for (let i = 0; i < 40 && (await logCount(s.page)) === k; i++) {
        if (await s.page.locator('#picked').isVisible()) break;
        await s.page.waitForTimeout(50);
      }
      if ((await logCount(s.page)) === k && await s.page.locator('#picked').isVisible()) {
        const offered = s.page.locator('#moves button.move:not([disabled])');
        const m = await offered.count();
        if (m > 0) await offered.nth((k * 7 + 3) % m).click();
      }
      clicks++;
      await until(async () => (await logCount(s.page)) > k);
      moved = true;
      break;
    }
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

if (cfg.shots && !pictured) throw new Error('the game ended before the pictures were taken');

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
process.stdout.write(JSON.stringify({ clicks, cardPresses, seats: out }));
