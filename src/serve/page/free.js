'use strict';
// The free table's view (a game's components with no rules): piles, the table area, hands,
// pieces, boards and dice, drawn from the view's data after table.js renders a view. Its
// moves are the page's own move buttons: grouped here, and offered again from a card, a pile,
// a piece or a cell (a zoom with that thing's moves). A hand card dragged onto the table is
// played face up. Everything from the game goes in as text, never as HTML.
(function () {
  const SVG = 'http://www.w3.org/2000/svg';
  const $ = (id) => document.getElementById(id);

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function svg(tag, attrs) {
    const e = document.createElementNS(SVG, tag);
    for (const k of Object.keys(attrs || {})) e.setAttribute(k, String(attrs[k]));
    return e;
  }

  function moveButtons() {
    return Array.from(document.querySelectorAll('#moves button.move'));
  }

  // The moves whose words pass `test`, as the page's buttons.
  function movesWhere(test) {
    return moveButtons().filter((b) => !b.disabled && test(b.textContent));
  }

  // A zoom: the thing large, its details, and its moves (each clicks the page's button).
  let dialog = null;
  function zoom(title, lines, face, test, url) {
    if (!dialog) {
      dialog = el('dialog', 'free-zoom');
      dialog.setAttribute('aria-labelledby', 'free-zoom-title');
      document.body.append(dialog);
    }
    dialog.replaceChildren();
    const big = el('div', 'free-card free-big ' + (face ? 'face' : 'back') + (url ? ' pictured' : ''));
    if (url) big.append(picture(url));
    big.append(el('strong', null, title));
    dialog.append(big);
    const h = el('h2', null, title);
    h.id = 'free-zoom-title';
    dialog.append(h);
    for (const l of lines) dialog.append(el('p', 'quiet', l));
    const moves = test ? movesWhere(test) : [];
    const box = el('div', 'free-zoom-moves');
    if (moves.length === 0) box.append(el('p', 'quiet', 'No move with it now.'));
    for (const b of moves) {
      const m = el('button', 'move', b.textContent);
      m.type = 'button';
      m.addEventListener('click', () => { dialog.close(); b.click(); });
      box.append(m);
    }
    dialog.append(box);
    const close = el('button', 'free-close', 'Close');
    close.type = 'button';
    close.addEventListener('click', () => dialog.close());
    dialog.append(close);
    dialog.showModal();
    (box.querySelector('button') || close).focus();
  }

  // The build's own faces and backs, as the server named them for this seat's view: a face
  // only for a card the view shows face up, a back for every deck (backs are public).
  let faces = {};
  let backs = {};
  function learnFaces(view) {
    faces = {};
    const cards = view.cards || {};
    backs = cards.backs || {};
    const add = (c) => { if (c && c.id && c.face) faces[c.id] = c.face; };
    (cards.table || []).forEach(add);
    (cards.hands || []).forEach((h) => (h.cards || []).forEach(add));
  }
  function pictureOf(card, up) {
    return up ? faces[card.design] : backs[card.deck];
  }
  function picture(url) {
    const img = el('img', 'free-face');
    img.setAttribute('src', url);
    img.setAttribute('alt', '');
    img.draggable = false;
    return img;
  }

  function cardTile(card, extra) {
    const up = card.face_up !== false && card.name !== undefined;
    const url = pictureOf(card, up);
    const b = el('button', 'free-card ' + (up ? 'face' : 'back') + (url ? ' pictured' : ''));
    b.type = 'button';
    if (url) b.append(picture(url));
    if (up) {
      b.append(el('strong', null, card.name));
    } else {
      b.append(el('span', 'free-back-mark', 'face down'));
    }
    // (A space between the parts, so that their words do not run together when read.)
    if (extra) b.append(' ', el('small', null, extra));
    // The name says what the tile shows, in the order it shows it (its visible words are part
    // of its name: label-content-name-mismatch).
    b.setAttribute('aria-label', (up ? card.name : 'a card, face down') + (extra ? ', ' + extra : ''));
    return b;
  }

  function section(title, cls) {
    const s = el('section', 'free-part ' + (cls || ''));
    s.append(el('h3', null, title));
    return s;
  }

  function pieceChips(list, where, test) {
    const row = el('div', 'free-chips');
    for (const p of list) {
      const b = el('button', 'free-chip', p.name + ' \u00d7' + p.count);
      b.type = 'button';
      b.addEventListener('click', () => zoom(p.name, [p.count + ' ' + where], true, (m) => m.includes(p.name) && test(m)));
      row.append(b);
    }
    return row;
  }

  // A board: hexes or squares in an SVG scaled to its box; each cell opens its moves.
  function boardView(board) {
    const s = section(board.name, 'free-board');
    if (board.cells.length === 0) {
      s.append(el('p', 'quiet', 'A sheet without cells.'));
      return s;
    }
    const hex = board.grid === 'hex';
    const R = 10;
    const pos = (c) => hex
      ? [R * Math.sqrt(3) * (c.a + c.b / 2), R * 1.5 * c.b]
      : [c.b * 2 * R, c.a * 2 * R];
    const xs = board.cells.map((c) => pos(c)[0]);
    const ys = board.cells.map((c) => pos(c)[1]);
    const pad = R * 1.2;
    const minX = Math.min(...xs) - pad;
    const minY = Math.min(...ys) - pad;
    const w = Math.max(...xs) - minX + pad;
    const h = Math.max(...ys) - minY + pad;
    const pic = svg('svg', { viewBox: minX + ' ' + minY + ' ' + w + ' ' + h, class: 'free-svg', role: 'group' });
    pic.setAttribute('aria-label', board.name + ': ' + board.cells.length + ' cells');
    for (const c of board.cells) {
      const [x, y] = pos(c);
      const g = svg('g', { class: 'free-cell' + (c.pieces.length ? ' taken' : ''), tabindex: 0, role: 'button' });
      const said = 'cell ' + c.cell + (c.label ? ', ' + c.label : '') + (c.pieces.length ? ': ' + c.pieces.map((p) => p.name + ' \u00d7' + p.count).join(', ') : '');
      g.setAttribute('aria-label', said);
      let shape;
      if (hex) {
        const pts = [];
        for (let i = 0; i < 6; i++) {
          const a = Math.PI / 180 * (60 * i - 30);
          pts.push((x + R * 0.95 * Math.cos(a)).toFixed(2) + ',' + (y + R * 0.95 * Math.sin(a)).toFixed(2));
        }
        shape = svg('polygon', { points: pts.join(' ') });
      } else {
        shape = svg('rect', { x: x - R * 0.95, y: y - R * 0.95, width: R * 1.9, height: R * 1.9, rx: 1.5 });
      }
      g.append(shape);
      const title = svg('title');
      title.textContent = said;
      g.append(title);
      if (c.pieces.length) {
        const n = c.pieces.reduce((t, p) => t + p.count, 0);
        const dot = svg('circle', { cx: x, cy: y, r: R * 0.45, class: 'free-dot' });
        g.append(dot);
        const t = svg('text', { x, y: y + R * 0.2, 'text-anchor': 'middle', class: 'free-count' });
        t.textContent = String(n);
        g.append(t);
      }
      const key = board.name + ' cell ' + c.cell;
      const open = () => zoom(board.name + ', cell ' + c.cell, [c.label || '', c.pieces.map((p) => p.name + ' \u00d7' + p.count).join(', ') || 'empty'], true,
        (m) => m.includes(key + ',') || m.endsWith(key));
      g.addEventListener('click', open);
      g.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); open(); } });
      pic.append(g);
    }
    s.append(pic);
    return s;
  }

  // The moves list in groups: piles, your hand, the table, pieces, the turn.
  function groupMoves() {
    const box = $('moves');
    const buttons = moveButtons();
    if (buttons.length === 0) return;
    const groups = [
      ['From the piles', (m) => /^(draw|deal|shuffle|turn the top card|take .* discards$)/.test(m)],
      ['The table', (m) => / table place \d+/.test(m)],
      ['Your hand', (m) => /^(play|discard|put .* from the hand|give|show the hand|take the shown hand)/.test(m)],
      ['Pieces', (m) => /^(pick up|put the)/.test(m)],
      ['The turn', () => true],
    ];
    const made = groups.map(([title]) => {
      const d = el('details', 'free-group');
      d.open = true;
      d.append(el('summary', null, title));
      d.append(el('div', 'free-group-moves'));
      return d;
    });
    for (const b of buttons) {
      const i = groups.findIndex(([, test]) => test(b.textContent));
      made[i].lastChild.append(b);
    }
    box.replaceChildren(...made.filter((d) => d.lastChild.childElementCount > 0));
  }

  function render(view) {
    const data = view.view && view.view.public_data;
    let root = $('free');
    if (!data || !data.free) {
      document.body.classList.remove('free-table');
      if (root) root.remove();
      return;
    }
    document.body.classList.add('free-table');
    learnFaces(view);
    // A free table has no winner: it is closed when the players say so.
    if (view.outcome && data.closed) {
      $('status').textContent = 'The table was closed after ' + view.outcome.moves + ' moves. Download the transcript to replay it.';
    }
    if (!root) {
      root = el('div');
      root.id = 'free';
      $('table-area').insertBefore(root, $('public'));
    }
    root.replaceChildren();

    const piles = section('Piles', 'free-piles');
    const row = el('div', 'free-row');
    for (const p of data.piles) {
      const pile = el('div', 'free-pile');
      const back = cardTile({ face_up: false, deck: p.deck }, p.count + (p.count === 1 ? ' card' : ' cards'));
      back.classList.add('free-stack');
      back.setAttribute('aria-label', p.name + ': face down, ' + p.count + (p.count === 1 ? ' card' : ' cards'));
      back.addEventListener('click', () => zoom(p.name, [p.count + ' cards, face down' + (p.shuffled ? '; shuffled ' + p.shuffled + ' times' : '')], false,
        (m) => m.includes(p.name) && !/ table place \d+/.test(m) && !/^(play|put .* from the hand)/.test(m)), backs[p.deck]);
      pile.append(el('span', 'free-label', p.name), back);
      const top = p.discards[p.discards.length - 1];
      if (top) {
        const d = cardTile(top, 'discards: ' + p.discards.length);
        d.addEventListener('click', () => zoom(top.name, ['top of the discards of ' + p.name, p.discards.length + ' discarded'], true, (m) => m.includes('discards') && m.includes(p.name), faces[top.design]));
        pile.append(d);
      } else {
        pile.append(el('span', 'free-empty', 'no discards'));
      }
      row.append(pile);
    }
    piles.append(row);
    root.append(piles);

    const table = section('On the table', 'free-table-area');
    const cards = el('div', 'free-row free-drop');
    if (data.table.length === 0) cards.append(el('p', 'quiet', 'No cards on the table.'));
    for (const c of data.table) {
      const t = cardTile(c, 'place ' + c.place);
      const where = 'table place ' + c.place;
      t.addEventListener('click', () => zoom(c.face_up ? c.name : 'A face-down card', [where + (c.face_up ? '' : ' (its back only)')], c.face_up,
        (m) => m.includes(where + ')') || m.endsWith(where) || m.includes(where + ' '), pictureOf(c, c.face_up)));
      cards.append(t);
    }
    cards.addEventListener('dragover', (ev) => { ev.preventDefault(); cards.classList.add('over'); });
    cards.addEventListener('dragleave', () => cards.classList.remove('over'));
    cards.addEventListener('drop', (ev) => {
      ev.preventDefault();
      cards.classList.remove('over');
      const name = ev.dataTransfer.getData('text/plain');
      const b = movesWhere((m) => m === 'play ' + name + ' face up onto the table')[0];
      if (b) b.click();
    });
    table.append(cards);
    if (data.table_pieces.length) table.append(pieceChips(data.table_pieces, 'on the table', (m) => m.includes('the table')));
    root.append(table);

    const mine = view.view.hands.find((h) => h.name === view.you);
    if (mine) {
      const hand = section('Your hand (' + mine.data.hand.length + ')', 'free-hand');
      const cardsRow = el('div', 'free-row');
      if (mine.data.hand.length === 0) cardsRow.append(el('p', 'quiet', 'Your hand is empty.'));
      for (const c of mine.data.hand) {
        const t = cardTile(c, null);
        t.draggable = true;
        t.addEventListener('dragstart', (ev) => ev.dataTransfer.setData('text/plain', c.name));
        t.addEventListener('click', () => zoom(c.name, ['in your hand'], true,
          (m) => m.includes(c.name) && !m.includes('discards'), faces[c.design]));
        cardsRow.append(t);
      }
      hand.append(cardsRow);
      root.append(hand);
    }

    const seats = section('Seats', 'free-seats');
    const list = el('ul', 'free-seat-list');
    for (const s of data.seats) {
      const li = el('li');
      const turn = view.to_act.indexOf(s.name) >= 0 ? ' (to act)' : '';
      li.append(el('strong', null, s.name + (s.name === view.you ? ' (you)' : '') + turn));
      li.append(el('span', null, ': ' + s.hand + (s.hand === 1 ? ' card' : ' cards') + ' in hand'));
      if (s.holding) li.append(el('span', null, '; holding a ' + s.holding.name));
      if (s.shown) {
        const shown = el('div', 'free-row');
        for (const c of s.shown) shown.append(cardTile(c, 'shown'));
        li.append(shown);
      }
      if (s.pieces.length) li.append(pieceChips(s.pieces, 'in front of ' + s.name, (m) => m.includes('in front of ' + s.name)));
      list.append(li);
    }
    seats.append(list);
    root.append(seats);

    if (data.supply.length) {
      const supply = section('Supply', 'free-supply');
      supply.append(pieceChips(data.supply, 'in the supply', (m) => m.includes('supply')));
      root.append(supply);
    }
    for (const b of data.boards) root.append(boardView(b));
    if (data.dice.length) {
      const dice = section('Dice', 'free-dice');
      const row2 = el('div', 'free-row');
      for (const d of data.dice) row2.append(el('span', 'free-die', d.value === null ? 'd' + d.sides : String(d.value)));
      dice.append(row2);
      root.append(dice);
    }
    groupMoves();
  }

  document.addEventListener('printplay:render', (ev) => render(ev.detail));
})();
