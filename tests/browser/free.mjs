// Plays a printplay free table in Debian's Chromium, one browser context per seat, through the
// free table's own view: a pile's zoom, a hand card dragged onto the table, a card's zoom, a
// piece picked up and put down, a card handed over, the turn passed, the table closed.
// Reads a JSON config file (argv[2]): {"exe", "seats": [{"name", "url"}], "shots": folder or
// null} and prints, as JSON, each seat's log as the page shows it, its DOM at the end and every
// response body and WebSocket frame it received.
import { cfg, openSeats, until, report } from './seats.mjs';
import path from 'node:path';

const { browser, seats } = await openSeats('#free');

const logCount = (page) => page.locator('#log li').count();
let clicks = 0;
// Runs `act` on the page and waits for one more log entry.
async function step(page, act) {
  const k = await logCount(page);
  await act();
  clicks++;
  await until(async () => (await logCount(page)) > k);
  await page.waitForSelector('#free');
}
// Clicks the move whose words start with `start` in the grouped move list.
const move = (page, start) => step(page, () => page.locator('#moves button.move').filter({ hasText: start }).first().click());
// Opens a zoom with `open`, then clicks its move that starts with `start`.
const viaZoom = (page, open, start) => step(page, async () => {
  await open();
  await page.locator('dialog.free-zoom[open] .free-zoom-moves button').filter({ hasText: start }).first().click();
});

const [a, b] = seats.map((s) => s.page);
await viaZoom(a, () => a.locator('.free-piles .free-stack').first().click(), 'shuffle the ');
// The piles are the build's own backs, and they load (served by the table's face route).
await until(async () => (await a.locator('.free-piles img.free-face').count()) > 0);
const drawn = await a.locator('.free-piles img.free-face').first().evaluate(
  (img) => img.decode().then(() => img.naturalWidth, () => 0));
if (!(drawn > 0)) throw new Error('a pile is not drawn with its printed back');
await move(a, 'deal 1 card from ');
await move(a, 'draw a card from ');
// Drag a hand card onto the table: played face up.
await step(a, () => a.locator('.free-hand .free-card').first().dragTo(a.locator('.free-table-area .free-drop')));
await viaZoom(a, () => a.locator('.free-hand .free-card').first().click(), 'face down onto the table');
await viaZoom(a, () => a.locator('.free-supply .free-chip').first().click(), 'pick up ');
await step(a, () => a.locator('#moves button.move').filter({ hasText: 'put the ' }).filter({ hasText: 'in front of' }).first().click());
await viaZoom(a, () => a.locator('.free-hand .free-card').first().click(), 'give ');
await move(a, 'end the turn');
await until(async () => (await b.locator('#moves button.move').count()) > 0);
await move(b, 'draw a card from ');
await viaZoom(b, () => b.locator('.free-hand .free-card').last().click(), 'play ');
await move(b, 'close the table');
for (const s of seats) await until(async () => (await s.page.locator('#status').textContent()).startsWith('The table was closed'));

if (cfg.shots) {
  const p = seats[0].page;
  for (const [w, h] of [[1280, 900], [390, 844]]) {
    for (const scheme of ['light', 'dark']) {
      await p.setViewportSize({ width: w, height: h });
      await p.emulateMedia({ colorScheme: scheme });
      await p.screenshot({ path: path.join(cfg.shots, `free-${w}-${scheme}.png`), fullPage: true });
    }
  }
}

await report(browser, seats, { clicks });
