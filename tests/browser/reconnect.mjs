// A table page whose server goes away and comes back: it starts the server itself (the
// printplay binary with "first" args, which prints the links), opens a seat's page, stops the
// server (SIGKILL), reads what the page says, starts the server again on the same port and
// store ("again" args), and plays a move once the page says it is back. Reads the JSON config
// file (argv[2]): {"exe", "printplay", "first", "again", "seats", "shots"}; prints what the
// connection line of the page of the seat to act said before, while down and after, and the log's length before and after.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { cfg, until } from './seats.mjs';

// Starts the server and answers it with its first `lines` output lines.
function serve(args, lines) {
  const child = spawn(cfg.printplay, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const got = [];
  return new Promise((resolve, reject) => {
    const rl = readline.createInterface({ input: child.stdout });
    rl.on('line', (l) => {
      got.push(l);
      if (got.length === lines) resolve({ child, lines: got });
    });
    child.on('exit', (code) => { if (got.length < lines) reject(new Error('the server ended: ' + code)); });
  });
}
function stop(child) {
  return new Promise((resolve) => { child.on('exit', resolve); child.kill('SIGKILL'); });
}

let server = await serve(cfg.first, 3);
const link = (seat) => server.lines.map((l) => l.trim()).find((l) => l.startsWith(seat + ' ')).slice(seat.length + 1);
const browser = await chromium.launch({ executablePath: cfg.exe, args: ['--no-sandbox'] });
const errors = [];
// Each person's page; the one whose seat is to act plays after the server is back.
const pages = [];
for (const seat of cfg.seats) {
  const p = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  p.on('pageerror', (e) => errors.push(String(e)));
  await p.goto(link(seat));
  await p.waitForSelector('#status:not(:empty)');
  pages.push(p);
}
await until(async () => {
  for (const p of pages) if (await p.locator('#moves button.move').count()) return true;
  return false;
});
let page = pages[0];
for (const p of pages) if (await p.locator('#moves button.move').count()) page = p;
const said = async () => ((await page.textContent('#connection')) || '').trim();
const before = (await page.isVisible('#connection')) ? await said() : '';
const logBefore = await page.locator('#log li').count();

await stop(server.child);
await until(async () => (await said()).includes('reconnecting'));
const down = await said();
const downVisible = await page.isVisible('#connection');
if (cfg.shots) await page.screenshot({ path: path.join(cfg.shots, 'connection-lost.png') });

server = await serve(cfg.again, 1);
await until(async () => (await said()).includes('is back'));
const back = await said();
if (cfg.shots) await page.screenshot({ path: path.join(cfg.shots, 'connection-back.png') });
await page.waitForSelector('#moves button.move:not([disabled])');
await page.click('#moves button.move');
await until(async () => (await page.locator('#log li').count()) > logBefore);
const logAfter = await page.locator('#log li').count();
await browser.close();
await stop(server.child);
process.stdout.write(JSON.stringify({ before, down, downVisible, back, logBefore, logAfter, errors }));
