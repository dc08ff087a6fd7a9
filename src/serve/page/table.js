'use strict';
// The table's page: everything shown comes from the JSON API as text (never as HTML).
(function () {
  const params = new URLSearchParams(location.search);
  const token = params.get('token') || '';
  const id = location.pathname.split('/').pop();
  const api = '/api/tables/' + encodeURIComponent(id);
  // The language the cards (their faces and names), the boards and the rules reference are
  // given in (`?lang=`, one of the game's `languages`; the game's first without it).
  const lang = params.get('lang');
  const query = '?token=' + encodeURIComponent(token) + (lang ? '&lang=' + encodeURIComponent(lang) : '');
  const $ = (sel) => document.getElementById(sel);
  let now = null;       // the latest view of the game
  let travel = null;    // the move count looked back to, or null
  let socket = null;
  let live = null;      // the view as this connection's messages built it
  let retry = 500;
  let picked = null;    // the id of the card whose moves are shown, or null
  let path = [];        // the targets clicked so far (keys), toward one move
  let publicDecided = false;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  // A name under a face, where a caption is a card's width, in the language the cards or,
  // for a piece, the pieces are printed in (the page itself is in English). A name with a
  // long word keeps the server's hyphenation points of it (soft hyphens) aside, for
  // fitNames.
  function nameEl(tag, cls, view, name, rest, piece) {
    const cards = view.cards || {};
    const plain = name + (rest || '');
    const e = el(tag, cls, plain);
    const marked = (cards.shown || {})[name];
    if (marked) {
      e.dataset.plain = plain;
      e.dataset.marked = marked + (rest || '');
    }
    const lang = piece ? cards.pieces_lang : cards.lang;
    if (lang) e.lang = lang;
    return e;
  }

  // Each name under a face (here and in free.js) whose longest word is wider than its
  // caption breaks that word between syllables, with a hyphen (its marked form); the others
  // keep their words whole, since a word that fits is better not broken. Measured at once for
  // every name (each width read, then each longest word's, then the texts written), after
  // each render and when the window's width changes. The label of the button the caption is
  // on says what the caption shows.
  function fitNames() {
    const names = Array.from(document.querySelectorAll('[data-marked]'));
    const label = (e, from, to) => {
      const owner = e.closest('button[aria-label]');
      const said = owner && owner.getAttribute('aria-label');
      if (said && said.indexOf(from) >= 0) owner.setAttribute('aria-label', said.replace(from, to));
    };
    for (const e of names) {
      if (e.textContent !== e.dataset.plain) {
        label(e, e.dataset.marked, e.dataset.plain);
        e.textContent = e.dataset.plain;
      }
    }
    const room = names.map((e) => e.getBoundingClientRect().width);
    names.forEach((e) => e.classList.add('measure-words'));
    const longest = names.map((e) => e.getBoundingClientRect().width);
    names.forEach((e) => e.classList.remove('measure-words'));
    names.forEach((e, i) => {
      if (room[i] > 0 && longest[i] > room[i] + 0.5) {
        label(e, e.dataset.plain, e.dataset.marked);
        e.textContent = e.dataset.marked;
      }
    });
  }
  let fitWidth = window.innerWidth;
  window.addEventListener('resize', () => {
    if (window.innerWidth === fitWidth) return;
    fitWidth = window.innerWidth;
    fitNames();
  });

  function showError(text) {
    const e = $('error');
    e.textContent = text || '';
    e.hidden = !text;
  }

  function whoLine(view) {
    const seats = view.seats.map((s) => s.name + (s.name === view.you ? ' (you)' : s.plays === 'person' ? ' (a person)' : ' (' + s.plays + ')'));
    const me = view.you ? 'You play the ' + view.you + '.' : 'You are watching: you see what every player sees.';
    return me + ' Seats: ' + seats.join(', ') + '.';
  }

  function statusLine(view) {
    if (view.failure) return 'The engine stopped: ' + view.failure;
    if (view.outcome) {
      const o = view.outcome;
      const results = view.seats.map((s, i) => {
        const r = o.returns[i];
        const word = r >= 1 ? 'won' : r > 0 ? 'shared the win' : 'lost';
        const pts = o.points ? ' (' + o.points[i] + ' points)' : '';
        return s.name + ' ' + word + pts;
      });
      return 'Game over after ' + o.moves + ' moves: ' + o.ending + '. ' + results.join(', ') + '.';
    }
    if (travel !== null) return 'Looking back at the table after ' + travel + ' entries of the log.';
    if (view.to_act.length === 0) return 'Waiting for the table.';
    if (view.you && view.to_act.indexOf(view.you) >= 0) return 'Your turn.';
    return 'The ' + view.to_act.join(', ') + ' to act.';
  }

  // The moves of the seat that involve a card (the engine names a move's cards).
  function movesOf(view, id) {
    if (travel !== null || !view.you) return [];
    return view.legal.filter((m) => (m.cards || []).some((c) => c.id === id));
  }

  // Clicking what a move means: each legal move says where it acts (`at`, target keys in
  // the order a person clicks them). The moves whose targets begin with what was clicked.
  function candidates(view) {
    if (travel !== null || !view.you) return [];
    return view.legal.filter((m) => (m.at || []).length > path.length && path.every((k, i) => m.at[i] === k)
      || (m.at || []).length === path.length && path.length > 0 && path.every((k, i) => m.at[i] === k));
  }
  function nextKeys(view) {
    const keys = new Set();
    for (const m of candidates(view)) if (m.at.length > path.length) keys.add(m.at[path.length]);
    return keys;
  }
  function starts(view, key) {
    return view.legal.some((m) => (m.at || [])[0] === key);
  }
  // A click on a target: the move it completes is played; else what is left to click lights.
  function clickTarget(view, key, cellKey) {
    if (travel !== null || !view.you || !view.legal.length) return false;
    const next = nextKeys(view);
    let k = next.has(key) ? key : (cellKey && next.has(cellKey) ? cellKey : null);
    if (k === null && path.length && path[path.length - 1] === key) {
      // The last target again: stop there (a shorter move among longer ones).
      const exact = candidates(view).filter((m) => m.at.length === path.length);
      if (exact.length === 1) { const m = exact[0]; path = []; picked = null; play(m.index, view.moves); return true; }
    }
    if (k === null) {
      k = starts(view, key) ? key : (cellKey && starts(view, cellKey) ? cellKey : null);
      if (k === null) { if (path.length) { path = []; render(view); } return false; }
      path = [];
    }
    path.push(k);
    picked = null;
    const left = candidates(view);
    const exact = left.filter((m) => m.at.length === path.length);
    const longer = left.filter((m) => m.at.length > path.length);
    if (exact.length === 1 && longer.length === 0) {
      path = [];
      play(exact[0].index, view.moves);
      return true;
    }
    if (left.length === 0) path = [];
    render(view);
    return true;
  }
  function targeted(view) {
    return travel === null && !!view.you && view.legal.some((m) => (m.at || []).length > 0);
  }
  // Marks what can be clicked next and what was clicked.
  function lightTargets(view) {
    const next = nextKeys(view);
    for (const e of document.querySelectorAll('[data-target]')) {
      const k = e.dataset.target;
      const can = next.has(k) || !!(e.dataset.cell && next.has(e.dataset.cell) && !e.dataset.cellOnly);
      e.classList.toggle('can', can);
      e.classList.toggle('chosen', path.indexOf(k) >= 0);
    }
    // Targets the page draws nowhere (a zone it has no place for): offered as chips.
    const extra = $('targets-extra');
    extra.replaceChildren();
    const drawn = new Set(Array.from(document.querySelectorAll('[data-target]')).map((e) => e.dataset.target));
    for (const k of next) {
      if (drawn.has(k)) continue;
      const b = el('button', 'target can', targetWords(k));
      b.type = 'button';
      b.dataset.target = k;
      b.dataset.extra = '1';
      extra.append(b);
    }
    extra.hidden = extra.childElementCount === 0;
  }
  // A target in words: the name of what the page draws for it, else its key's name.
  function targetWords(key) {
    const e = document.querySelector('[data-target="' + CSS.escape(key) + '"]:not([data-extra])');
    const img = e && e.querySelector('img');
    const title = e && e.querySelector('title');
    const own = e && (e.dataset.name || e.getAttribute('alt') || e.getAttribute('title'));
    const name = own || (img && img.getAttribute('alt')) || (title && title.textContent) || '';
    const rest = key.slice(key.indexOf(':') + 1);
    const words = name || (key.startsWith('cell:') ? 'the cell ' + rest
      : key.startsWith('zone:') ? rest : rest.split('@')[0].replace(/-/g, ' '));
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  // A card as the build prints it: its face (an image the server drew), its name under it
  // and how many. A card some of the seat's moves involve is a button: one move plays it,
  // several are offered below.
  function cardEl(view, card, kind, zone) {
    const key = 'card:' + card.id + (zone ? '@' + zone : '');
    const aimed = targeted(view) && view.legal.some((m) => (m.at || []).indexOf(key) >= 0);
    const moves = kind === 'hand' ? movesOf(view, card.id) : [];
    if (aimed) return aimedCard(view, card, key);
    if (!moves.length) return zoomCard(view, card, key);
    const box = el(moves.length ? 'button' : 'figure', 'card' + (moves.length ? ' playable' : '') + (picked === card.id ? ' picked' : ''));
    const img = el('img');
    img.setAttribute('src', card.face);
    img.setAttribute('alt', card.name);
    img.setAttribute('loading', 'lazy');
    img.draggable = false;
    const cap = nameEl(moves.length ? 'span' : 'figcaption', 'card-name', view, card.name, card.count > 1 ? ' \u00d7' + card.count : '');
    box.append(img, cap);
    if (moves.length) {
      box.type = 'button';
      box.dataset.card = card.id;
      box.title = moves.length === 1 ? moves[0].name : card.name + ': ' + moves.length + ' moves';
      box.setAttribute('aria-label', moves.length === 1 ? 'Play: ' + moves[0].name : card.name + ': choose among ' + moves.length + ' moves');
      box.addEventListener('click', () => {
        if (moves.length === 1) {
          picked = null;
          play(moves[0].index, view.moves);
        } else {
          picked = card.id;
          render(view);
          const first = document.querySelector('#moves button.move');
          if (first) first.focus();
        }
      });
    }
    return box;
  }

  // A card's face inside a button that says its name: the image adds nothing to read.
  function cardFace(card) {
    const img = el('img');
    img.setAttribute('src', card.face);
    img.setAttribute('alt', '');
    img.setAttribute('loading', 'lazy');
    img.draggable = false;
    return img;
  }
  // A card some moves act on: a button; clicking it is one step toward the move.
  function aimedCard(view, card, key) {
    const box = el('button', 'card playable');
    box.type = 'button';
    box.dataset.target = key;
    box.dataset.card = card.id;
    box.dataset.name = card.name;
    box.append(cardFace(card), nameEl('span', 'card-name', view, card.name, card.count > 1 ? ' \u00d7' + card.count : ''));
    box.title = card.name + ': choose it for a move';
    return box;
  }
  // A card no move acts on: a button that shows it large (its text readable).
  function zoomCard(view, card, key) {
    const box = el('button', 'card zoomable');
    box.type = 'button';
    box.dataset.target = key;
    box.dataset.zoom = card.face;
    box.dataset.name = card.name;
    box.append(cardFace(card), nameEl('span', 'card-name', view, card.name, card.count > 1 ? ' \u00d7' + card.count : ''));
    box.title = card.name + ': show it large';
    return box;
  }
  function zoom(face, name) {
    const d = $('zoom');
    $('zoom-img').setAttribute('src', face);
    $('zoom-img').setAttribute('alt', name);
    $('zoom-name').textContent = name;
    if (!d.open) d.showModal();
  }

  // A piece as the build prints it (its face), or its name where the build prints none.
  function pieceImg(p, cls) {
    if (p.face) {
      const img = el('img', cls);
      img.setAttribute('src', p.face);
      img.setAttribute('alt', p.name);
      img.draggable = false;
      return img;
    }
    return el('span', cls + ' piece-name', p.name);
  }

  // The board as the build draws it: the data's board with the pieces on its cells, or a grid
  // of card faces (The Search's map). Each cell and piece is a target; the page draws none of
  // the game itself, only where to click.
  const SVGNS = 'http://www.w3.org/2000/svg';
  function svgEl(tag, attrs) {
    const e = document.createElementNS(SVGNS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }
  function renderBoard(view) {
    const box = $('board-view');
    box.replaceChildren();
    const b = view.board;
    box.hidden = !b;
    if (!b) return;
    const on = view.on_board || [];
    if (b.image) {
      const [w, h] = b.size;
      const wrap = el('div', 'drawn-board');
      const img = el('img', 'board-img');
      img.setAttribute('src', b.image);
      img.setAttribute('alt', 'The board');
      img.draggable = false;
      const svg = svgEl('svg', { viewBox: '0 0 ' + w + ' ' + h, class: 'board-over', 'aria-hidden': 'true' });
      const hex = b.hex;
      const at = {};
      for (const [name, x, y] of b.cells) {
        at[name] = [x, y];
        let pts = '';
        if (hex) {
          for (let i = 0; i < 6; i++) {
            const a = Math.PI / 180 * (60 * i + (hex.pointy ? 30 : 0));
            pts += (x + hex.r * Math.cos(a)).toFixed(2) + ',' + (y + hex.r * Math.sin(a)).toFixed(2) + ' ';
          }
          const poly = svgEl('polygon', { points: pts.trim(), class: 'cell' });
          poly.dataset.target = 'cell:' + name;
          const t = svgEl('title', {});
          t.textContent = name;
          poly.append(t);
          svg.append(poly);
        }
      }
      const r = hex ? hex.r : 6;
      const stack = {};
      for (const p of on) {
        const c = at[p.at];
        if (!c) continue;
        const n = stack[p.at] = (stack[p.at] || 0) + 1;
        // A tile fills its hex; what stands on it (an elemental) sits smaller in its middle.
        const size = n === 1 ? r * 1.72 : r * 0.95;
        const g = p.face ? svgEl('image', { href: p.face, x: c[0] - size / 2, y: c[1] - size / 2, width: size, height: size, class: 'piece' })
          : svgEl('circle', { cx: c[0], cy: c[1], r: size / 2, class: 'piece' });
        g.dataset.target = 'piece:' + p.piece + '@' + p.at;
        g.dataset.cell = 'cell:' + p.at;
        const t = svgEl('title', {});
        t.textContent = p.name + ' on ' + p.at;
        g.append(t);
        svg.append(g);
      }
      wrap.append(img, svg);
      wrap.style.aspectRatio = w + ' / ' + h;
      box.append(wrap);
    } else {
      const grid = el('div', 'card-grid');
      grid.style.gridTemplateColumns = 'repeat(' + b.columns + ', minmax(0, 1fr))';
      const [cw, ch] = b.card_size;
      for (const c of b.cells) {
        const cell = el('div', 'grid-cell');
        cell.dataset.target = 'cell:' + c.name;
        cell.style.aspectRatio = cw + ' / ' + ch;
        if (c.card) {
          const img = el('img', 'grid-card');
          img.setAttribute('src', c.card.face);
          img.setAttribute('alt', c.name + ': ' + c.card.name);
          img.draggable = false;
          cell.append(img);
        }
        cell.append(el('span', 'cell-name', c.name));
        const here = el('div', 'on-cell');
        for (const p of on.filter((x) => x.at === c.name)) {
          for (let i = 0; i < Math.min(p.count || 1, 4); i++) {
            const img = pieceImg(p, 'grid-piece');
            img.dataset.target = 'piece:' + p.piece + '@' + p.at;
            img.dataset.cell = 'cell:' + p.at;
            img.title = p.name + ' on ' + p.at;
            here.append(img);
          }
        }
        cell.append(here);
        grid.append(cell);
      }
      box.append(grid);
    }
  }

  // A hidden hand's cards of one deck: that deck's back (a plain card where the build prints
  // no back for it), the deck's name and how many.
  function backEl(h) {
    const fig = el('figure', 'card back');
    let img;
    if (h.back) {
      img = el('img');
      img.setAttribute('src', h.back);
      img.setAttribute('alt', h.deck + ' (back)');
      img.draggable = false;
    } else {
      img = el('span', 'blank-back', h.deck);
    }
    const n = h.count === null || h.count === undefined ? 'hidden cards' : h.count + (h.count === 1 ? ' hidden card' : ' hidden cards');
    fig.append(img, el('figcaption', 'card-name', h.seat + ': ' + n));
    return fig;
  }

  function renderTableCards(view) {
    const box = $('table-cards');
    box.replaceChildren();
    const cards = view.cards;
    if (!cards) return;
    const group = (title, items) => {
      if (!items.length) return;
      const g = el('div', 'group');
      g.append(el('h3', null, title));
      const row = el('div', 'cards');
      row.append(...items);
      g.append(row);
      box.append(g);
    };
    group('Hidden hands', cards.hidden.map(backEl));
    // Each zone the engine's view names (the auction house, the discard pile...) in its place.
    const placed = new Set();
    for (const z of (cards.zones || [])) {
      const items = z.cards.map(([i, n]) => {
        placed.add(i);
        const c = Object.assign({}, cards.table[i], { count: n });
        return cardEl(view, c, 'table', z.name);
      });
      if (!items.length) continue;
      const g = el('div', 'group zone');
      g.dataset.target = 'zone:' + z.name;
      g.dataset.cellOnly = '1';
      g.append(el('h3', null, z.name.charAt(0).toUpperCase() + z.name.slice(1)));
      const row = el('div', 'cards');
      row.append(...items);
      g.append(row);
      box.append(g);
    }
    group('Cards on the table', cards.table.filter((_, i) => !placed.has(i)).map((c) => cardEl(view, c, 'table')));
  }

  function renderHands(view) {
    const box = $('hands');
    box.replaceChildren();
    for (const h of view.view.hands) {
      const sec = el('section', 'hand');
      sec.append(el('h3', null, h.seat === undefined ? 'Hand' : (h.name === view.you ? 'Your hand and what only you see' : h.name)));
      const shown = view.cards ? view.cards.hands.find((x) => x.seat === h.name) : null;
      if (shown && shown.cards.length) {
        const row = el('div', 'cards');
        for (const c of shown.cards) row.append(cardEl(view, c, 'hand'));
        sec.append(row);
      }
      // The seat's own pieces (tiles behind its screen, unplayed pieces) as printed.
      if (shown && shown.pieces && shown.pieces.length) {
        const row = el('div', 'pieces');
        for (const p of shown.pieces) {
          const key = 'piece:' + p.piece;
          const mine = h.name === view.you && targeted(view) && view.legal.some((m) => (m.at || []).indexOf(key) >= 0);
          const b = el(mine ? 'button' : 'figure', 'piece-box' + (mine ? ' playable' : ''));
          if (mine) { b.type = 'button'; b.title = p.name + ': choose it for a move'; }
          b.dataset.target = key;
          b.dataset.name = p.name;
          const face = pieceImg(p, 'piece-face');
          if (mine && face.tagName === 'IMG') face.setAttribute('alt', '');
          b.append(face, nameEl(mine ? 'span' : 'figcaption', 'card-name', view, p.name, ' \u00d7' + p.count, true));
          row.append(b);
        }
        sec.append(row);
      }
      const words = el('details', 'words');
      words.append(el('summary', null, 'In words'), el('pre', null, h.text));
      if (!(shown && (shown.cards.length || (shown.pieces || []).length))) words.open = true;
      sec.append(words);
      box.append(sec);
    }
  }

  function renderMoves(view) {
    const box = $('moves');
    box.replaceChildren();
    $('picked').hidden = true;
    $('picked-text').textContent = '';
    if (travel !== null) {
      box.append(el('p', 'quiet', 'Go back to now to move.'));
      return;
    }
    if (!view.you) {
      box.append(el('p', 'quiet', 'Spectators do not move.'));
      return;
    }
    if (view.legal.length === 0) {
      box.append(el('p', 'quiet', view.outcome ? 'The game is over.' : 'Not your turn.'));
      return;
    }
    const shown = picked === null ? view.legal : movesOf(view, picked);
    if (picked !== null && shown.length === 0) picked = null;
    const left = path.length ? candidates(view) : [];
    if (path.length && left.length === 0) path = [];
    $('picked').hidden = picked === null && path.length === 0;
    if ($('picked').hidden) $('picked-text').textContent = '';
    if (picked !== null) {
      const card = shown[0].cards.find((c) => c.id === picked);
      $('picked-text').textContent = 'Moves with ' + (card ? card.name : 'this card') + ':';
    } else if (path.length) {
      const more = left.some((m) => m.at.length > path.length);
      $('picked-text').textContent = 'Chosen: ' + path.map(targetWords).join(', then ') + (more ? '. Now click where it goes (lit), or a move below:' : ':');
    }
    const list = path.length ? left : (picked === null ? view.legal : shown);
    const wrap = $('moves');
    let into = wrap;
    if (targeted(view) && !path.length && picked === null && list.length > 60) {
      // Many moves and a board to click: the buttons wait folded (keyboard and screen
      // readers open them).
      const d = el('details', 'all-moves');
      d.append(el('summary', null, 'Every move as a button (' + list.length + ')'));
      const inner = el('div', 'move-list');
      d.append(inner);
      wrap.append(d);
      into = inner;
    }
    for (const m of list) {
      const b = el('button', 'move');
      b.type = 'button';
      b.dataset.index = String(m.index);
      for (const c of (m.cards || [])) {
        const img = el('img', 'thumb');
        img.setAttribute('src', c.face);
        img.setAttribute('alt', '');
        b.append(img);
      }
      b.append(el('span', null, m.name));
      b.addEventListener('click', () => { picked = null; path = []; play(m.index, view.moves); });
      into.append(b);
    }
  }

  // A game printing its cards in several languages: a choice among them. The page is opened
  // again with `?lang=` (so that a link or a reload keeps it).
  function renderLanguages(d) {
    const box = $('langs');
    const langs = d.languages || [];
    box.hidden = langs.length < 2;
    if (langs.length < 2) return;
    const select = $('lang');
    const said = (l) => {
      try {
        const n = new Intl.DisplayNames(['en'], { type: 'language' }).of(l);
        return n && n !== l ? n + ' (' + l + ')' : l;
      } catch (_) { return l; }
    };
    if (select.dataset.langs !== langs.join(' ')) {
      select.replaceChildren(...langs.map((l) => {
        const o = el('option', null, said(l));
        o.value = l;
        return o;
      }));
      select.dataset.langs = langs.join(' ');
    }
    select.value = d.lang || langs[0];
    if (!select.dataset.wired) {
      select.dataset.wired = '1';
      select.addEventListener('change', () => {
        const u = new URL(location.href);
        u.searchParams.set('lang', select.value);
        location.assign(u.toString());
      });
    }
  }

  function renderData(view) {
    const d = view.data || {};
    const rules = $('rules');
    rules.hidden = !d.rules;
    if (d.rules) rules.setAttribute('href', '/tables/' + encodeURIComponent(id) + '/rules' + query);
    renderLanguages(d);
    const banner = $('data-banner');
    banner.hidden = !d.newer || travel !== null;
    if (!d.newer) return;
    let text = 'The game\'s data has changed since this table started; this table keeps the version it started with.';
    if (d.restart) text += ' Starting again on the new data: agreed ' + d.restart.agreed.join(', ') + '; waiting for ' + (d.restart.waiting.join(', ') || 'nobody') + '.';
    $('data-text').textContent = text;
    const mine = view.you && (!d.restart || d.restart.waiting.indexOf(view.you) >= 0);
    $('restart-agree').hidden = !mine;
    $('restart-decline').hidden = !view.you || !d.restart;
  }

  function renderLog(view) {
    const list = $('log');
    list.replaceChildren();
    for (const entry of view.log) {
      const li = el('li', entry.number === null ? 'chance' : 'move');
      const said = entry.action.startsWith(entry.by) ? entry.action : entry.by + ': ' + entry.action;
      const head = entry.number === null ? 'chance: ' + entry.action : entry.number + '. ' + said;
      li.append(el('span', 'what', head));
      for (const e of entry.events) li.append(el('span', 'event', 'chance: ' + e));
      list.append(li);
    }
    if (travel === null) list.scrollTop = list.scrollHeight;
    const range = $('travel');
    range.max = String(view.length);
    range.value = String(travel === null ? view.length : travel);
    $('travel-at').textContent = range.value;
  }

  function renderUndo(view) {
    const banner = $('undo-banner');
    const u = view.undo;
    if (!u || travel !== null) {
      banner.hidden = true;
    } else {
      banner.hidden = false;
      $('undo-text').textContent = 'Undo back to entry ' + u.to + ' of the log? Agreed: ' + u.agreed.join(', ') + '. Waiting for: ' + (u.waiting.join(', ') || 'nobody') + '.';
      const mine = view.you && u.waiting.indexOf(view.you) >= 0;
      $('undo-agree').hidden = !mine;
      $('undo-decline').hidden = !view.you;
    }
    $('undo').hidden = !view.you || !!view.outcome || travel !== null;
  }

  function render(view) {
    document.title = view.title + ': printplay table';
    $('title').textContent = view.title;
    $('who').textContent = whoLine(view);
    $('status').textContent = statusLine(view);
    $('public').textContent = view.view.public;
    if (!publicDecided) {
      // The words open where nothing is drawn; folded under a drawn board or cards.
      $('public-words').open = !view.board && !(view.cards && view.cards.table.length);
      publicDecided = true;
    }
    renderBoard(view);
    renderTableCards(view);
    renderHands(view);
    renderMoves(view);
    lightTargets(view);
    renderData(view);
    renderLog(view);
    renderUndo(view);
    const tb = $('travel-banner');
    tb.hidden = travel === null;
    if (travel !== null) $('travel-text').textContent = 'You are looking back at the table after ' + travel + ' of ' + view.length + ' log entries, as you saw it then.';
    const ex = $('export');
    ex.hidden = !view.outcome;
    if (view.outcome) ex.setAttribute('href', api + '/transcript' + query);
    document.dispatchEvent(new CustomEvent('printplay:render', { detail: view }));
    fitNames();
  }

  async function request(method, path, body) {
    const res = await fetch(api + path + query, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
      cache: 'no-store',
    });
    const data = await res.json().catch(() => ({ error: 'the server answered ' + res.status }));
    if (!res.ok) {
      const err = new Error(data.error || ('the server answered ' + res.status));
      err.status = res.status;
      err.spectator = data.spectator === true;
      throw err;
    }
    return data;
  }

  function fresh(view) {
    now = view;
    showError('');
    if (travel === null) render(view);
  }

  async function play(index, at) {
    for (const b of document.querySelectorAll('#moves button')) b.disabled = true;
    try {
      if (socket && socket.readyState === WebSocket.OPEN) {
        socket.send(JSON.stringify({ type: 'move', index, at }));
      } else {
        fresh(await request('POST', '/moves', { index, at }));
      }
    } catch (e) {
      showError(e.message);
      if (now) render(now);
    }
  }

  async function lookBack(k) {
    if (!now) return;
    if (k >= now.length) {
      travel = null;
      render(now);
      return;
    }
    try {
      const res = await fetch(api + query + '&at=' + encodeURIComponent(String(k)), { cache: 'no-store' });
      const past = await res.json();
      if (!res.ok) throw new Error(past.error || 'cannot look back');
      travel = k;
      render(past);
    } catch (e) {
      showError(e.message);
    }
  }

  async function restart(decline) {
    try {
      const answer = await request('POST', '/restart', { decline });
      // A held table: still waiting for others (202), or playing again (the new view).
      if (held && answer.held) showHeld(answer.held);
      else if (held) location.reload();
      else fresh(answer);
    } catch (e) {
      showError(e.message);
    }
  }

  async function undo(decline) {
    try {
      fresh(await request('POST', '/undo', { decline }));
    } catch (e) {
      showError(e.message);
    }
  }

  // The connection line: said only while the connection is lost, and once when it is back.
  let lost = false;
  let backTimer = null;
  function connection(text) {
    const c = $('connection');
    clearTimeout(backTimer);
    c.textContent = text;
    c.hidden = !text;
    c.className = lost ? 'lost' : 'back';
  }

  function connect() {
    const scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
    socket = new WebSocket(scheme + location.host + api + '/ws' + query);
    socket.addEventListener('open', () => {
      retry = 500;
      if (lost) {
        lost = false;
        connection('Connection to the server is back: the table is up to date.');
        backTimer = setTimeout(() => connection(''), 6000);
      }
    });
    socket.addEventListener('message', (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (_) { return; }
      if (msg.type === 'view') {
        live = msg.view;
        fresh(live);
      } else if (msg.type === 'update' && live) {
        // The parts of the view that changed, and the log's entries from log_from on.
        const next = Object.assign({}, live, msg.view);
        next.log = live.log.slice(0, msg.log_from).concat(msg.view.log || []);
        live = next;
        fresh(live);
      } else if (msg.type === 'error') {
        showError(msg.error);
        if (now && travel === null) render(now);
      } else {
        document.dispatchEvent(new CustomEvent('printplay:message', { detail: msg })); // voices.js
      }
    });
    socket.addEventListener('close', () => {
      socket = null;
      live = null;
      if (held) return;
      lost = true;
      connection('Connection to the server lost: reconnecting (next try in ' + Math.ceil(retry / 1000) + ' s). Moves wait until the server answers.');
      for (const b of document.querySelectorAll('#moves button')) b.disabled = true;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10000);
    });
  }

  $('travel').addEventListener('input', (ev) => { $('travel-at').textContent = ev.target.value; });
  $('travel').addEventListener('change', (ev) => lookBack(Number(ev.target.value)));
  $('travel-now').addEventListener('click', () => { travel = null; if (now) render(now); });
  $('undo').addEventListener('click', () => undo(false));
  $('undo-agree').addEventListener('click', () => undo(false));
  $('undo-decline').addEventListener('click', () => undo(true));
  $('restart-agree').addEventListener('click', () => restart(false));
  $('restart-decline').addEventListener('click', () => restart(true));
  $('picked-clear').addEventListener('click', () => { picked = null; path = []; if (now) render(now); });
  // One listener for every target the page draws (cells, pieces, cards, zones).
  document.addEventListener('click', (ev) => {
    const t = ev.target.closest ? ev.target.closest('[data-target]') : null;
    if (!t || !now || travel !== null && !t.dataset.zoom) return;
    const view = now;
    const outer = t.parentElement && t.parentElement.closest('[data-target]');
    const around = t.dataset.cell || (outer ? outer.dataset.target : null);
    if (clickTarget(view, t.dataset.target, around)) { ev.preventDefault(); return; }
    if (t.dataset.zoom) zoom(t.dataset.zoom, t.dataset.name);
  });
  // A move another part of the page chose (free.js: a drag), by its index among the moves.
  document.addEventListener('printplay:play', (ev) => {
    if (!now || travel !== null || !now.you) return;
    picked = null;
    path = [];
    play(ev.detail.index, now.moves);
  });
  $('zoom-close').addEventListener('click', () => $('zoom').close());
  $('zoom').addEventListener('click', (ev) => { if (ev.target === $('zoom')) $('zoom').close(); });

  // A table held because its game's data changed since it began (409): its answer says why
  // and what to do, and a person may agree to start it over on the data now. There is no
  // table to show until it resumes or starts over, which the page looks for every few
  // seconds (another person's agreement, or the data put back).
  let held = false;
  let heldSpectator = false;
  function showHeld(why) {
    held = true;
    $('board').hidden = true;
    if (socket) socket.close();
    showError('');
    connection('');
    $('data-banner').hidden = false;
    // A spectator has no say on starting the table over: no button the server refuses.
    $('data-text').textContent = why + (heldSpectator ? ' You are watching: the persons at this table decide.' : '');
    $('restart-agree').hidden = heldSpectator;
    $('restart-decline').hidden = true;
  }
  function lookAgain() {
    request('GET', '', null).then(() => location.reload()).catch((e) => {
      if (e.status === 409) {
        heldSpectator = e.spectator;
        showHeld(e.message);
        setTimeout(lookAgain, 5000);
      }
    });
  }
  // The live connection once the table answers (a held table has none to offer).
  request('GET', '', null).then((view) => { fresh(view); connect(); }).catch((e) => {
    showError(e.message);
    if (e.status === 409) {
      heldSpectator = e.spectator;
      showHeld(e.message);
      setTimeout(lookAgain, 5000);
    } else {
      connect();
    }
  });
})();
