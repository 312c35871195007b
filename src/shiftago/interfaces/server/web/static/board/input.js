// The board's input: mouse, touch and keyboard on the elements that stand for actions
// (arrows and scoring choices), and where the keyboard's focus goes. Mixed into
// BoardView (view.js): `this` is the board.

// Whether the person's last input was a key (not a pointer): the page moves the focus
// onto the board for a keyboard only, since the focus ring on an arrow nobody chose
// looks like a hint (a puzzle opened by a tap showed one on its first playable arrow).
// (There is no window where the page's scripts are tested under Node.)
let byKeys = false;
globalThis.addEventListener?.("keydown", () => { byKeys = true; }, true);
globalThis.addEventListener?.("pointerdown", () => { byKeys = false; }, true);

// Whether an action was played on this page by two taps: until then a board on a touch
// screen says how a tap works (view.js, showTapHint), where a newcomer's first tap only
// previewed, without a word before it.
let playedByTaps = false;

/** Whether an action was played on this page by a second tap. */
export function tapsLearned() {
  return playedByTaps;
}

/** BoardView's input methods. */
export const Input = {
  /** Mouse, touch and keyboard on an element that stands for an action. */
  wire(node, action) {
    node.addEventListener("pointerdown", (e) => {
      this.lastPointer = e.pointerType || "mouse";
    });
    node.addEventListener("pointerenter", (e) => {
      if (e.pointerType === "mouse") this.preview(action);
    });
    node.addEventListener("pointerleave", (e) => {
      if (e.pointerType === "mouse" && this.previewed === action) this.clearPreview();
    });
    // a focus the player moved previews; one the page moved after a redraw does not
    // (after a scoring it lands on the first arrow: a push nobody chose would show)
    node.addEventListener("focus", () => {
      this.rove(action);
      if (!this.placingFocus) this.preview(action);
    });
    node.addEventListener("blur", () => {
      if (this.previewed === action) this.clearPreview();
    });
    node.addEventListener("click", (e) => {
      e.preventDefault();
      if (!this.canPlay(action)) return;
      // On a touch screen the first tap previews and the second plays. The tap's focus
      // already previews, so "armed" (not "previewed") marks the tap that previewed.
      if (this.lastPointer === "touch" && this.armed !== action) {
        this.preview(action);
        this.armed = action;
        this.showTapHint();
        return;
      }
      if (this.lastPointer === "touch") playedByTaps = true;
      this.armed = null;
      this.lastPointer = "mouse";
      // an element clicked keeps no focus: the page's own keys (Left to take back on the
      // analysis board) work after a click as after a click anywhere else
      if (!byKeys && this.svg.contains(document.activeElement)) document.activeElement.blur();
      this.choose(action);
    });
    node.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        if (this.canPlay(action)) this.choose(action);
      } else if (["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"].includes(e.key)) {
        e.preventDefault();
        this.moveFocus(node, e.key);
      } else if (e.key === "Home" || e.key === "End") {
        // the first or the last playable action, where the page would only scroll
        e.preventDefault();
        const list = this.focusables();
        const to = e.key === "Home" ? list[0] : list[list.length - 1];
        if (to) to.focus();
      } else if (e.key === "Escape") {
        this.clearPreview();
      }
    });
  },

  canPlay(action) {
    const v = this.view;
    const choosable = (v && v.legal && v.legal.has(action)) || (v && v.tryable && v.tryable.has(action));
    return !!(v && this.interactive && v.active && choosable);
  },

  choose(action) {
    this.clearPreview();
    if (this.onAction) this.onAction(action);
  },

  /** The playable action elements, in reading order around the board. */
  focusables() {
    return [...this.svg.querySelectorAll('[data-action][aria-disabled="false"]')];
  },

  /** Make the board one Tab stop, not one per arrow (a roving tabindex): of the playable
   * elements only the one the keyboard was on last, while it is playable, else the
   * first, takes the Tab; the arrow keys move between them (moveFocus). */
  rove(action = this.roving) {
    const list = this.focusables();
    const stop = list.find((node) => node.getAttribute("data-action") === action) || list[0];
    if (stop) this.roving = stop.getAttribute("data-action");
    for (const node of this.svg.querySelectorAll("[data-action]")) {
      node.setAttribute("tabindex", node === stop ? "0" : "-1");
    }
  },

  /** Focus the next action along the line of `from` (its row for Left and Right, its
   * column for Up and Down) in the direction of the arrow `key`; at the line's end, the
   * first one of the next line, as a text's cursor goes: Right goes on at the left end
   * of the row below, Left at the right end of the row above, Down at the top of the
   * column to the right, Up at the bottom of the column to the left; after the last
   * line, the first again. So one key held down visits every action. */
  moveFocus(from, key) {
    const list = this.focusables();
    if (!list.length) return;
    const [dx, dy] = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] }[key];
    const centre = (node) => {
      const r = node.getBoundingClientRect();
      return [r.left + r.width / 2, r.top + r.height / 2];
    };
    const [x, y] = centre(from);
    let next = null;
    let nearest = Infinity;
    for (const node of list) {
      const [nx, ny] = centre(node);
      const along = (nx - x) * dx + (ny - y) * dy;
      const across = Math.abs((nx - x) * dy) + Math.abs((ny - y) * dx);
      if (node !== from && along >= 1 && across < 1 && along < nearest) [next, nearest] = [node, along];
    }
    if (!next) next = this.nextLine(list.map((node) => [node, centre(node)]), [x, y], dx, dy);
    if (next) next.focus();
  },

  /** The first action of the line after the one at `[x, y]` for the direction
   * `(dx, dy)` (see `moveFocus`); `placed` holds each action with its centre. */
  nextLine(placed, [x, y], dx, dy) {
    // across: the distance towards the next line (down for Right, up for Left, right
    // for Down, left for Up); along: the position in the line, in the key's direction
    const across = ([nx, ny]) => (dx ? (ny - y) * dx : (nx - x) * dy);
    const along = ([nx, ny]) => nx * dx + ny * dy;
    const later = placed.filter(([, c]) => across(c) >= 1);
    const pool = later.length ? later : placed;
    const line = Math.min(...pool.map(([, c]) => across(c)));
    const inLine = pool.filter(([, c]) => across(c) < line + 1);
    inLine.sort((a, b) => along(a[1]) - along(b[1]));
    return inLine.length ? inLine[0][0] : null;
  },

  /** Focus the first playable element when the person uses the keyboard (they go on
   * from here); after a tap or a click, or before any input, the focus stays where it
   * is. The page moves the focus, not the player: nothing is previewed (a push nobody
   * chose would show, and look like a hint). */
  focusFirst() {
    if (!byKeys) return;
    const list = this.focusables();
    if (list.length) this.placeFocus(list[0]);
  },

  /** Focus `target` for the page, without the preview a player's focus shows. */
  placeFocus(target) {
    this.placingFocus = true;
    try {
      target.focus({ preventScroll: true });
    } finally {
      this.placingFocus = false;
    }
  },

  /** After a redraw took the focused element away: focus the element of `action` if it
   * is there again, else the first playable one, else the board itself. */
  refocus(action) {
    const again = this.svg.querySelector(`[data-action="${action}"][aria-disabled="false"]`);
    const target = again || this.focusables()[0];
    if (target) {
      this.placeFocus(target);
      return;
    }
    if (!this.svg.hasAttribute("tabindex")) this.svg.setAttribute("tabindex", "-1");
    this.svg.focus({ preventScroll: true });
  },
};
