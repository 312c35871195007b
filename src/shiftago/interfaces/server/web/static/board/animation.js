// The board in motion: an action slides in (the pushed marbles one cell on, the new one
// from its arrow) or its scored marbles fade out, and a previewed action shows what it
// would do. Which marbles move is the server's word (GAME `motion`, `pushes`, and the
// scoring choices' `removed`); the board only draws it. Mixed into BoardView (view.js):
// `this` is the board.
import { isInsertion, isScoring, laneCells } from "./geometry.js";

function reducedMotion() {
  return (
    document.documentElement.classList.contains("reduced-motion") ||
    (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches)
  );
}

/** BoardView's motion methods. */
export const Animation = {
  /** Slide in the action of `animate` ({action, board before it, motion}) over the marbles
   * just drawn (`placed`: [node, cell] of each), or fade out what its scoring took off. */
  animate(animate, placed) {
    const motion = animate && animate.board && animate.motion ? animate.motion : null;
    if (!motion) return;
    const moving = [];
    if (isInsertion(animate.action)) {
      const movedTo = new Map();
      for (const m of motion.moves || []) movedTo.set(m.to, m.from);
      for (const [node, cell] of placed) {
        if (movedTo.has(cell)) {
          moving.push([node, cell]);
          this.marblePlace(node, movedTo.get(cell));
        } else if (cell === motion.entry) {
          moving.push([node, cell]);
          const [x, y] = this.arrowPoint(animate.action);
          node.style.transform = `translate(${x}px, ${y}px)`;
          node.classList.add("entering");
        }
      }
    }
    if (isScoring(animate.action)) {
      for (const c of motion.removed || []) {
        const colour = animate.board.get(c);
        if (!colour) continue;
        const node = this.drawMarble(colour, c, this.ghostLayer);
        node.classList.add("leaving");
        setTimeout(() => node.remove(), reducedMotion() ? 0 : 700);
      }
    }
    if (moving.length) {
      if (reducedMotion()) {
        for (const [node, cell] of moving) this.marblePlace(node, cell);
      } else {
        this.svg.getBoundingClientRect(); // commit the start positions
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            for (const [node, cell] of moving) this.marblePlace(node, cell);
          }),
        );
      }
    }
  },

  /** Show what an action would do, without doing it. */
  preview(action) {
    this.clearPreview();
    const v = this.view;
    if (!v || !v.legal || !v.legal.has(action)) return;
    this.previewed = action;
    this.svg.classList.add("previewing");
    if (isInsertion(action)) {
      const moves = v.pushes && v.pushes[action];
      if (!moves) return;
      for (const { from, to } of moves) {
        const node = this.marbleLayer.querySelector(`[data-cell="${from}"]`);
        if (node) {
          this.marblePlace(node, to);
          node.classList.add("shifted");
        }
      }
      const ghost = this.drawMarble(v.turn, laneCells(action)[0], this.ghostLayer);
      ghost.classList.add("preview-new");
      ghost.setAttribute("data-preview", action);
      const arrow = this.arrowNodes.get(action);
      if (arrow) arrow.classList.add("previewed");
      for (const c of laneCells(action)) this.cells.get(c).classList.add("preview-lane");
    } else if (isScoring(action)) {
      const choice = (v.scoring || []).find((c) => c.action === action);
      const removed = choice && choice.removed ? choice.removed : [];
      for (const c of removed) {
        const node = this.marbleLayer.querySelector(`[data-cell="${c}"]`);
        if (node) node.classList.add("to-remove");
      }
      const node = this.scoreLayer.querySelector(`[data-action="${action}"]`);
      if (node) node.classList.add("previewed");
    }
  },

  clearPreview() {
    this.armed = null;
    this.showTapHint();
    if (!this.previewed) return;
    this.previewed = null;
    this.svg.classList.remove("previewing");
    for (const node of this.marbleLayer.querySelectorAll(".shifted")) {
      node.classList.remove("shifted");
      this.marblePlace(node, node.getAttribute("data-cell"));
    }
    for (const node of this.marbleLayer.querySelectorAll(".to-remove")) node.classList.remove("to-remove");
    for (const node of this.ghostLayer.querySelectorAll(".preview-new")) node.remove();
    for (const node of this.svg.querySelectorAll(".previewed")) node.classList.remove("previewed");
    for (const rect of this.cells.values()) rect.classList.remove("preview-lane");
  },
};
