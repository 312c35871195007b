// The page's preferences, remembered in localStorage: the colour theme (light, dark,
// or auto: the system's `prefers-color-scheme`) and the sound (on or muted), and the
// short sounds themselves. Importing this module applies the remembered theme.
//
//   mountPrefs(container)   the two toggles (a theme button and a mute button)
//   playSound("action" | "turn")   a short beep; nothing when muted or before the
//                                  person has touched the page (browsers require it)
// The buttons' words are the catalogue's (i18n.js), one whole sentence per state.

import { t } from "./i18n.js";

const THEME_KEY = "shiftago.theme";
const SOUND_KEY = "shiftago.sound";
const THEMES = ["auto", "light", "dark"];
// functions, so that each is looked up in the page's catalogue when it is shown
const THEME_WORDS = { auto: () => t("Auto"), light: () => t("Light"), dark: () => t("Dark") };
/** What the theme button says to a screen reader and as its tooltip, per theme now. */
const THEME_SWITCH = {
  auto: () => t("Theme: auto (follows the system). Switch to light"),
  light: () => t("Theme: light. Switch to dark"),
  dark: () => t("Theme: dark. Switch to auto"),
};

function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}

/** The remembered theme: "auto" (the default), "light" or "dark". */
export function theme() {
  const t = read(THEME_KEY);
  return THEMES.includes(t) ? t : "auto";
}

/** The theme in effect now: "light" or "dark". */
export function shownTheme() {
  const t = theme();
  if (t !== "auto") return t;
  return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

/** Apply a theme: "auto" leaves it to the stylesheet's media query. */
export function setTheme(t) {
  const value = THEMES.includes(t) ? t : "auto";
  write(THEME_KEY, value);
  applyTheme(value);
}

function applyTheme(value) {
  const root = document.documentElement;
  if (value === "auto") root.removeAttribute("data-theme");
  else root.setAttribute("data-theme", value);
}

export function muted() {
  return read(SOUND_KEY) === "off";
}

export function setMuted(on) {
  write(SOUND_KEY, on ? "off" : "on");
}

// ---- sound -----------------------------------------------------------------------
let audio = null;
let touched = false;
for (const kind of ["pointerdown", "keydown"]) {
  window.addEventListener(kind, () => (touched = true), { capture: true, passive: true });
}

const TONES = {
  action: [[660, 0, 0.06]],
  turn: [[523, 0, 0.08], [784, 0.1, 0.1]],
};

/** A short beep for an action played or for "your turn"; silent when muted. */
export function playSound(kind) {
  if (muted() || !touched) return;
  const tones = TONES[kind];
  if (!tones) return;
  try {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    if (audio.state === "suspended") audio.resume();
    const now = audio.currentTime;
    for (const [freq, at, length] of tones) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.15, now + at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + at);
      osc.stop(now + at + length + 0.02);
    }
  } catch {
    /* no audio here: stay silent */
  }
}

// ---- the toggles -----------------------------------------------------------------
function button(attrs, text) {
  const b = document.createElement("button");
  b.type = "button";
  for (const [k, v] of Object.entries(attrs)) b.setAttribute(k, v);
  b.textContent = text;
  return b;
}

/** Add the theme and sound toggles to `container`; returns their wrapper. */
export function mountPrefs(container) {
  // the header mounts them on every page; a page script that asks again gets the same
  const mounted = container.querySelector(".prefs");
  if (mounted) return mounted;
  const box = document.createElement("span");
  box.className = "prefs";
  const themeButton = button({ class: "pref small", "data-testid": "theme-toggle" }, "");
  const themeIcon = document.createElement("span");
  themeIcon.setAttribute("aria-hidden", "true");
  const themeWords = document.createElement("span");
  themeWords.className = "pref-words";
  themeButton.append(themeIcon, " ", themeWords);
  const showTheme = () => {
    const shown = theme();
    themeIcon.textContent = shown === "dark" ? "☾" : shown === "light" ? "☀" : "◐";
    themeWords.textContent = THEME_WORDS[shown]();
    themeButton.setAttribute("data-theme-choice", shown);
    const words = THEME_SWITCH[shown]();
    themeButton.setAttribute("aria-label", words);
    themeButton.title = words;
  };
  themeButton.addEventListener("click", () => {
    setTheme(THEMES[(THEMES.indexOf(theme()) + 1) % THEMES.length]);
    showTheme();
  });
  const sound = button({ class: "pref small", "data-testid": "sound-toggle" }, "");
  const icon = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  icon.setAttribute("viewBox", "0 0 16 16");
  icon.setAttribute("aria-hidden", "true");
  icon.setAttribute("focusable", "false");
  const soundWords = document.createElement("span");
  soundWords.className = "pref-words";
  sound.append(icon, soundWords);
  const showSound = () => {
    const off = muted();
    sound.setAttribute("data-muted", off ? "true" : "false");
    // a speaker, with sound waves or crossed out
    icon.innerHTML =
      '<path d="M2 6h3l4-3v10l-4-3H2z" fill="currentColor"/>' +
      (off
        ? '<path d="M11 6l4 4M15 6l-4 4" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/>'
        : '<path d="M11 5.5a3.5 3.5 0 0 1 0 5M12.8 3.5a6 6 0 0 1 0 9" fill="none" stroke="currentColor" stroke-width="1.4" stroke-linecap="round"/>');
    // as the theme button: the words say the state ("Mute sounds", pressed or not, read
    // "Mute" to a sighted player whatever the state), the name what a press does; no
    // aria-pressed, which would contradict a name that changes
    soundWords.textContent = off ? t("Sound off") : t("Sound on");
    const press = off ? t("Sounds are off: press to turn them on") : t("Sounds are on: press to turn them off");
    sound.setAttribute("aria-label", press);
    sound.title = press;
  };
  sound.addEventListener("click", () => {
    setMuted(!muted());
    showSound();
    if (!muted()) playSound("action");
  });
  showTheme();
  showSound();
  box.append(themeButton, sound);
  container.append(box);
  // another tab changed a preference: follow it
  window.addEventListener("storage", (e) => {
    if (e.key === THEME_KEY) {
      applyTheme(theme());
      showTheme();
    } else if (e.key === SOUND_KEY) showSound();
  });
  return box;
}

applyTheme(theme());
