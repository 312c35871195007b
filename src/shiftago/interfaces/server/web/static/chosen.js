// A choice list whose choice does something large: another page, another puzzle. A
// pointer's choice is made at once; with the keyboard the arrow keys (and typed letters)
// only move through the choices, as a screen reader's user reads them, and the choice is
// made with Enter or by leaving the list. Chromium changes a closed list's value on every
// arrow key, which loaded a page per key and lost the keyboard's place.
//
//   onChosen(select, act)   call act(value) once a new choice is made

const MOVING = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"]);

export function onChosen(select, act) {
  let chosen = select.value;
  let keyed = false;
  const commit = () => {
    keyed = false;
    if (select.value === chosen) return;
    chosen = select.value;
    act(chosen);
  };
  select.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      commit();
    } else if (MOVING.has(e.key) || e.key.length === 1) keyed = true;
  });
  select.addEventListener("change", () => {
    if (!keyed) commit();
  });
  select.addEventListener("blur", commit);
}
