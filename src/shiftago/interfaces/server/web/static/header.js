// The header every page shares (layout.html): the account box (account.js) and the
// theme and sound buttons (prefs.js), mounted once whichever page script runs first.
import "./account.js";
import { mountPrefs } from "./prefs.js";

const slot = document.getElementById("prefs");
if (slot) mountPrefs(slot);
