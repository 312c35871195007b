"""What a page's live regions said, in order, as a screen reader hears them: each new
text of an ``aria-live``, ``role=status`` or ``role=alert`` element, once per change
(an emptied region says nothing). Shared by the e2e tests of what a page announces.

    context.add_init_script(LISTEN)   # before the page opens
    ...
    said(page)                        # ["Orange pushed in at ...", "Solved!", ...]
"""

from __future__ import annotations

from typing import Any

#: The script that writes down what the live regions say, from the page's start.
LISTEN = """
window.__heard = [];
(() => {
  const REGIONS = "[aria-live], [role=status], [role=alert]";
  const last = new Map();
  const listen = () => {
    for (const region of document.querySelectorAll(REGIONS)) {
      if (region.closest("[aria-live=off]") === region) continue;
      const text = region.textContent.trim();
      if (text === (last.get(region) ?? "")) continue;
      last.set(region, text);
      if (text && !region.hidden) window.__heard.push(text);
    }
  };
  new MutationObserver(listen).observe(document, {
    subtree: true, childList: true, characterData: true, attributes: true,
    attributeFilter: ["hidden"],
  });
})();
"""


def said(page: Any) -> list[str]:
    """Everything the page's live regions said since it opened, in order."""
    heard: list[str] = page.evaluate("() => window.__heard || []")
    return heard


def forget(page: Any) -> None:
    """Start listening afresh: what was said so far is forgotten."""
    page.evaluate("() => { window.__heard = []; }")
