// The Conflict board in a window of its own: fitted to the screen at first (the whole board, the dice
// and the move controls in view on a laptop), zoomed with the − and + buttons or a pinch, panned by
// scrolling, a finger, or dragging with the mouse. A phone's fitted squares are some 17 px: zoomed in,
// they reach 32 px and more (issue 16). The zoom and the scroll live in the page's memory, so a redraw
// after every action keeps them.

import { html } from "../svg.js";

const STEP = 1.5;
const BIGGEST_SQUARE = 72; // px: zooming further shows too few squares to play
const DRAG = 6; // px a mouse moves before a press is a drag, not a click

/** How far the board may zoom: until its squares are BIGGEST_SQUARE px wide (at least 1: fitted). */
function maxZoom(viewport, { width, cell }) {
  const fitted = (viewport.clientWidth / width) * cell;
  return fitted > 0 ? Math.max(1, BIGGEST_SQUARE / fitted) : 1;
}

/** Sets the zoom, keeping the board's point under (x, y) (viewport pixels; the centre by default) in place. */
function zoomTo(state, zoom, x = null, y = null) {
  const { viewport, wrap, memory, size } = state;
  const next = Math.min(Math.max(zoom, 1), maxZoom(viewport, size));
  const ratio = next / memory.zoom;
  const px = x ?? viewport.clientWidth / 2;
  const py = y ?? viewport.clientHeight / 2;
  const left = (viewport.scrollLeft + px) * ratio - px;
  const top = (viewport.scrollTop + py) * ratio - py;
  memory.zoom = next;
  wrap.style.setProperty("--cf-zoom", String(next));
  viewport.scrollLeft = left;
  viewport.scrollTop = top;
  updateButtons(state);
}

function updateButtons({ buttons, memory, viewport, size }) {
  buttons.out.disabled = memory.zoom <= 1;
  buttons.fit.disabled = memory.zoom <= 1;
  buttons.in.disabled = memory.zoom >= maxZoom(viewport, size) - 1e-6;
}

const spread = (touches) => Math.hypot(touches[0].clientX - touches[1].clientX, touches[0].clientY - touches[1].clientY);

/** Two fingers zoom (the browser's own pinch is off on the board: `touch-action` in the CSS). */
function pinchZoom(state) {
  const { viewport, memory } = state;
  let pinch = null;
  viewport.addEventListener("touchstart", (event) => {
    if (event.touches.length === 2) pinch = { spread: spread(event.touches), zoom: memory.zoom };
  }, { passive: true });
  viewport.addEventListener("touchmove", (event) => {
    if (!pinch || event.touches.length !== 2) return;
    event.preventDefault();
    const box = viewport.getBoundingClientRect();
    const x = (event.touches[0].clientX + event.touches[1].clientX) / 2 - box.left;
    const y = (event.touches[0].clientY + event.touches[1].clientY) / 2 - box.top;
    zoomTo(state, (pinch.zoom * spread(event.touches)) / pinch.spread, x, y);
  }, { passive: false });
  viewport.addEventListener("touchend", (event) => {
    if (event.touches.length < 2) pinch = null;
  });
}

/** Dragging with the mouse pans a zoomed board; the click that ends a drag picks nothing. */
function mouseDrag({ viewport, memory }) {
  let press = null;
  // Set when a drag ends: the click the release makes (if the browser makes one) is the end of the
  // drag, not a square picked. Cleared by the next press, so a release that made no click cannot
  // eat the player's next real one.
  let justDragged = false;
  viewport.addEventListener("click", (event) => {
    if (!justDragged) return;
    justDragged = false;
    event.stopPropagation();
  }, { capture: true });
  viewport.addEventListener("pointerdown", (event) => {
    justDragged = false;
    if (event.pointerType !== "mouse" || event.button !== 0 || memory.zoom <= 1) return;
    press = { x: event.clientX, y: event.clientY, left: viewport.scrollLeft, top: viewport.scrollTop, dragging: false };
  });
  viewport.addEventListener("pointermove", (event) => {
    if (!press) return;
    if (event.buttons === 0) { // released where the page could not see it
      viewport.classList.remove("dragging");
      press = null;
      return;
    }
    const dx = event.clientX - press.x;
    const dy = event.clientY - press.y;
    if (!press.dragging && Math.hypot(dx, dy) < DRAG) return;
    if (!press.dragging) viewport.setPointerCapture?.(event.pointerId); // the drag may leave the board
    press.dragging = true;
    viewport.classList.add("dragging");
    viewport.scrollLeft = press.left - dx;
    viewport.scrollTop = press.top - dy;
  });
  const release = () => {
    if (press?.dragging) {
      viewport.classList.remove("dragging");
      justDragged = true;
    }
    press = null;
  };
  viewport.addEventListener("pointerup", release);
  viewport.addEventListener("pointercancel", () => { viewport.classList.remove("dragging"); press = null; });
}

/** Scrolls a zoomed board so that `square` is in view, when it is not (the start of a piece just picked). */
function reveal(viewport, square) {
  const hit = square ? viewport.querySelector(`[data-hit="${square}"]`) : null;
  if (!hit) return;
  const frame = viewport.getBoundingClientRect();
  const box = hit.getBoundingClientRect();
  if (box.left >= frame.left && box.right <= frame.right && box.top >= frame.top && box.bottom <= frame.bottom) return;
  viewport.scrollLeft += box.left + box.width / 2 - (frame.left + frame.width / 2);
  viewport.scrollTop += box.top + box.height / 2 - (frame.top + frame.height / 2);
}

/**
 * The board `board` (an SVG of `size` {width, height, cell}: its viewBox's units) in a scrolling
 * window with zoom buttons. `memory` (the page's) keeps `zoom` (1: fitted) and `scroll` across redraws;
 * `show`, a square to bring into view if the scroll hides it.
 */
export function boardViewport(memory, board, size, show = null) {
  memory.zoom ??= 1;
  const viewport = html("div", { class: "cf-viewport", id: "cf-viewport" }, [board]);
  const fitted = memory.zoom <= 1;
  const button = (label, words, onclick, disabled = false) => html("button", {
    type: "button", class: "btn btn-small cf-zoom-button", "aria-label": words, title: words, onclick, disabled,
  }, [label]);
  const state = { viewport, memory, size, buttons: {} };
  state.buttons.out = button("−", "Zoom out", () => zoomTo(state, memory.zoom / STEP), fitted);
  state.buttons.in = button("+", "Zoom in", () => zoomTo(state, memory.zoom * STEP));
  state.buttons.fit = button("Fit", "Fit the whole board in the window", () => zoomTo(state, 1), fitted);
  const bar = html("div", { class: "cf-zoom", role: "group", "aria-label": "Zoom the board" },
    [state.buttons.out, state.buttons.in, state.buttons.fit]);
  state.wrap = html("div", {
    class: "cf-board-wrap", style: `--cf-aspect: ${size.width / size.height}; --cf-zoom: ${memory.zoom}`,
  }, [bar, viewport]);
  viewport.addEventListener("scroll", () => {
    memory.scroll = { left: viewport.scrollLeft, top: viewport.scrollTop };
  }, { passive: true });
  pinchZoom(state);
  mouseDrag(state);
  // Once the page has put the board in place (a redraw after every action), scroll it back to
  // where the player had it, and enable the buttons by the window's size.
  queueMicrotask(() => {
    if (!viewport.isConnected) return;
    viewport.scrollLeft = memory.scroll?.left ?? 0;
    viewport.scrollTop = memory.scroll?.top ?? 0;
    if (memory.zoom > 1) reveal(viewport, show);
    updateButtons(state);
  });
  return state.wrap;
}
