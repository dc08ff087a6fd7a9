'use strict';
// The home page: the games, and a form that makes a table and shows its links.
(function () {
  const $ = (sel) => document.getElementById(sel);
  let games = [];

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function showError(text) {
    $('error').textContent = text || '';
    $('error').hidden = !text;
  }

  function chosen() {
    return games.find((g) => g.slug === $('game').value);
  }

  function seatForm() {
    const g = chosen();
    const box = $('seats');
    box.replaceChildren(el('legend', null, 'Seats'));
    const vbox = $('variants');
    vbox.replaceChildren(el('legend', null, 'Rule variants'));
    if (!g) return;
    const players = $('players');
    players.min = String(g.players.min);
    players.max = String(g.players.max);
    let n = Number(players.value);
    if (!(n >= g.players.min && n <= g.players.max)) n = g.players.min;
    players.value = String(n);
    const names = g.seats[String(n)] || [];
    names.forEach((name, i) => {
      const idf = 'seat-' + i;
      const label = el('label', null, name);
      label.setAttribute('for', idf);
      const sel = el('select');
      sel.id = idf;
      for (const who of ['person'].concat(g.bots)) {
        const o = el('option', null, who);
        o.value = who;
        sel.append(o);
      }
      if (i > 0) sel.value = 'heuristic';
      box.append(label, sel);
    });
    for (const v of g.variants) {
      const idf = 'variant-' + v.name;
      const label = el('label', null, v.name + ': ' + v.ambiguity);
      label.setAttribute('for', idf);
      const sel = el('select');
      sel.id = idf;
      sel.dataset.variant = v.name;
      for (const value of v.values) {
        const o = el('option', null, value);
        o.value = value;
        sel.append(o);
      }
      vbox.append(label, sel);
    }
    vbox.hidden = g.variants.length === 0;
  }

  async function load() {
    const res = await fetch('/api/games', { cache: 'no-store' });
    const data = await res.json();
    games = data.games.filter((g) => g.playable);
    const list = $('games');
    for (const g of data.games) {
      const li = el('li');
      li.append(el('strong', null, g.name), document.createTextNode(' (' + g.slug + '): ' + g.summary));
      if (!g.playable) li.append(el('span', 'quiet', ' Not playable here: ' + g.note));
      list.append(li);
    }
    for (const p of data.problems) $('problems').append(el('li', 'problem', p));
    $('problems-box').hidden = data.problems.length === 0;
    const held = data.held || [];
    for (const h of held) $('held').append(el('li', 'problem', 'Table ' + h.id + ': ' + h.note));
    $('held-box').hidden = held.length === 0;
    const sel = $('game');
    for (const g of games) {
      const o = el('option', null, g.name);
      o.value = g.slug;
      sel.append(o);
    }
    seatForm();
  }

  $('game').addEventListener('change', seatForm);
  $('players').addEventListener('change', seatForm);
  $('new-table').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const g = chosen();
    if (!g) return;
    const seats = Array.from(document.querySelectorAll('#seats select')).map((s) => s.value);
    const variants = {};
    for (const s of document.querySelectorAll('#variants select')) variants[s.dataset.variant] = s.value;
    const body = { game: g.slug, players: Number($('players').value), seats, variants };
    if ($('seed').value !== '') body.seed = Number($('seed').value);
    try {
      // Making a table needs the admin token of the link the server printed (`/?admin=...`).
      const admin = new URLSearchParams(location.search).get('admin') || '';
      const res = await fetch('/api/tables?admin=' + encodeURIComponent(admin), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const data = await res.json();
      if (!res.ok) throw new Error(data.error || 'the server answered ' + res.status);
      showError('');
      const list = $('link-list');
      list.replaceChildren();
      const item = (label, link) => {
        const li = el('li');
        const a = el('a', null, location.origin + link);
        a.setAttribute('href', link);
        li.append(el('strong', null, label + ' '), a);
        list.append(li);
      };
      for (const s of data.seats) item(s.seat, s.link);
      item('spectator', data.spectator);
      $('links').hidden = false;
    } catch (e) {
      showError(e.message);
    }
  });
  load().catch((e) => showError(e.message));
})();
