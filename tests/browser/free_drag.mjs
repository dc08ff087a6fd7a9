// Plays a printplay free table with boards (the scaffold's: a hex board in the middle, a
// square mat for each seat, markers, a deck) in Debian's Chromium by dragging only, pressing
// no move button: pieces from the supply, from a cell and from in front of the seat onto
// cells of the drawn boards; cards from the hand onto the table, from one place of the table
// to another, from the pile into the hand and from the table onto the discards. Then checks
// the page with axe-core (light and dark, 390 and 1280 px) and, with "shots", saves
// screenshots. Reads a JSON config file (argv[2]): {"exe", "seats": [{"name", "url"}],
// "shots": folder or null} and prints, as JSON, the drags made, the axe results, and each
// seat's log, DOM, traffic and errors.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { cfg, openSeats, until, report } from './seats.mjs';

const { browser, seats } = await openSeats('#free .free-drawn');
const a = seats[0].page;

const logCount = (page) => page.locator('#log li').count();
let drags = 0;
// Drags `from` onto `to` and waits for `entries` more entries of the log.
async function drag(from, to, entries) {
  const k = await logCount(a);
  await a.locator(from).first().dragTo(a.locator(to).first());
  drags++;
  await until(async () => (await logCount(a)) >= k + entries);
  await a.waitForSelector('#free .free-drawn');
}

// The drawn boards and the pieces' faces load (the table's face route).
await until(async () => (await a.locator('#free img.free-board-img').count()) >= 2);
for (const img of await a.locator('#free img.free-board-img').all()) {
  const w = await img.evaluate((i) => i.decode().then(() => i.naturalWidth, () => 0));
  if (!(w > 0)) throw new Error('a board is not drawn');
}
// A piece from the supply onto a hex of the board (picked up, then put down: two entries).
await drag('.free-supply [data-drag^="piece:marker@supply"]', '[data-drop="cell:1/1,-1"]', 2);
// The piece the set-up placed on the board's middle hex, onto another hex.
await drag('[data-drag="piece:marker@1/0,0"]', '[data-drop="cell:1/0,1"]', 2);
// The piece in front of the seat onto the seat's own mat.
await drag('.free-seats [data-drag="piece:marker@front 1"]', '[data-drop="cell:2/2,3"]', 2);
// A card from the hand onto the table, another onto a new place after it.
await drag('.free-hand [data-drag^="card:"]', '.free-table-area .free-drop', 1);
await drag('.free-hand [data-drag^="card:"]', '.free-table-area [data-drop="zone:table place 2"]', 1);
// The card at place 1 onto a new place after the last: between two places of the table.
await drag('[data-drag="zone:table place 1"]', '[data-drop="zone:table place 3"]', 1);
// The pile's top card into the hand; a card of the table onto its deck's discards.
await drag('.free-piles [data-drag^="zone:pile "]', '.free-hand', 1);
await drag('[data-drag="zone:table place 2"]', '.free-piles [data-drop^="zone:discards "]', 1);

// A phone (390 px, a touch screen): a finger that swipes over a card scrolls the page and
// carries nothing; a finger held on the pile's top card, then moved onto the hand, draws it.
// Touches are the browser's own (CDP Input.dispatchTouchEvent), so the page's touch-action
// and its listeners decide, as on a phone.
const touch = {};
{
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const p = await context.newPage();
  const errors = [];
  p.on('pageerror', (e) => errors.push(String(e)));
  await p.goto(cfg.seats[0].url);
  await p.waitForSelector('#free .free-drawn');
  const cdp = await context.newCDPSession(p);
  const pause = (ms) => new Promise((r) => setTimeout(r, ms));
  // One finger from `from` to `to` in `steps` moves 16 ms apart, held still `hold` ms first.
  async function finger(from, to, hold, steps) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from[0], y: from[1] }] });
    if (hold) await pause(hold);
    for (let i = 1; i <= steps; i++) {
      const x = from[0] + (to[0] - from[0]) * i / steps;
      const y = from[1] + (to[1] - from[1]) * i / steps;
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
      await pause(16);
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  }
  const middle = async (sel) => {
    const b = await p.locator(sel).first().boundingBox();
    return [b.x + b.width / 2, b.y + b.height / 2];
  };
  const scrollY = () => p.locator('body').evaluate(() => window.scrollY);
  const card = '.free-hand [data-drag^="card:"]';
  const k = await logCount(p);
  // The swipe: up from the middle of the hand's card to the top of the screen, at once.
  const before = await scrollY();
  const at = await middle(card);
  touch.swipeFrom = at[1];
  await finger(at, [at[0], 20], 0, 12);
  await pause(400);
  touch.scrolled = (await scrollY()) - before;
  touch.swipeMoves = (await logCount(p)) - k;
  touch.swipeGhost = await p.locator('.free-ghost').count();
  // The drag: the hand's heading at the top of the screen (the table and the pile below it),
  // the pile's top card held, then moved onto the hand.
  await p.locator('.free-hand h3').evaluate((h) => h.scrollIntoView({ block: 'start' }));
  await pause(300);
  const pile = await middle('.free-piles [data-drag^="zone:pile "]');
  const hand = await middle('.free-hand h3');
  touch.inView = pile[1] > 0 && pile[1] < 844 && hand[1] > 0 && hand[1] < 844;
  // The hand comes before the table and the piles, so that a phone shows it first.
  const top = async (sel) => (await p.locator(sel).first().boundingBox()).y;
  touch.handFirst = (await top('.free-hand')) < (await top('.free-table-area')) && (await top('.free-table-area')) < (await top('.free-piles'));
  const y0 = await scrollY();
  // (Held well past the page's long press, so that a loaded machine's late timer still lifts.)
  await finger(pile, hand, 1000, 15);
  // (A minute at most, as `until`, but said in the report when it does not come.)
  for (let i = 0; i < 1200 && (await logCount(p)) < k + 1; i++) await pause(50);
  touch.dragMoves = (await logCount(p)) - k;
  touch.dragScrolled = (await scrollY()) - y0;
  touch.errors = errors;
  await context.close();
  if (touch.dragMoves > 0) await until(async () => (await logCount(a)) >= k + 1);
}

// Each card once: the table's own card groups (table.js) are not shown beside the free
// table's, and each hidden hand is one group of backs in its seat's entry.
const once = {
  others: await a.locator('#table-cards .card:visible, #table-cards figure:visible').count(),
  onTable: await a.locator('.free-table-area .free-card').count(),
  hiddenGroups: await a.locator('.free-seats .free-backs').count(),
};

// axe-core on the seat's page as drawn now, light and dark, at a phone's width and a
// desktop's (the checker is injected past the page's policy, in contexts of their own).
const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const axe = [];
for (const scheme of ['light', 'dark']) {
  for (const width of [390, 1280]) {
    const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(cfg.seats[0].url);
    await page.waitForSelector('#free .free-drawn');
    await page.waitForLoadState('networkidle').catch(() => {});
    await page.addScriptTag({ content: axeSource });
    const found = await page.evaluate(async () => {
      // eslint-disable-next-line no-undef
      const r = await axe.run(document, { resultTypes: ['violations'] });
      return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((x) => x.target.join(' ')) }));
    });
    const wider = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (cfg.shots) await page.screenshot({ path: path.join(cfg.shots, `free-board-${width}-${scheme}.png`), fullPage: true });
    axe.push({ scheme, width, violations: found, wider });
    await context.close();
  }
}

await report(browser, seats, { drags, axe, once, touch });
