// What the table scripts share: one browser context per seat, each recording every response
// body and WebSocket frame it receives and every page error; polling; and the JSON report
// (each seat's log as the page shows it, its DOM at the end, its traffic and errors).
import { chromium } from 'playwright-core';
import fs from 'node:fs';

// Reads the JSON config file (argv[2]): {"exe", "seats": [{"name", "url"}], "shots"}.
export const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));

// Opens every seat's link in its own context and waits for `ready` on each page.
export async function openSeats(ready) {
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
    await page.waitForSelector(ready);
    seats.push({ name: seat.name, page, traffic, errors, context });
  }
  return { browser, seats };
}

// Polls (the page's policy forbids the evaluated functions of waitForFunction).
export async function until(test) {
  for (let i = 0; i < 1200; i++) { // up to a minute: CI machines are loaded
    if (await test()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out waiting for the page');
}

// Prints the report with `extra` fields beside the seats, and closes the browser.
export async function report(browser, seats, extra) {
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
  process.stdout.write(JSON.stringify({ ...extra, seats: out }));
}
