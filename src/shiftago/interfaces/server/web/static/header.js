// The header every page shares (layout.html): the account box (account.js), the theme
// and sound buttons (prefs.js) and the language picker, mounted once whichever page
// script runs first.
import "./account.js";
import { mountPrefs } from "./prefs.js";

const slot = document.getElementById("prefs");
if (slot) mountPrefs(slot);

// the picker asks for the page again with ?lang=, which the server keeps in a cookie
const picker = document.querySelector("[data-testid=language-picker]");
if (picker) {
  picker.addEventListener("change", () => {
    const address = new URL(location.href);
    address.searchParams.set("lang", picker.value);
    location.assign(address.href);
  });
}
