// The header every page shares (layout.html): the account box (account.js), the theme
// and sound buttons (prefs.js) and the language picker, mounted once whichever page
// script runs first.
import "./account.js";
import { api, csrfToken } from "./api.js";
import { mountPrefs } from "./prefs.js";

const slot = document.getElementById("prefs");
if (slot) mountPrefs(slot);

// the picker asks for the page again with ?lang=, which the server keeps in a cookie;
// when signed in, the account keeps the choice too, for the player's other browsers
const picker = document.querySelector("[data-testid=language-picker]");
if (picker) {
  picker.addEventListener("change", async () => {
    const language = picker.value;
    if (csrfToken()) {
      try {
        await api("/api/account/language", { method: "PUT", body: { language } });
      } catch {
        // signed out meanwhile, or the server is away: the cookie still holds the choice
      }
    }
    const address = new URL(location.href);
    address.searchParams.set("lang", language);
    location.assign(address.href);
  });
}

// The menu gets a row of its own (.stacked, style.css) when the header cannot hold
// everything on one row: how wide that is depends on the language, the page's title and
// the account's name, so it is measured, not set by a breakpoint. A child whose top is
// below the name's bottom sits on a later row.
const header = document.querySelector("header.top");
if (header) {
  const brand = header.querySelector(".brand");
  const fit = () => {
    header.classList.remove("stacked");
    const line = brand.getBoundingClientRect().bottom;
    const wrapped = [...header.children].some(
      (child) => child.getClientRects().length > 0 && child.getBoundingClientRect().top >= line,
    );
    header.classList.toggle("stacked", wrapped);
  };
  fit();
  // measured again in the next frame, outside the observer's own callback, so that the
  // change of rows it may make is not a resize within the callback
  let pending = false;
  new ResizeObserver(() => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      fit();
    });
  }).observe(header);
}
