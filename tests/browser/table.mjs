// Plays a printplay table in Debian's Chromium, one browser context per person seat, by
// clicking the moves the page offers. Reads a JSON config file (argv[2]):
// {"exe": chromium path, "seats": [{"name", "url"}], "shots": folder or null}
// (with "shots", the first seat's page is pictured at 1280 and 390 px wide, light and dark,
// at its first turn after 20 clicks: the same seeded game and clicks give the same pictures)
// and prints, as JSON, each seat's log as the page shows it, its DOM at the end and every
// response body and WebSocket frame it received.
import { cfg, openSeats, until, report } from './seats.mjs';
import path from 'node:path';

const { browser, seats } = await openSeats('#status:not(:empty)');

const logCount = (page) => page.locator('#log li').count();
const over = async (page) => (await page.locator('#status').textContent()).startsWith('Game over')
  || (await page.locator('#status').textContent()).startsWith('The engine stopped');
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

await report(browser, seats, { clicks, cardPresses });
