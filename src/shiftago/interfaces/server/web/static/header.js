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
