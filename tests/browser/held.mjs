// A held table (its game's data changed while the server was down): each person's page offers
// to start it over on the data now. The first person's agreement shows on the other page,
// which looks again by itself; the second person's starts the game over on both pages.
import { openSeats, until, report } from './seats.mjs';

const { browser, seats } = await openSeats('#restart-agree:not([hidden])');
const [first, second] = seats;
const said = (s) => s.page.textContent('#data-text');
const held = await said(first);
await first.page.click('#restart-agree');
await until(async () => (await said(first)).includes('agreed: ' + first.name));
await until(async () => (await said(second)).includes('agreed: ' + first.name));
const secondSaw = await said(second);
await second.page.click('#restart-agree');
for (const s of seats) {
  await until(async () => (await s.page.locator('#board').isVisible()) && (await s.page.textContent('#status')) !== '');
}
const status = [];
for (const s of seats) status.push(await s.page.textContent('#status'));
await report(browser, seats, { held, secondSaw, status });
