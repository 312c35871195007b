// The header every page shares (layout.html): the account box (account.js), the theme
// and sound buttons (prefs.js) and the language picker, mounted once whichever page
// script runs first.
import "./account.js";
import { api, csrfToken } from "./api.js";
import { mountPrefs } from "./prefs.js";
import { onChosen } from "./chosen.js";

const slot = document.getElementById("prefs");
if (slot) mountPrefs(slot);

// the picker asks for the page again with ?lang=, which the server keeps in a cookie;
// when signed in, the account keeps the choice too, for the player's other browsers.
// The page in the new language gives the keyboard back to the picker: it started at
// the page's top, and a screen reader's user had to find the place again.
const picker = document.querySelector("[data-testid=language-picker]");
const REFOCUS = "shiftago.refocus";
if (picker) {
  onChosen(picker, async (language) => {
    if (csrfToken()) {
      try {
        await api("/api/account/language", { method: "PUT", body: { language } });
      } catch {
        // signed out meanwhile, or the server is away: the cookie still holds the choice
      }
    }
    const address = new URL(location.href);
    address.searchParams.set("lang", language);
    try {
      sessionStorage.setItem(REFOCUS, "language-picker");
    } catch {
      // no storage (a private window's limits): the page opens at its top
    }
    location.assign(address.href);
  });
}

// The menu gets a row of its own (.stacked, style.css) when the header cannot hold
// everything on one row but can hold everything else on its first: how wide that is
// depends on the language, the page's title and the account's name and notices, so it
// is measured, not set by a breakpoint. A child whose top is below the name's bottom
// sits on a later row. When even the rest does not fit one row, the browser wraps the
// header as it comes, which then takes fewer rows than a menu of its own.
const header = document.querySelector("header.top");
if (header) {
  const brand = header.querySelector(".brand");
  const menu = header.querySelector("nav.menu");
  const more = header.querySelector(".header-more");
  const toggle = header.querySelector("[data-testid=menu-toggle]");
  // the parts of the row: the box of the menu's parts is no box when the header is wide
  const parts = () => [...header.children].flatMap((child) => (child === more ? [...more.children] : [child]));
  const wrapped = (counted) => {
    const line = brand.getBoundingClientRect().bottom;
    return parts().some(
      (child) =>
        counted(child) &&
        child.getClientRects().length > 0 &&
        child.getBoundingClientRect().top >= line,
    );
  };
  const folded = () => toggle.getClientRects().length > 0;
  const fit = () => {
    header.classList.remove("stacked");
    if (folded()) return; // a phone's or a tablet's header: the menu button holds the rest
    if (!wrapped(() => true)) return;
    header.classList.add("stacked");
    if (wrapped((child) => child !== menu)) header.classList.remove("stacked");
  };
  fit();
  // Measured again before the browser next draws the page, so that the page never shows
  // the other rows and nothing below the header moves twice: a change of the header's
  // words or parts is seen at once (a mutation observer's callback runs before the next
  // frame), a change of the window's width by its resize event (also before the frame).
  // The header's own class is not watched: fit and the menu button change it.
  new MutationObserver(fit).observe(header, {
    subtree: true,
    childList: true,
    characterData: true,
    attributeFilter: ["hidden"],
  });
  let width = innerWidth;
  addEventListener("resize", () => {
    if (innerWidth !== width) {
      width = innerWidth;
      fit();
    }
  });
  document.fonts?.ready.then(fit);

  // On a phone or a tablet the menu, the account and the preferences fold behind the
  // menu button (style.css). It opens and closes them; Escape, or a click elsewhere on
  // the page, closes them again, Escape giving the focus back to the button.
  const setOpen = (open) => {
    header.classList.toggle("open", open);
    toggle.setAttribute("aria-expanded", String(open));
  };
  const isOpen = () => header.classList.contains("open");
  toggle.addEventListener("click", () => setOpen(!isOpen()));
  header.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !isOpen() || !folded()) return;
    setOpen(false);
    toggle.focus();
  });
  document.addEventListener("click", (event) => {
    if (isOpen() && !header.contains(event.target)) setOpen(false);
  });

  // back in the language chosen: the picker has the keyboard again, behind the opened
  // menu button on a phone or a tablet
  let back = null;
  try {
    back = sessionStorage.getItem(REFOCUS);
    sessionStorage.removeItem(REFOCUS);
  } catch {
    back = null;
  }
  if (back === "language-picker" && picker) {
    if (folded()) setOpen(true);
    picker.focus();
  }
}
