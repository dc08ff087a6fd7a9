'use strict';
// What testers say and do at the table: chat (everyone at the table reads it), notes on a
// move or a card (for the designer; for the other testers only if shared), who is connected,
// the turn told in the page's title and icon (and, if asked for, a sound), and the rematch
// (the same seats and links, a new seed, once every person agrees). It draws from
// the view table.js renders (`printplay:render`). Everything a tester wrote is untrusted: it
// goes in as text (textContent), never as markup.
(function () {
  const params = new URLSearchParams(location.search);
  const token = params.get('token') || '';
  const id = location.pathname.split('/').pop();
  const api = '/api/tables/' + encodeURIComponent(id);
  const query = '?token=' + encodeURIComponent(token);
  const MAX = 500; // src/limits.rs VOICE_MAX_CHARS
  const SOUND_KEY = 'printplay-turn-sound';
  const $ = (sel) => document.getElementById(sel);
  let built = false;
  let shownChat = '';
  let shownNotes = '';
  let shownAbout = '';
  let shownCards = '';
  let wasMyTurn = false;
  let icon = null;

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k of Object.keys(attrs || {})) e.setAttribute(k, String(attrs[k]));
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function clock(ms) {
    const d = new Date(ms);
    const two = (n) => String(n).padStart(2, '0');
    return two(d.getHours()) + ':' + two(d.getMinutes());
  }

  // The section, built once the first view arrives (a held table never shows it).
  function build() {
    document.head.append(el('link', { rel: 'stylesheet', href: '/assets/voices.css' }));
    const main = document.querySelector('main');
    const section = el('section', { id: 'voices', 'aria-labelledby': 'voices-h' });
    section.append(el('h2', { id: 'voices-h' }, 'Table talk'));
    section.append(el('p', { id: 'present' }));

    const turn = el('p', { class: 'voices-turn' });
    const sound = el('input', { type: 'checkbox', id: 'turn-sound' });
    sound.checked = localStorage.getItem(SOUND_KEY) === 'on';
    sound.addEventListener('change', () => localStorage.setItem(SOUND_KEY, sound.checked ? 'on' : 'off'));
    turn.append(sound, ' ', el('label', { for: 'turn-sound' }, 'Play a sound when it is my turn'));
    section.append(turn);

    const rematch = el('div', { id: 'rematch', hidden: '' });
    rematch.append(el('p', { id: 'rematch-text' }));
    const ask = el('button', { type: 'button', id: 'rematch-ask' }, 'Ask for a rematch');
    const no = el('button', { type: 'button', id: 'rematch-decline' }, 'Decline the rematch');
    ask.addEventListener('click', () => rematchSay(false));
    no.addEventListener('click', () => rematchSay(true));
    rematch.append(ask, ' ', no);
    section.append(rematch);

    section.append(el('h3', { id: 'chat-h' }, 'Chat'));
    section.append(el('ol', { id: 'chat', 'aria-labelledby': 'chat-h', 'aria-live': 'polite' }));
    const chatForm = el('form', { id: 'chat-form' });
    chatForm.append(el('label', { for: 'chat-text' }, 'Message to everyone at the table'));
    const row = el('div', { class: 'voices-row' });
    row.append(el('input', { type: 'text', id: 'chat-text', maxlength: MAX, autocomplete: 'off' }));
    row.append(el('button', { type: 'submit' }, 'Send'));
    chatForm.append(row);
    chatForm.addEventListener('submit', (ev) => { ev.preventDefault(); sendChat(); });
    section.append(chatForm);

    section.append(el('h3', { id: 'notes-h' }, 'Notes for the designer'));
    section.append(el('p', { class: 'voices-help' }, 'A note is kept for the designer. Other testers read it only if you share it.'));
    section.append(el('ol', { id: 'notes', 'aria-labelledby': 'notes-h' }));
    const noteForm = el('form', { id: 'note-form' });
    noteForm.append(el('label', { for: 'note-text' }, 'Note'));
    noteForm.append(el('textarea', { id: 'note-text', maxlength: MAX, rows: 2 }));
    noteForm.append(el('label', { for: 'note-move' }, 'About the move'));
    noteForm.append(el('select', { id: 'note-move' }));
    noteForm.append(el('label', { for: 'note-card' }, 'About the card (optional)'));
    noteForm.append(el('input', { type: 'text', id: 'note-card', list: 'note-cards', maxlength: MAX, autocomplete: 'off' }));
    noteForm.append(el('datalist', { id: 'note-cards' }));
    const share = el('p', { class: 'voices-share' });
    share.append(el('input', { type: 'checkbox', id: 'note-shared' }), ' ', el('label', { for: 'note-shared' }, 'Share it with the other testers'));
    noteForm.append(share);
    noteForm.append(el('button', { type: 'submit' }, 'Keep the note'));
    noteForm.addEventListener('submit', (ev) => { ev.preventDefault(); sendNote(); });
    section.append(noteForm);
    section.append(el('p', { id: 'voices-error', role: 'alert', hidden: '' }));
    main.append(section);

    icon = document.querySelector('link[rel="icon"]');
    if (!icon) {
      icon = el('link', { rel: 'icon', type: 'image/svg+xml', href: '/assets/icon.svg' });
      document.head.append(icon);
    }
    built = true;
  }

  function problem(text) {
    const e = $('voices-error');
    e.textContent = text || '';
    e.hidden = !text;
  }

  async function post(path, body) {
    const res = await fetch(api + path + query, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      cache: 'no-store',
    });
    if (!res.ok) {
      const data = await res.json().catch(() => ({}));
      throw new Error(data.error || ('the server answered ' + res.status));
    }
  }

  async function rematchSay(decline) {
    try {
      await post('/rematch', { decline });
      problem('');
    } catch (e) {
      problem('Rematch: ' + e.message);
    }
  }

  // A person may ask for a rematch, agree to one asked, or decline it.
  function renderRematch(view) {
    const box = $('rematch');
    const r = view.rematch || {};
    box.hidden = !view.you || (view.data && view.data.closed);
    if (box.hidden) return;
    const asked = r.asked;
    const agreed = !!asked && asked.agreed.indexOf(view.you) >= 0;
    const round = r.round ? ' This is game ' + (r.round + 1) + ' at this table.' : '';
    $('rematch-text').textContent = asked
      ? 'A rematch (same seats and links, a new seed) is asked: agreed ' + asked.agreed.join(', ') + '; waiting for ' + (asked.waiting.join(', ') || 'nobody') + '.' + round
      : 'A rematch plays again with the same seats and links and a new seed, once every person agrees; the game played is kept for the designer.' + round;
    const ask = $('rematch-ask');
    ask.textContent = asked ? 'Agree to the rematch' : 'Ask for a rematch';
    ask.hidden = agreed;
    $('rematch-decline').hidden = !asked;
  }

  async function sendChat() {
    const input = $('chat-text');
    const text = input.value.trim();
    if (!text) return;
    try {
      await post('/chat', { text });
      input.value = '';
      problem('');
    } catch (e) {
      problem('Not sent: ' + e.message);
    }
  }

  async function sendNote() {
    const text = $('note-text').value.trim();
    if (!text) return;
    const body = { text, shared: $('note-shared').checked };
    const move = $('note-move').value;
    if (move !== '') body.move = Number(move);
    const card = $('note-card').value.trim();
    if (card) body.card = card;
    try {
      await post('/notes', body);
      $('note-text').value = '';
      $('note-card').value = '';
      $('note-shared').checked = false;
      problem('');
    } catch (e) {
      problem('Not kept: ' + e.message);
    }
  }

  function line(v, withCard) {
    const li = el('li');
    li.append(el('span', { class: 'voices-who' }, v.who + (v.mine ? ' (you)' : '')));
    li.append(' ', el('span', { class: 'voices-when' }, clock(v.at) + ', move ' + v.move));
    if (withCard) {
      if (v.card) li.append(' ', el('span', { class: 'voices-card' }, 'on ' + v.card));
      li.append(' ', el('span', { class: 'voices-when' }, v.shared ? '(shared)' : '(for the designer)'));
    }
    li.append(el('span', { class: 'voices-text' }, v.text));
    return li;
  }

  function renderList(listId, items, withCard, shown) {
    const key = JSON.stringify(items);
    if (key === shown) return shown;
    const list = $(listId);
    const before = list.children.length;
    // New lines are appended (read out once); a list that changed otherwise is drawn again.
    if (items.length >= before && before > 0 && shown && JSON.stringify(items.slice(0, before)) === JSON.stringify(JSON.parse(shown).slice(0, before))) {
      for (const v of items.slice(before)) list.append(line(v, withCard));
    } else {
      list.replaceChildren(...items.map((v) => line(v, withCard)));
    }
    return key;
  }

  // The card names the view shows, for the note's card field.
  function cardNames(view) {
    const names = new Set();
    const walk = (x) => {
      if (Array.isArray(x)) { x.forEach(walk); return; }
      if (x && typeof x === 'object') {
        if (typeof x.name === 'string' && 'face' in x) names.add(x.name);
        Object.values(x).forEach(walk);
      }
    };
    walk(view.cards);
    walk(view.legal);
    return Array.from(names).sort();
  }

  function renderAbout(view) {
    const log = view.log || [];
    const key = view.length + ':' + log.length;
    if (key === shownAbout) return;
    shownAbout = key;
    const select = $('note-move');
    const kept = select.value;
    const options = [el('option', { value: '' }, 'This moment (move ' + (view.moves || 0) + ')')];
    const from = Math.max(0, log.length - 30);
    for (let k = log.length - 1; k >= from; k--) {
      const e = log[k] || {};
      const words = e.action || e.text || '';
      options.push(el('option', { value: String(k + 1) }, 'Move ' + (k + 1) + ': ' + words));
    }
    select.replaceChildren(...options);
    if (Array.from(select.options).some((o) => o.value === kept)) select.value = kept;
    const names = cardNames(view);
    const cards = JSON.stringify(names);
    if (cards !== shownCards) {
      shownCards = cards;
      $('note-cards').replaceChildren(...names.map((n) => el('option', { value: n })));
    }
  }

  // Who is connected, as the WebSocket tells it (table.js passes on `printplay:message`).
  let present = null;
  let you = null;
  document.addEventListener('printplay:message', (ev) => {
    if (!ev.detail || ev.detail.type !== 'presence') return;
    present = ev.detail.present;
    if (built) renderPresent({ you });
  });

  function renderPresent(view) {
    you = view.you;
    const p = present || { seats: [], spectators: 0 };
    const seats = (p.seats || []).map((s) => s === view.you ? s + ' (you)' : s);
    const parts = seats.slice();
    if (p.spectators === 1) parts.push('1 spectator');
    else if (p.spectators > 1) parts.push(p.spectators + ' spectators');
    $('present').textContent = 'Connected now: ' + (parts.length ? parts.join(', ') : 'nobody') + '.';
  }

  function beep() {
    try {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      const ctx = new Ctx();
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = 660;
      gain.gain.value = 0.08;
      osc.connect(gain).connect(ctx.destination);
      osc.start();
      osc.stop(ctx.currentTime + 0.18);
      osc.onended = () => ctx.close();
    } catch (_) { /* no sound: the title and icon still say it */ }
  }

  // Your turn: the title starts with it and the icon changes, so a tester in another tab
  // sees it; a sound too if asked for.
  function renderTurn(view) {
    const looking = (view.log || []).length < (view.length || 0);
    const mine = !!view.you && !view.outcome && !looking && (view.to_act || []).indexOf(view.you) >= 0;
    if (mine) document.title = '(Your turn) ' + document.title.replace(/^\(Your turn\) /, '');
    icon.setAttribute('href', mine ? '/assets/icon-turn.svg' : '/assets/icon.svg');
    if (mine && !wasMyTurn && $('turn-sound').checked) beep();
    wasMyTurn = mine;
  }

  document.addEventListener('printplay:render', (ev) => {
    const view = ev.detail;
    if (!view) return;
    if (!built) build();
    shownChat = renderList('chat', view.chat || [], false, shownChat);
    shownNotes = renderList('notes', view.notes || [], true, shownNotes);
    renderAbout(view);
    renderPresent(view);
    renderRematch(view);
    renderTurn(view);
  });
})();
