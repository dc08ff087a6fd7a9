'use strict';
// Dragging at the free table, by pointer events (a mouse, a pen and a finger alike): press on
// something that can be carried (`data-drag`: its key), move, and let go over a place
// (`data-drop`: its keys, `|` between them). The page is told `printplay:carry-start`
// ({from}) when a drag begins, `printplay:carry` ({from, to: [keys]}) when something is let
// go over a place, and `printplay:carry-end` after; free.js turns a carry into the legal move
// whose ends those are. A press that does not move is a click, as before.
(function () {
  const THRESHOLD = 6;
  let drag = null;
  let swallow = false;

  function dropAt(x, y) {
    const under = document.elementFromPoint(x, y);
    return under && under.closest ? under.closest('[data-drop]') : null;
  }

  function end() {
    if (drag && drag.ghost) drag.ghost.remove();
    for (const e of document.querySelectorAll('.free-over')) e.classList.remove('free-over');
    document.body.classList.remove('free-dragging');
    if (drag && drag.ghost) document.dispatchEvent(new CustomEvent('printplay:carry-end'));
    drag = null;
  }

  document.addEventListener('pointerdown', (ev) => {
    if (ev.button !== 0 || !ev.target.closest) return;
    const from = ev.target.closest('#free [data-drag]');
    if (!from) return;
    drag = { key: from.dataset.drag, el: from, x: ev.clientX, y: ev.clientY, ghost: null, over: null };
  });

  document.addEventListener('pointermove', (ev) => {
    if (!drag) return;
    if (!drag.ghost) {
      if (Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < THRESHOLD) return;
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
    }
    ev.preventDefault();
    drag.ghost.style.left = (ev.clientX - drag.dx) + 'px';
    drag.ghost.style.top = (ev.clientY - drag.dy) + 'px';
    const over = dropAt(ev.clientX, ev.clientY);
    if (over !== drag.over) {
      if (drag.over) drag.over.classList.remove('free-over');
      if (over) over.classList.add('free-over');
      drag.over = over;
    }
  });

  document.addEventListener('pointerup', (ev) => {
    if (!drag) return;
    if (!drag.ghost) { drag = null; return; }
    const from = drag.key;
    const over = dropAt(ev.clientX, ev.clientY);
    // The click that follows a drag is not a click on what was dragged.
    swallow = true;
    setTimeout(() => { swallow = false; }, 0);
    end();
    if (over) {
      const to = over.dataset.drop.split('|');
      document.dispatchEvent(new CustomEvent('printplay:carry', { detail: { from, to } }));
    }
  });

  document.addEventListener('pointercancel', end);
  document.addEventListener('keydown', (ev) => { if (ev.key === 'Escape' && drag) end(); });
  document.addEventListener('click', (ev) => {
    if (swallow) { ev.stopPropagation(); ev.preventDefault(); swallow = false; }
  }, true);
})();
