'use strict';
// The free table's view (a game's components with no rules): piles, the table area, hands,
// pieces, boards and dice, drawn from the view's data after table.js renders a view. Boards
// are the build's own drawings with the pieces on their cells as their printed faces.
// A person plays by dragging (drag.js-free: pointer events, so a mouse and a finger alike):
// a piece to a cell or a place, a card between the hand, the table's places, the piles and
// the seats; each drag is the legal move whose two ends the engine names (`at`). The move
// buttons stay, grouped here and offered again from a card, a pile, a piece or a cell (a
// zoom with that thing's moves) for the keyboard and screen readers. Everything from the
// game goes in as text, never as HTML.
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
  // Their names are in the language the table gives its cards in (the page's `?lang=`), as
  // are the decks'; the moves keep the data's own words (so a zoom finds its moves by those).
  let faces = {};
  let backs = {};
  let names = {};
  let words = { shown: {} }; // the names' marked forms and languages (learnFaces)
  let deckNames = {};
  function learnFaces(view) {
    faces = {};
    names = {};
    const cards = view.cards || {};
    words = { shown: cards.shown || {}, cards: cards.lang, pieces: cards.pieces_lang };
    backs = cards.backs || {};
    deckNames = cards.decks || {};
    const add = (c) => {
      if (c && c.id && c.face) faces[c.id] = c.face;
      if (c && c.id && c.name) names[c.id] = c.name;
    };
    (cards.table || []).forEach(add);
    (cards.hands || []).forEach((h) => (h.cards || []).forEach(add));
  }
  const shown = (card) => names[card.design] || card.name;
  // A name on a tile as table.js's nameEl makes it: in the language the cards or pieces are
  // printed in, with its long words' hyphenation points aside (table.js's fitNames uses them
  // where a word is wider than its tile, after this page's part is drawn).
  function nameEl(tag, cls, name, piece) {
    const e = el(tag, cls, name);
    if (words.shown[name]) {
      e.dataset.plain = name;
      e.dataset.marked = words.shown[name];
    }
    const lang = piece ? words.pieces : words.cards;
    if (lang) e.lang = lang;
    return e;
  }
  const deckShown = (pile) => deckNames[pile.deck] || pile.name;
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
      b.append(nameEl('strong', null, shown(card)));
    } else {
      b.append(el('span', 'free-back-mark', 'face down'));
    }
    // (A space between the parts, so that their words do not run together when read.)
    if (extra) b.append(' ', el('small', null, extra));
    // The name says what the tile shows, in the order it shows it (its visible words are part
    // of its name: label-content-name-mismatch).
    b.setAttribute('aria-label', (up ? shown(card) : 'a card, face down') + (extra ? ', ' + extra : ''));
    return b;
  }

  function section(title, cls) {
    const s = el('section', 'free-part ' + (cls || ''));
    s.append(el('h3', null, title));
    return s;
  }

  // The legal move whose targets are `at` (the engine names each carrying move's two ends).
  let current = null;
  let pendingPut = null; // where a dragged piece goes once picked up: {to, after}
  const same = (a, b) => a.length === b.length && a.every((k, i) => k === b[i]);
  function moveAt(at) {
    if (!current || !current.you) return null;
    return current.legal.find((m) => same(m.at || [], at)) || null;
  }
  function playMove(m) {
    document.dispatchEvent(new CustomEvent('printplay:play', { detail: { index: m.index } }));
  }
  // What a drag from `from` onto a place with keys `to` does: the move with those ends; a card
  // from the hand or a pile laid on a place of the table is laid face up; a piece is picked
  // up, then put down there once the table answers.
  function carry(from, to) {
    for (const t of to) {
      const m = moveAt([from, t]) || (/^zone:table place \d+$/.test(t) ? moveAt([from, 'zone:table']) : null);
      if (m) return m;
    }
    return null;
  }
  function carryPiece(from, to) {
    const take = moveAt([from]);
    if (!take) return false;
    const here = from.slice(from.indexOf('@') + 1);
    const dest = to.find((t) => t.startsWith('cell:') || t === 'zone:supply' || t === 'zone:table' || t.startsWith('zone:front '));
    if (!dest || dest.slice(dest.indexOf(':') + 1) === here) return false;
    pendingPut = { to: dest, after: current.moves + 1 };
    playMove(take);
    return true;
  }
  document.addEventListener('printplay:carry-start', (ev) => {
    const from = ev.detail.from;
    for (const e of document.querySelectorAll('#free [data-drop]')) {
      const to = e.dataset.drop.split('|');
      const can = from.startsWith('piece:') ? !!moveAt([from]) && to.some((t) => /^(cell:|zone:supply$|zone:table$|zone:front )/.test(t))
        : !!carry(from, to);
      e.classList.toggle('free-can', can);
    }
  });
  document.addEventListener('printplay:carry-end', () => {
    for (const e of document.querySelectorAll('.free-can')) e.classList.remove('free-can');
  });
  document.addEventListener('printplay:carry', (ev) => {
    const { from, to } = ev.detail;
    if (from.startsWith('piece:')) { carryPiece(from, to); return; }
    const m = carry(from, to);
    if (m) playMove(m);
  });
  // A piece picked up by a drag goes down where it was let go, as soon as the table says so.
  function putPending(view) {
    if (!pendingPut || view.moves < pendingPut.after) return;
    const p = pendingPut;
    pendingPut = null;
    const m = view.you ? view.legal.find((x) => same(x.at || [], [p.to])) : null;
    if (m) setTimeout(() => playMove(m), 0);
  }

  // A piece as the build prints it (its face), else its name; a count where several lie.
  function pieceFace(p, faces) {
    const f = faces && faces[p.piece];
    if (f && f.face) return picture(f.face);
    return nameEl('span', 'free-piece-name', p.name, true);
  }
  function pieceTiles(list, where, test, place, faces) {
    const row = el('div', 'free-chips');
    for (const p of list) {
      const b = el('button', 'free-chip');
      b.type = 'button';
      // Its face where the build prints one (the words beside it name it).
      const f = faces && faces[p.piece];
      if (f && f.face) b.append(picture(f.face));
      b.append(el('span', null, p.name + ' \u00d7' + p.count));
      b.dataset.drag = 'piece:' + p.piece + '@' + place;
      b.addEventListener('click', () => zoom(p.name, [p.count + ' ' + where], true, (m) => m.includes(p.name) && test(m)));
      row.append(b);
    }
    return row;
  }

  // A board as the build draws it, with each cell a place to click (its moves) or to drop a
  // piece on, and the pieces on the cells as their faces; a board the build does not draw
  // (or a sheet without cells) as hexes or squares.
  function boardView(board, s, free, reach) {
    const sec = section(board.name, 'free-board' + (board.owner ? ' free-mat' : ''));
    if (board.cells.length === 0) {
      sec.append(el('p', 'quiet', 'A sheet without cells.'));
      return sec;
    }
    const drawn = free && free.boards ? free.boards[board.board] : null;
    const faces = free ? free.pieces : null;
    const hex = board.grid === 'hex';
    const byKey = {};
    for (const c of board.cells) byKey[c.cell] = c;
    let cells; let w; let h; let minX = 0; let minY = 0; let R;
    if (drawn && drawn.cells.length) {
      [w, h] = drawn.size;
      cells = drawn.cells.filter(([k]) => byKey[k]).map(([k, x, y]) => [byKey[k], x, y]);
      R = drawn.hex ? drawn.hex.r : drawn.square / 2;
    } else {
      R = 10;
      const pos = (c) => hex ? [R * Math.sqrt(3) * (c.a + c.b / 2), R * 1.5 * c.b] : [c.b * 2 * R, c.a * 2 * R];
      cells = board.cells.map((c) => [c, ...pos(c)]);
      const pad = R * 1.2;
      minX = Math.min(...cells.map((c) => c[1])) - pad;
      minY = Math.min(...cells.map((c) => c[2])) - pad;
      w = Math.max(...cells.map((c) => c[1])) - minX + pad;
      h = Math.max(...cells.map((c) => c[2])) - minY + pad;
    }
    const wrap = el('div', 'free-drawn');
    wrap.style.aspectRatio = w + ' / ' + h;
    if (drawn) {
      const img = el('img', 'free-board-img');
      img.setAttribute('src', drawn.image);
      img.setAttribute('alt', board.name + ', as printed');
      img.draggable = false;
      wrap.append(img);
    }
    const pic = svg('svg', { viewBox: minX + ' ' + minY + ' ' + w + ' ' + h, class: 'free-svg' + (drawn ? ' over' : ''), role: 'group' });
    pic.setAttribute('aria-label', board.name + ': ' + board.cells.length + ' cells');
    const pointy = drawn && drawn.hex ? drawn.hex.pointy : !drawn;
    for (const [c, x, y] of cells) {
      const key = 'cell:' + (s + 1) + '/' + c.cell;
      const g = svg('g', { class: 'free-cell' + (c.pieces.length ? ' taken' : ''), tabindex: 0, role: 'button' });
      // A piece goes on the boards in the middle and on the seat's own mats only.
      if (reach) g.dataset.drop = key;
      const said = 'cell ' + c.cell + (c.label ? ', ' + c.label : '') + (c.pieces.length ? ': ' + c.pieces.map((p) => p.name + ' \u00d7' + p.count).join(', ') : '');
      g.setAttribute('aria-label', said);
      let shape;
      if (hex) {
        const pts = [];
        for (let i = 0; i < 6; i++) {
          const a = Math.PI / 180 * (60 * i + (pointy ? 30 : 0));
          pts.push((x + R * 0.97 * Math.cos(a)).toFixed(2) + ',' + (y + R * 0.97 * Math.sin(a)).toFixed(2));
        }
        shape = svg('polygon', { points: pts.join(' ') });
      } else {
        shape = svg('rect', { x: x - R * 0.97, y: y - R * 0.97, width: R * 1.94, height: R * 1.94, rx: drawn ? 0 : 1.5 });
      }
      g.append(shape);
      const title = svg('title');
      title.textContent = said;
      g.append(title);
      const where = board.name + ' cell ' + c.cell;
      const open = () => zoom(board.name + ', cell ' + c.cell, [c.label || '', c.pieces.map((p) => p.name + ' \u00d7' + p.count).join(', ') || 'empty'], true,
        (m) => m.includes(where + ',') || m.endsWith(where));
      g.addEventListener('click', open);
      g.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); open(); } });
      pic.append(g);
      // The pieces on the cell, as printed, at their printed size: the first at most the
      // cell's (a tile fills its hex), what lies on it smaller in its middle, side by side.
      c.pieces.forEach((p, i) => {
        const f = faces && faces[p.piece];
        const most = i === 0 ? R * 1.72 : R * 0.95;
        const mm = f && f.size ? Math.min(Math.max(f.size[0], f.size[1]), most) : R;
        const shift = i === 0 ? 0 : (i - 1 - (c.pieces.length - 2) / 2) * mm * 0.6;
        const b = el('button', 'free-on-cell' + (f && f.face ? '' : ' named'));
        b.type = 'button';
        b.append(pieceFace(p, faces));
        if (p.count > 1) b.append(el('span', 'free-badge', p.count));
        b.style.left = ((x + shift - minX - mm / 2) / w * 100) + '%';
        b.style.top = ((y - minY - mm / 2) / h * 100) + '%';
        b.style.width = (mm / w * 100) + '%';
        b.style.height = (mm / h * 100) + '%';
        b.setAttribute('aria-label', p.name + ' \u00d7' + p.count + ' on ' + where);
        b.title = p.name + ' on ' + where;
        b.dataset.drag = 'piece:' + p.piece + '@' + (s + 1) + '/' + c.cell;
        if (reach) b.dataset.drop = key;
        b.addEventListener('click', () => zoom(p.name, [p.count + ' on ' + where], true,
          (m) => m.includes(p.name) && (m.includes(where + ',') || m.endsWith(where))));
        wrap.append(b);
      });
    }
    wrap.prepend(pic);
    if (drawn) wrap.prepend(wrap.querySelector('img'));
    sec.append(wrap);
    return sec;
  }

  // The moves list in groups: piles, your hand, the table, pieces, the turn.
  function groupMoves() {
    const box = $('moves');
    const buttons = moveButtons();
    if (buttons.length === 0) return;
    const groups = [
      ['From the piles', (m) => /^(draw|deal|shuffle|turn the top card|take .* discards$)/.test(m)],
      ['The table', (m) => /table place \d+/.test(m)],
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

  // A place to lay a card: an empty place of the table, or a new one after the last.
  function slot(place, words) {
    const e = el('div', 'free-slot', words);
    e.dataset.drop = 'zone:table place ' + place;
    return e;
  }

  function render(view) {
    const data = view.view && view.view.public_data;
    let root = $('free');
    if (!data || !data.free) {
      document.body.classList.remove('free-table');
      if (root) root.remove();
      current = null;
      return;
    }
    current = view;
    document.body.classList.add('free-table');
    learnFaces(view);
    const free = view.free || {};
    const me = data.seats.findIndex((s) => s.name === view.you);
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
      back.setAttribute('aria-label', deckShown(p) + ': face down, ' + p.count + (p.count === 1 ? ' card' : ' cards'));
      back.dataset.drag = back.dataset.drop = 'zone:pile ' + p.deck;
      back.addEventListener('click', () => zoom(deckShown(p), [p.count + ' cards, face down' + (p.shuffled ? '; shuffled ' + p.shuffled + ' times' : '')], false,
        (m) => m.includes(p.name) && !/ table place \d+/.test(m) && !/^(play|put .* from the hand)/.test(m)), backs[p.deck]);
      pile.append(el('span', 'free-label', deckShown(p)), back);
      const top = p.discards[p.discards.length - 1];
      if (top) {
        const d = cardTile(top, 'discards: ' + p.discards.length);
        d.dataset.drag = d.dataset.drop = 'zone:discards ' + p.deck;
        d.addEventListener('click', () => zoom(shown(top), ['top of the discards of ' + deckShown(p), p.discards.length + ' discarded'], true, (m) => m.includes('discards') && m.includes(p.name), faces[top.design]));
        pile.append(d);
      } else {
        const none = el('span', 'free-empty free-slot', 'no discards');
        none.dataset.drop = 'zone:discards ' + p.deck;
        pile.append(none);
      }
      row.append(pile);
    }
    piles.append(row);

    const table = section('On the table', 'free-table-area');
    table.dataset.drop = 'zone:table';
    const cards = el('div', 'free-row free-drop');
    if (data.table.length === 0) cards.append(el('p', 'quiet', 'No cards on the table.'));
    let last = 0;
    for (const c of data.table) {
      for (let hole = last + 1; hole < c.place; hole++) cards.append(slot(hole, 'place ' + hole + ' (empty)'));
      last = c.place;
      const t = cardTile(c, 'place ' + c.place);
      const where = 'table place ' + c.place;
      t.dataset.drag = t.dataset.drop = 'zone:' + where;
      t.addEventListener('click', () => zoom(c.face_up ? shown(c) : 'A face-down card', [where + (c.face_up ? '' : ' (its back only)')], c.face_up,
        (m) => m.includes(where + ')') || m.endsWith(where) || m.includes(where + ' '), pictureOf(c, c.face_up)));
      cards.append(t);
    }
    if (data.table.length) cards.append(slot(last + 1, 'a new place'));
    table.append(cards);
    if (data.table_pieces.length) table.append(pieceTiles(data.table_pieces, 'on the table', (m) => m.includes('the table'), 'table', free.pieces));

    const mine = view.view.hands.find((h) => h.name === view.you);
    if (mine) {
      const hand = section('Your hand (' + mine.data.hand.length + ')', 'free-hand');
      hand.dataset.drop = 'zone:hand ' + (me + 1);
      const cardsRow = el('div', 'free-row');
      if (mine.data.hand.length === 0) cardsRow.append(el('p', 'quiet', 'Your hand is empty.'));
      for (const c of mine.data.hand) {
        const t = cardTile(c, null);
        t.dataset.drag = 'card:' + c.design;
        t.addEventListener('click', () => zoom(shown(c), ['in your hand'], true,
          (m) => m.includes(c.name) && !m.includes('discards'), faces[c.design]));
        cardsRow.append(t);
      }
      hand.append(cardsRow);
      root.append(hand);
    }
    // What a player needs most comes first: the hand it plays from (on a phone, where the
    // parts stand one under the other, without scrolling past every pile), what is in play,
    // then the piles.
    root.append(table, piles);

    // Each seat once: its hand (backs by deck, or the shown cards), what it holds, its pieces.
    const hidden = (view.cards && view.cards.hidden) || [];
    const seats = section('Seats', 'free-seats');
    const list = el('ul', 'free-seat-list');
    data.seats.forEach((s, q) => {
      const li = el('li', 'free-seat');
      // A card may be handed to any seat; a piece put down in front of the seat's own place.
      li.dataset.drop = 'zone:hand ' + (q + 1) + (q === me ? '|zone:front ' + (q + 1) : '');
      const turn = view.to_act.indexOf(s.name) >= 0 ? ' (to act)' : '';
      li.append(el('strong', null, s.name + (s.name === view.you ? ' (you)' : '') + turn));
      li.append(el('span', null, ': ' + s.hand + (s.hand === 1 ? ' card' : ' cards') + ' in hand'));
      if (s.holding) li.append(el('span', null, '; holding a ' + s.holding.name));
      if (s.shown) {
        const shown = el('div', 'free-row');
        for (const c of s.shown) shown.append(cardTile(c, 'shown'));
        li.append(shown);
      } else if (s.name !== view.you) {
        const row2 = el('div', 'free-row free-backs');
        for (const b of hidden.filter((x) => x.seat === s.name)) {
          const fig = el('figure', 'free-back-small');
          if (b.back) {
            const img = picture(b.back);
            img.setAttribute('alt', b.deck + ' (back)');
            fig.append(img);
          }
          fig.append(el('figcaption', null, b.count + ' \u00d7 ' + b.deck));
          row2.append(fig);
        }
        if (row2.childElementCount) li.append(row2);
      }
      if (s.pieces.length) li.append(pieceTiles(s.pieces, 'in front of ' + s.name, (m) => m.includes('in front of ' + s.name), 'front ' + (q + 1), free.pieces));
      list.append(li);
    });
    seats.append(list);
    root.append(seats);

    const supply = section('Supply', 'free-supply');
    supply.dataset.drop = 'zone:supply';
    if (data.supply.length) supply.append(pieceTiles(data.supply, 'in the supply', (m) => m.includes('supply'), 'supply', free.pieces));
    else supply.append(el('p', 'quiet', 'The supply is empty.'));
    if (data.supply.length || data.boards.length) root.append(supply);
    data.boards.forEach((b, s) => root.append(boardView(b, s, free, !b.owner || b.owner === view.you)));
    if (data.dice.length) {
      const dice = section('Dice', 'free-dice');
      const row2 = el('div', 'free-row');
      for (const d of data.dice) row2.append(el('span', 'free-die', d.value === null ? 'd' + d.sides : String(d.value)));
      dice.append(row2);
      root.append(dice);
    }
    groupMoves();
    putPending(view);
  }

  document.addEventListener('printplay:render', (ev) => render(ev.detail));
})();
