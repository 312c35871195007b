// The Shiftago board in the browser, split by concept as chessground splits the same
// ground: geometry (board/geometry.js), reading a position (board/position.js), the
// marbles' look (board/marbles.js), the view (board/view.js) with its input, motion
// and choices (board/input.js, board/animation.js, board/choices.js), and the still
// picture (board/picture.js). This module is the pages' one door to all of it. Every
// rule is decided by the server: which marbles an action moves comes with the game.
export { FILES, INSERTIONS, isInsertion, isScoring, laneCells, lineCells, scoringEnds } from "./board/geometry.js";
export { parsePosition } from "./board/position.js";
export { COLOURS, MARBLE_FILL, SYMBOLS, colourName, colourTitle, marbleIcon, marbleShape } from "./board/marbles.js";
export { svgEl } from "./board/svg.js";
export { BoardView } from "./board/view.js";
export { drawPicture } from "./board/picture.js";
export { movedWords, pushDescription, removedWords } from "./board/pushwords.js";
