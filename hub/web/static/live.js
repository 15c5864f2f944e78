// The web console's live updates: follows the page's server-sent events (data-live on
// <body>) and replaces what changed. No library, no build step. Without it (or without
// JavaScript) every page still works: it shows the state when it was loaded.
"use strict";
(function () {
  const body = document.body;
  // Waiting times count on by themselves: data-waited is the seconds when the element
  // came (with the page, or with a part fetched again).
  const waited = (seconds) => {
    const s = Math.max(0, Math.floor(seconds));
    // As the hub writes a duration (tablekit.core.status.duration_text): 45 s, 2 min 30 s.
    if (s < 60) return s + " s";
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    if (h) return h + " h" + (m ? " " + m + " min" : "");
    return m + " min" + (r ? " " + r + " s" : "");
  };
  setInterval(() => {
    const now = Date.now();
    for (const el of document.querySelectorAll("[data-waited]")) {
      if (!el.dataset.seen) el.dataset.seen = String(now);
      el.textContent = waited(Number(el.dataset.waited) + (now - Number(el.dataset.seen)) / 1000);
    }
  }, 1000);
  // A refused form: the focus goes to its first wrong field (else to the first error
  // said), so a reader with a screen reader or a keyboard starts where the fix is.
  const wrong = document.querySelector('main [aria-invalid="true"]')
    || document.querySelector('main .field-error, main [role="alert"]');
  if (wrong) {
    if (!wrong.matches("input, select, textarea, button, a")) wrong.tabIndex = -1;
    wrong.focus();
  }
  const address = body.dataset.live;
  if (!address || !window.EventSource) return;
  const state = document.getElementById("live-state");
  // Turned away (too many pages follow the console): said until a stream is taken.
  let busy = false;
  const say = (live) => {
    state.hidden = false;
    state.textContent = live ? body.dataset.liveOn
      : busy ? body.dataset.liveBusy : body.dataset.liveOff;
    state.className = live ? "live-state on" : "live-state off";
  };
  let fetching = false;
  const refresh = async () => {
    const part = body.dataset.refresh;
    if (!part || fetching) return;
    fetching = true;
    try {
      const answer = await fetch(window.location.href, {cache: "no-store"});
      if (!answer.ok) return;
      const page = new DOMParser().parseFromString(await answer.text(), "text/html");
      for (const id of part.split(" ")) {
        const fresh = page.getElementById(id), old = document.getElementById(id);
        if (fresh && old && !editing(old)) old.replaceWith(fresh);
      }
    } finally {
      fetching = false;
    }
  };
  // A part with a form the reader is filling in is left as it is until they send it.
  const editing = (part) => Array.from(part.querySelectorAll("input, select, textarea")).some(
    (f) => f === document.activeElement
      || (f.type === "checkbox" || f.type === "radio" ? f.checked !== f.defaultChecked
        : f.tagName === "SELECT"
          ? Array.from(f.options).some((o) => o.selected !== o.defaultSelected)
        : f.value !== f.defaultValue));
  // A table's card on a page that shows only its state word (data-state-of="N").
  const badge = (card) => {
    const mark = document.querySelector('[data-state-of="' + card.id.slice(6) + '"]');
    const word = card.querySelector(".state");
    if (!mark || !word) return;
    mark.className = "badge state-" + card.dataset.state;
    mark.textContent = word.textContent;
  };
  let source = null;
  // The stream is closed when the page is left (pagehide) and opened again when it is
  // shown (pageshow): a page kept in the back/forward cache must not hold one of the
  // browser's few connections to the console, or the next pages wait for a free one.
  const open = () => {
    if (source) return;
    source = new EventSource(address);
    source.addEventListener("link", (e) => {
      busy = false;
      say(JSON.parse(e.data).live);
    });
    source.addEventListener("busy", () => {
      busy = true;
      say(false);
    });
    source.addEventListener("error", () => say(false));
    source.addEventListener("table", (e) => {
      const data = JSON.parse(e.data);
      const old = document.getElementById("table-" + data.table);
      const holder = document.createElement("div");
      holder.innerHTML = data.html;
      const card = holder.firstElementChild;
      if (old) {
        old.replaceWith(card);
      } else if (body.dataset.allTables) {
        const all = document.getElementById(body.dataset.allTables);
        const after = Array.from(all.children).find(
          (c) => Number(c.id.slice(6)) > data.table);
        all.insertBefore(card, after || null);
      } else {
        badge(card);
      }
    });
    // data-refresh-on: the events after which the page's parts are fetched again.
    for (const kind of (body.dataset.refreshOn || "standings").split(" ")) {
      source.addEventListener(kind, refresh);
    }
  };
  window.addEventListener("pagehide", () => {
    if (source) source.close();
    source = null;
  });
  window.addEventListener("pageshow", (e) => {
    if (e.persisted) refresh();
    open();
  });
  open();
})();
