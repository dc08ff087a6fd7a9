// Plays a whole game at a printplay table by clicking what each move means on the drawn
// board (hexes, map cards, pieces, cards in hand, the zones the page offers), never a move
// button, in Debian's Chromium. Reads a JSON config file (argv[2]): {"exe", "seats": [{"name",
// "url"}] (one person seat; bots take the others), "shots": folder or null, "prefix"}. With
// "shots", pictures the page at 1280 and 390 px wide, light and dark, once `shotAfter` clicks
// were made and a move is half made (its first click marked). Prints, as JSON: the clicks by kind of target, the move buttons pressed (none),
// the log as the page shows it, the final status, each step that lit nothing to click, and
// the page's errors.
import { cfg, openSeats, until, report } from './seats.mjs';
import path from 'node:path';

const { browser, seats } = await openSeats('#status:not(:empty)');
const page = seats[0].page;
const status = async () => (await page.locator('#status').textContent()) || '';
const over = async () => /^(Game over|The engine stopped)/.test(await status());
const logCount = () => page.locator('#log li').count();
// What the page lights to click next: cells, pieces, cards, zones (drawn, or offered as
// chips where the page draws no place for them); never a move button.
const lit = () => page.locator('[data-target].can:not(button.move)');

async function pictures() {
  await page.waitForLoadState('networkidle');
  for (const [w, h] of [[1280, 900], [390, 844]]) {
    for (const scheme of ['light', 'dark']) {
      await page.setViewportSize({ width: w, height: h });
      await page.emulateMedia({ colorScheme: scheme });
      await page.mouse.wheel(0, -100000);
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(cfg.shots, `${cfg.prefix}-${w}-${scheme}.png`), fullPage: false });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

const clicks = { cell: 0, piece: 0, card: 0, zone: 0 };
let moveButtons = 0;
let total = 0;
let pictured = false;
let stuck = 0;
for (let step = 0; step < 4000 && !(await over()); step++) {
  const n = await lit().count();
  if (n === 0) { await page.waitForTimeout(60); stuck++; continue; }
  // (At a moment when a move is half made, its first click marked and its next lit: what the
  // book's pictures show, whatever moment a bot's timing brings.)
  if (cfg.shots && !pictured && total >= (cfg.shotAfter || 10) && await page.locator('#picked').isVisible()) {
    await pictures();
    pictured = true;
  }
  // Prefer what is drawn (board, hand, cards) to the chips, one pick in four aside.
  const all = await lit().evaluateAll((els) => els.map((e) => [e.dataset.target, !!e.dataset.extra]));
  const drawn = all.map((x, i) => [x, i]).filter(([x]) => !x[1]);
  const pool = drawn.length && (step % 4 !== 0 || drawn.length === all.length) ? drawn : all.map((x, i) => [x, i]);
  const [[key], i] = pool[(step * 7 + 3) % pool.length];
  const k = await logCount();
  const before = await page.locator('#picked-text').textContent();
  const litBefore = all.map((x) => x[0]).join(' ');
  const litNow = async () => (await lit().evaluateAll((els) => els.map((e) => e.dataset.target))).join(' ');
  if (process.env.PP_DEBUG) process.stderr.write(step + ' ' + key + ' | ' + before + '\n');
  await lit().nth(i).click({ force: true });
  clicks[key.split(':')[0]]++;
  total++;
  // A move played (the log grows) or the next step lit.
  await until(async () => (await logCount()) > k || (await page.locator('#picked-text').textContent()) !== before
    || (await litNow()) !== litBefore || await over());
}
await until(over);
if (cfg.shots && !pictured) await pictures();
await report(browser, seats, { clicks, moveButtons, total, stuck, status: await status() });
