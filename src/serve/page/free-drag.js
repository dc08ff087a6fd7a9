'use strict';
// Dragging at the free table, by pointer events (a mouse, a pen and a finger alike): press on
// something that can be carried (`data-drag`: its key), move, and let go over a place
// (`data-drop`: its keys, `|` between them). The page is told `printplay:carry-start`
// ({from}) when a drag begins, `printplay:carry` ({from, to: [keys]}) when something is let
// go over a place, and `printplay:carry-end` after; free.js turns a carry into the legal move
// whose ends those are. A press that does not move is a click, as before.
//
// A finger scrolls the page as on any page: on a phone the hand, the piles and the boards fill
// the screen, so a swipe that starts on a card must scroll, not carry it. A finger carries a
// thing once held still on it for a moment (HOLD ms, as a long-press picks up an icon on a
// phone's home screen): the thing lifts (it follows the finger from then on, and the page
// does not scroll under it); a finger that moves before then is scrolling, and the browser
// takes it. A mouse or a pen carries at once, past a few pixels of movement.
(function () {
  const THRESHOLD = 6;
  const HOLD = 350;
  // A finger held still trembles a little: this much still counts as held.
  const STILL = 10;
  let drag = null;
  let swallow = false;

  function dropAt(x, y) {
    const under = document.elementFromPoint(x, y);
    return under && under.closest ? under.closest('[data-drop]') : null;
  }

  function end() {
    if (drag && drag.timer) clearTimeout(drag.timer);
    if (drag && drag.ghost) drag.ghost.remove();
    for (const e of document.querySelectorAll('.free-over')) e.classList.remove('free-over');
    document.body.classList.remove('free-dragging');
    if (drag && drag.el) drag.el.classList.remove('free-lifted');
    if (drag && drag.ghost) document.dispatchEvent(new CustomEvent('printplay:carry-end'));
    drag = null;
  }

  // The thing starts to follow the pointer: a copy of it under the pointer, and the places it
  // may go are marked.
  function lift(x, y) {
    const r = drag.el.getBoundingClientRect();
    const ghost = drag.el.cloneNode(true);
    ghost.removeAttribute('id');
    ghost.removeAttribute('data-drag');
    ghost.removeAttribute('data-drop');
    ghost.setAttribute('aria-hidden', 'true');
    ghost.classList.add('free-ghost');
    ghost.style.width = r.width + 'px';
    ghost.style.height = r.height + 'px';
    drag.dx = drag.x - r.left;
    drag.dy = drag.y - r.top;
    drag.ghost = ghost;
    document.body.append(ghost);
    document.body.classList.add('free-dragging');
    document.dispatchEvent(new CustomEvent('printplay:carry-start', { detail: { from: drag.key } }));
    follow(x, y);
  }

  function follow(x, y) {
    drag.ghost.style.left = (x - drag.dx) + 'px';
    drag.ghost.style.top = (y - drag.dy) + 'px';
    const over = dropAt(x, y);
    if (over !== drag.over) {
      if (drag.over) drag.over.classList.remove('free-over');
      if (over) over.classList.add('free-over');
      drag.over = over;
    }
  }

  document.addEventListener('pointerdown', (ev) => {
    if (!ev.isPrimary || ev.button !== 0 || !ev.target.closest) return;
    const from = ev.target.closest('#free [data-drag]');
    if (drag) end();
    if (!from) return;
    const finger = ev.pointerType === 'touch';
    drag = { key: from.dataset.drag, el: from, x: ev.clientX, y: ev.clientY, ghost: null, over: null, finger, timer: null, held: !finger, moved: false };
    if (finger) {
      drag.timer = setTimeout(() => {
        if (!drag || drag.el !== from) return;
        drag.timer = null;
        drag.held = true;
        from.classList.add('free-lifted');
        lift(drag.x, drag.y);
      }, HOLD);
    }
  });

  document.addEventListener('pointermove', (ev) => {
    if (!drag || !ev.isPrimary) return;
    const far = Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y);
    if (!drag.held) {
      // A finger that moves before it was held: the page scrolls, nothing is carried.
      if (far > STILL) end();
      return;
    }
    if (!drag.ghost) {
      if (far < THRESHOLD) return;
      lift(ev.clientX, ev.clientY);
    }
    if (far >= THRESHOLD) drag.moved = true;
    ev.preventDefault();
    follow(ev.clientX, ev.clientY);
  });

  // While a finger carries something the page does not scroll under it (the first touchmove
  // after the thing lifted is cancelled, so the browser does not start to pan).
  document.addEventListener('touchmove', (ev) => {
    if (drag && drag.ghost && ev.cancelable) ev.preventDefault();
  }, { passive: false });

  // A finger held on a card or a picture opens no menu of the browser's (save the image...).
  document.addEventListener('contextmenu', (ev) => {
    if (drag && drag.finger) ev.preventDefault();
  });

  document.addEventListener('pointerup', (ev) => {
    if (!drag || !ev.isPrimary) return;
    if (!drag.ghost) { end(); return; }
    const from = drag.key;
    const over = drag.moved ? dropAt(ev.clientX, ev.clientY) : null;
    // The click that follows a drag is not a click on what was dragged (a finger held still
    // and let go is a click: it opens the thing's moves).
    if (drag.moved) {
      swallow = true;
      setTimeout(() => { swallow = false; }, 0);
    }
    end();
    if (over) {
      const to = over.dataset.drop.split('|');
      document.dispatchEvent(new CustomEvent('printplay:carry', { detail: { from, to } }));
    }
  });

  document.addEventListener('pointercancel', (ev) => { if (ev.isPrimary) end(); });
  document.addEventListener('keydown', (ev) => { if (ev.key === 'Escape' && drag) end(); });
  document.addEventListener('click', (ev) => {
    if (swallow) { ev.stopPropagation(); ev.preventDefault(); swallow = false; }
  }, true);
})();
