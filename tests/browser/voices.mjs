// The table talk as testers use it (voices.js): a person sends chat holding markup through
// the page's form, every page shows it as text (no element, no script run); a note kept to
// oneself through the form shows on its writer's page only, a shared one on every page; who
// is connected; the turn in the title and icon. Reads the JSON config file (argv[2]):
// {"exe", "seats": [{"name", "url"}], "chat", "secret", "shared", "shots"}; prints the seats'
// report (seats.mjs) with what each page showed.
import path from 'node:path';
import { cfg, openSeats, until, report } from './seats.mjs';

const { browser, seats } = await openSeats('#chat-form');
const by = (name) => seats.find((s) => s.name === name);
const criminal = by('criminal');
const police = by('police');

await criminal.page.fill('#chat-text', cfg.chat);
await criminal.page.click('#chat-form button[type="submit"]');
for (const s of seats) {
  await until(async () => (await s.page.locator('#chat li .voices-text').allTextContents()).includes(cfg.chat));
}
await criminal.page.fill('#note-text', cfg.secret);
await criminal.page.fill('#note-card', 'Alibi');
await criminal.page.click('#note-form button[type="submit"]');
await until(async () => (await criminal.page.locator('#notes li .voices-text').allTextContents()).includes(cfg.secret));
await police.page.fill('#note-text', cfg.shared);
await police.page.check('#note-shared');
await police.page.click('#note-form button[type="submit"]');
for (const s of seats) {
  await until(async () => (await s.page.locator('#notes li .voices-text').allTextContents()).includes(cfg.shared));
}
// Every page connected: each sees the others.
await until(async () => /police/.test(await criminal.page.textContent('#present')));

const pages = {};
for (const s of seats) {
  pages[s.name] = {
    chat: await s.page.locator('#chat li .voices-text').allTextContents(),
    notes: await s.page.locator('#notes li .voices-text').allTextContents(),
    markup: await s.page.locator('#voices script, #voices img, #voices b').count(),
    pwned: await s.page.evaluate(() => window.pwned === undefined ? null : String(window.pwned)),
    present: await s.page.textContent('#present'),
    title: await s.page.title(),
    icon: await s.page.getAttribute('link[rel="icon"]', 'href'),
    status: await s.page.textContent('#status'),
  };
}
if (cfg.shots) {
  for (const width of [390, 1280]) {
    await criminal.page.setViewportSize({ width, height: 900 });
    await criminal.page.screenshot({ path: path.join(cfg.shots, `voices-${width}.png`), fullPage: true });
  }
}
await report(browser, seats, { pages });
